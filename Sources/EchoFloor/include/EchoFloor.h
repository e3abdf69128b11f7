#pragma once
/*
 * EchoFloor: the C side of `dialogmock-bench echo`.
 *
 * - A minimal blocking WebSocket echo server (one connection, no libwebsockets): the latency
 *   floor every other server is compared against.
 * - A blocking load client (TCP_NODELAY, masked frames, an 83-byte JSON text frame) that runs
 *   warm-up plus N timed round trips on its own pthread.
 * - Idle connections: opened (handshake completed) and then held by C code.
 *
 * Everything talks to 127.0.0.1 only; every loop is bounded by a count and a wall-clock limit.
 */
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The floor server ---------------------------------------------------------------- */

typedef struct ef_floor_server ef_floor_server;

/* Binds 127.0.0.1:0 and starts a pthread that accepts one connection, completes the
 * WebSocket handshake and echoes text/binary frames (answering pings, closing on close) until
 * the peer leaves or `ef_floor_stop` is called. Returns NULL on error (message in `err`). */
ef_floor_server *ef_floor_start(uint16_t *port_out, char *err, size_t err_len);

/* The CPU-time clock of the server thread (for `ef_rtt_options.server_cpu_clock`). */
clockid_t ef_floor_cpu_clock(const ef_floor_server *server);

/* Stops the thread (shutting down the sockets) and frees the server. */
void ef_floor_stop(ef_floor_server *server);

/* ---- The round-trip client ----------------------------------------------------------- */

/* One server to measure. */
typedef struct ef_rtt_target {
    const char *host;          /* "127.0.0.1" */
    uint16_t port;
    const char *path;          /* e.g. "/bench/echo" */
    int has_server_cpu_clock;  /* when non-zero, `server_cpu_clock` is read around each timed block */
    clockid_t server_cpu_clock;
} ef_rtt_target;

typedef struct ef_rtt_plan {
    int warmup;                /* round trips per target not recorded (200) */
    int round_trips;           /* recorded round trips per target (10000) */
    int block;                 /* targets take turns in blocks of this many round trips */
    double max_seconds;        /* wall-clock cap of the whole run, warm-up included (60) */
} ef_rtt_plan;

typedef struct ef_rtt_result {
    int64_t *samples_ns;       /* malloc'd, `count` entries; free with ef_rtt_result_free */
    int count;                 /* recorded round trips actually completed */
    int payload_bytes;         /* 83 */
    int hit_time_cap;          /* 1 when max_seconds ended the run early */
    int64_t wall_ns;           /* wall time of this target's timed blocks */
    int64_t client_cpu_ns;     /* client thread CPU time of this target's timed blocks */
    int64_t server_cpu_ns;     /* server thread CPU time of those blocks, -1 if unknown */
} ef_rtt_result;

/* On a new pthread (joined before returning): connects to every target (handshake), runs
 * `warmup` echoes of the 83-byte text frame on each, then `round_trips` timed echoes per target,
 * the targets taking turns in blocks of `block` so that all of them see the same machine
 * conditions. Fills results[0..n). Returns 0, or -1 with `err` set. */
int ef_rtt_run(const ef_rtt_target *targets, int n, const ef_rtt_plan *plan, ef_rtt_result *results,
               char *err, size_t err_len);
void ef_rtt_result_free(ef_rtt_result *result);

/* ---- Idle connections ---------------------------------------------------------------- */

typedef struct ef_idle_set ef_idle_set;

/* Opens `count` WebSocket connections one after another (each handshake completed), bounded by
 * `max_seconds`. Returns the set (possibly with fewer connections: see ef_idle_count), or NULL
 * on error with `err` set. */
ef_idle_set *ef_idle_open(const char *host, uint16_t port, const char *path, int count,
                          double max_seconds, char *err, size_t err_len);
int ef_idle_count(const ef_idle_set *set);
/* Sends one small echo on every held connection and checks the answer (bounded by
 * `max_seconds`). Returns how many answered correctly. */
int ef_idle_verify(ef_idle_set *set, double max_seconds);
/* Closes every connection (plain close(2), no close frame) and frees the set. */
void ef_idle_close(ef_idle_set *set);

/* ---- Process helpers ----------------------------------------------------------------- */

/* Raises RLIMIT_NOFILE's soft limit to at least `wanted` (up to the hard limit). Returns the
 * resulting soft limit. */
long ef_raise_nofile(long wanted);
/* Resident set size of this process in KiB (VmRSS), -1 if unknown. */
long ef_rss_kib(void);
/* The CPU model name from /proc/cpuinfo into `buf` (empty if unknown). */
void ef_cpu_model(char *buf, size_t len);
/* The CPU-time clock of the calling thread. */
clockid_t ef_current_thread_cpu_clock(void);
/* Reads a clock in nanoseconds (-1 on error). */
int64_t ef_clock_ns(clockid_t clock);

#ifdef __cplusplus
}
#endif
