/*
 * EchoFloor: a minimal blocking WebSocket echo server (the latency floor), the blocking
 * round-trip load client and the idle-connection opener of `dialogmock-bench echo`.
 * Plain POSIX sockets and pthreads; no libwebsockets. Loopback only.
 */
#define _GNU_SOURCE
#include "EchoFloor.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

/* ---- Small utilities ----------------------------------------------------------------- */

static const char k_payload[] = "{\"type\":\"input_audio_buffer.append\",\"audio\":\"AAABAAIAAwAEAAUABgAHAAgACQAKAAsADAAN\"}";
_Static_assert(sizeof(k_payload) - 1 == 83, "the benchmark frame is 83 bytes");

static const char k_ws_guid[] = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int64_t ef_clock_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return -1;
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

clockid_t ef_current_thread_cpu_clock(void) {
    clockid_t clock = CLOCK_THREAD_CPUTIME_ID;
    if (pthread_getcpuclockid(pthread_self(), &clock) != 0) return CLOCK_THREAD_CPUTIME_ID;
    return clock;
}

static void set_err(char *err, size_t err_len, const char *fmt, ...) {
    if (!err || err_len == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

static int write_all(int fd, const void *data, size_t len) {
    const uint8_t *p = data;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static void set_timeouts(int fd, int seconds) {
    struct timeval tv = {.tv_sec = seconds, .tv_usec = 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

static void set_nodelay(int fd) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* xorshift64* for masks and keys: deterministic per seed, good enough for masking. */
static uint64_t xorshift(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* ---- SHA-1 and base64 (for Sec-WebSocket-Accept) ------------------------------------- */

static uint32_t rol32(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static void sha1(const uint8_t *data, size_t len, uint8_t out[20]) {
    uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
    size_t total = ((len + 8) / 64 + 1) * 64;
    uint8_t *msg = calloc(total, 1);
    if (!msg) { memset(out, 0, 20); return; }
    memcpy(msg, data, len);
    msg[len] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++) msg[total - 1 - i] = (uint8_t)(bits >> (8 * i));
    for (size_t off = 0; off < total; off += 64) {
        uint32_t w[80];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)msg[off + 4 * i] << 24 | (uint32_t)msg[off + 4 * i + 1] << 16 |
                   (uint32_t)msg[off + 4 * i + 2] << 8 | (uint32_t)msg[off + 4 * i + 3];
        for (int i = 16; i < 80; i++) w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
        uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
        for (int i = 0; i < 80; i++) {
            uint32_t f, k;
            if (i < 20) { f = (b & c) | (~b & d); k = 0x5A827999; }
            else if (i < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1; }
            else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDC; }
            else { f = b ^ c ^ d; k = 0xCA62C1D6; }
            uint32_t t = rol32(a, 5) + f + e + k + w[i];
            e = d; d = c; c = rol32(b, 30); b = a; a = t;
        }
        h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
    }
    free(msg);
    for (int i = 0; i < 5; i++) {
        out[4 * i] = (uint8_t)(h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(h[i] >> 8);
        out[4 * i + 3] = (uint8_t)h[i];
    }
}

static void base64(const uint8_t *in, size_t len, char *out) {
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < len) v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < len) v |= in[i + 2];
        out[o++] = tbl[(v >> 18) & 63];
        out[o++] = tbl[(v >> 12) & 63];
        out[o++] = i + 1 < len ? tbl[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? tbl[v & 63] : '=';
    }
    out[o] = 0;
}

static void accept_key(const char *key, char out[29]) {
    char joined[128];
    snprintf(joined, sizeof joined, "%s%s", key, k_ws_guid);
    uint8_t digest[20];
    sha1((const uint8_t *)joined, strlen(joined), digest);
    base64(digest, 20, out);
}

/* Reads an HTTP head (up to "\r\n\r\n") into buf; returns the head length, or -1. Bytes read
 * past the head stay in buf[head..*have). */
static int read_http_head(int fd, char *buf, size_t cap, size_t *have) {
    *have = 0;
    while (*have < cap - 1) {
        ssize_t n = recv(fd, buf + *have, cap - 1 - *have, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        *have += (size_t)n;
        buf[*have] = 0;
        char *end = strstr(buf, "\r\n\r\n");
        if (end) return (int)(end - buf) + 4;
    }
    return -1;
}

/* The value of header `name` (case-insensitive) in an HTTP head, trimmed, into out. */
static int header_value(const char *head, size_t head_len, const char *name, char *out, size_t out_len) {
    size_t name_len = strlen(name);
    const char *p = head;
    const char *end = head + head_len;
    while (p < end) {
        const char *eol = strstr(p, "\r\n");
        if (!eol || eol > end) eol = end;
        if ((size_t)(eol - p) > name_len && strncasecmp(p, name, name_len) == 0 && p[name_len] == ':') {
            const char *v = p + name_len + 1;
            while (v < eol && (*v == ' ' || *v == '\t')) v++;
            const char *ve = eol;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t')) ve--;
            size_t n = (size_t)(ve - v);
            if (n >= out_len) return -1;
            memcpy(out, v, n);
            out[n] = 0;
            return 0;
        }
        p = eol + 2;
    }
    return -1;
}

/* ---- The floor server ---------------------------------------------------------------- */

struct ef_floor_server {
    int listen_fd;
    _Atomic int conn_fd;
    atomic_bool stop;
    pthread_t thread;
    clockid_t cpu_clock;
    pthread_mutex_t ready_lock;
    pthread_cond_t ready_cond;
    int ready;
};

#define FLOOR_BUFFER (1u << 20)

static void floor_serve_connection(ef_floor_server *server, int fd) {
    char head[8192];
    size_t have = 0;
    int head_len = read_http_head(fd, head, sizeof head, &have);
    if (head_len < 0) return;
    char key[128];
    if (header_value(head, (size_t)head_len, "Sec-WebSocket-Key", key, sizeof key) != 0) return;
    char accept[29];
    accept_key(key, accept);
    char response[256];
    int rlen = snprintf(response, sizeof response,
                        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Accept: %s\r\n\r\n", accept);
    if (write_all(fd, response, (size_t)rlen) != 0) return;

    uint8_t *buf = malloc(FLOOR_BUFFER);
    uint8_t *out = malloc(FLOOR_BUFFER + 16);
    if (!buf || !out) { free(buf); free(out); return; }
    size_t filled = have - (size_t)head_len;
    memcpy(buf, head + head_len, filled);

    int64_t deadline = now_ns() + 600LL * 1000000000LL; /* hard cap: 10 minutes */
    int done = 0;
    while (!done && !atomic_load(&server->stop) && now_ns() < deadline) {
        /* Parse every complete frame in the buffer. */
        size_t pos = 0;
        for (;;) {
            if (filled - pos < 2) break;
            uint8_t b0 = buf[pos], b1 = buf[pos + 1];
            int opcode = b0 & 0x0F;
            int masked = b1 & 0x80;
            uint64_t len = b1 & 0x7F;
            size_t hdr = 2;
            if (len == 126) {
                if (filled - pos < 4) break;
                len = (uint64_t)buf[pos + 2] << 8 | buf[pos + 3];
                hdr = 4;
            } else if (len == 127) {
                if (filled - pos < 10) break;
                len = 0;
                for (int i = 0; i < 8; i++) len = len << 8 | buf[pos + 2 + i];
                hdr = 10;
            }
            size_t mask_at = pos + hdr;
            if (masked) hdr += 4;
            if (len > FLOOR_BUFFER - 16 - hdr) { done = 1; break; } /* too large for the floor */
            if (filled - pos < hdr + len) break;
            uint8_t *payload = buf + pos + hdr;
            if (masked) {
                const uint8_t *m = buf + mask_at;
                for (uint64_t i = 0; i < len; i++) payload[i] ^= m[i & 3];
            }
            int reply_opcode = opcode;
            if (opcode == 0x9) reply_opcode = 0xA;
            if (opcode != 0xA) {
                size_t o = 0;
                out[o++] = (uint8_t)((b0 & 0x80) | reply_opcode);
                if (len < 126) {
                    out[o++] = (uint8_t)len;
                } else if (len < 65536) {
                    out[o++] = 126;
                    out[o++] = (uint8_t)(len >> 8);
                    out[o++] = (uint8_t)len;
                } else {
                    out[o++] = 127;
                    for (int i = 7; i >= 0; i--) out[o++] = (uint8_t)(len >> (8 * i));
                }
                memcpy(out + o, payload, (size_t)len);
                if (write_all(fd, out, o + (size_t)len) != 0) { done = 1; break; }
            }
            pos += hdr + (size_t)len;
            if (opcode == 0x8) { done = 1; break; }
        }
        if (done) break;
        if (pos > 0) {
            memmove(buf, buf + pos, filled - pos);
            filled -= pos;
        }
        ssize_t n = recv(fd, buf + filled, FLOOR_BUFFER - filled, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        filled += (size_t)n;
    }
    free(buf);
    free(out);
}

static void *floor_thread(void *arg) {
    ef_floor_server *server = arg;
    pthread_mutex_lock(&server->ready_lock);
    server->cpu_clock = ef_current_thread_cpu_clock();
    server->ready = 1;
    pthread_cond_signal(&server->ready_cond);
    pthread_mutex_unlock(&server->ready_lock);

    int64_t deadline = now_ns() + 600LL * 1000000000LL;
    while (!atomic_load(&server->stop) && now_ns() < deadline) {
        struct pollfd pfd = {.fd = server->listen_fd, .events = POLLIN};
        int r = poll(&pfd, 1, 100);
        if (r <= 0) continue;
        int fd = accept(server->listen_fd, NULL, NULL);
        if (fd < 0) continue;
        set_nodelay(fd);
        atomic_store(&server->conn_fd, fd);
        if (atomic_load(&server->stop)) { close(fd); break; }
        floor_serve_connection(server, fd);
        atomic_store(&server->conn_fd, -1);
        close(fd);
    }
    return NULL;
}

ef_floor_server *ef_floor_start(uint16_t *port_out, char *err, size_t err_len) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) { set_err(err, err_len, "socket: %s", strerror(errno)); return NULL; }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = 0};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 16) != 0) {
        set_err(err, err_len, "bind/listen 127.0.0.1:0: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    socklen_t alen = sizeof addr;
    getsockname(fd, (struct sockaddr *)&addr, &alen);
    ef_floor_server *server = calloc(1, sizeof *server);
    if (!server) { close(fd); set_err(err, err_len, "out of memory"); return NULL; }
    server->listen_fd = fd;
    atomic_init(&server->conn_fd, -1);
    atomic_init(&server->stop, false);
    pthread_mutex_init(&server->ready_lock, NULL);
    pthread_cond_init(&server->ready_cond, NULL);
    int rc = pthread_create(&server->thread, NULL, floor_thread, server);
    if (rc != 0) {
        set_err(err, err_len, "pthread_create: %s", strerror(rc));
        close(fd);
        free(server);
        return NULL;
    }
    pthread_mutex_lock(&server->ready_lock);
    while (!server->ready) pthread_cond_wait(&server->ready_cond, &server->ready_lock);
    pthread_mutex_unlock(&server->ready_lock);
    *port_out = ntohs(addr.sin_port);
    return server;
}

clockid_t ef_floor_cpu_clock(const ef_floor_server *server) { return server->cpu_clock; }

void ef_floor_stop(ef_floor_server *server) {
    if (!server) return;
    atomic_store(&server->stop, true);
    int conn = atomic_load(&server->conn_fd);
    if (conn >= 0) shutdown(conn, SHUT_RDWR);
    shutdown(server->listen_fd, SHUT_RDWR);
    pthread_join(server->thread, NULL);
    close(server->listen_fd);
    pthread_mutex_destroy(&server->ready_lock);
    pthread_cond_destroy(&server->ready_cond);
    free(server);
}

/* ---- Client connections -------------------------------------------------------------- */

/* Connects to host:port, upgrades at path. Returns the fd or -1 (err set). */
static int client_connect(const char *host, uint16_t port, const char *path, uint64_t *rng,
                          char *err, size_t err_len) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) { set_err(err, err_len, "socket: %s", strerror(errno)); return -1; }
    set_timeouts(fd, 5);
    set_nodelay(fd);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(port)};
    if (inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
        set_err(err, err_len, "not an IPv4 address: %s", host);
        close(fd);
        return -1;
    }
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
        set_err(err, err_len, "connect %s:%u: %s", host, port, strerror(errno));
        close(fd);
        return -1;
    }
    uint8_t raw[16];
    for (int i = 0; i < 16; i += 8) {
        uint64_t r = xorshift(rng);
        memcpy(raw + i, &r, 8);
    }
    char key[25];
    base64(raw, 16, key);
    char request[512];
    int n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: %s:%u\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n", path, host, port, key);
    if (write_all(fd, request, (size_t)n) != 0) {
        set_err(err, err_len, "send handshake: %s", strerror(errno));
        close(fd);
        return -1;
    }
    char head[4096];
    size_t have = 0;
    int head_len = read_http_head(fd, head, sizeof head, &have);
    if (head_len < 0) {
        set_err(err, err_len, "no handshake response: %s", errno ? strerror(errno) : "closed");
        close(fd);
        return -1;
    }
    if (strncmp(head, "HTTP/1.1 101", 12) != 0) {
        char *eol = strstr(head, "\r\n");
        if (eol) *eol = 0;
        set_err(err, err_len, "upgrade refused: %s", head);
        close(fd);
        return -1;
    }
    char expected[29], got[64];
    accept_key(key, expected);
    if (header_value(head, (size_t)head_len, "Sec-WebSocket-Accept", got, sizeof got) != 0 ||
        strcmp(expected, got) != 0) {
        set_err(err, err_len, "bad Sec-WebSocket-Accept");
        close(fd);
        return -1;
    }
    if (have != (size_t)head_len) {
        set_err(err, err_len, "unexpected bytes after the handshake");
        close(fd);
        return -1;
    }
    return fd;
}

/* Builds a masked text frame of `len` (< 126) bytes into frame; returns its size. */
static size_t masked_text_frame(const char *payload, size_t len, uint64_t *rng, uint8_t *frame) {
    uint32_t mask = (uint32_t)xorshift(rng);
    uint8_t m[4];
    memcpy(m, &mask, 4);
    frame[0] = 0x81;
    frame[1] = (uint8_t)(0x80 | len);
    memcpy(frame + 2, m, 4);
    for (size_t i = 0; i < len; i++) frame[6 + i] = (uint8_t)payload[i] ^ m[i & 3];
    return 6 + len;
}

/* Reads one unmasked server frame (payload < 126 bytes, no extension). Returns its payload
 * length into *len and opcode, 0 on success, -1 on error/close/timeout. */
static int read_small_frame(int fd, uint8_t *buf, size_t cap, int *opcode, size_t *len) {
    size_t have = 0, need = 2;
    while (have < need) {
        ssize_t n = recv(fd, buf + have, cap - have, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        have += (size_t)n;
        if (have >= 2) {
            size_t plen = buf[1] & 0x7F;
            if (plen >= 126 || (buf[1] & 0x80)) return -1;
            need = 2 + plen;
            if (need > cap) return -1;
        }
    }
    if (have != need) return -1; /* the client is strictly one-at-a-time */
    *opcode = buf[0] & 0x0F;
    *len = need - 2;
    return 0;
}

/* ---- The round-trip client ----------------------------------------------------------- */

typedef struct rtt_job {
    const ef_rtt_target *targets;
    int n;
    const ef_rtt_plan *plan;
    ef_rtt_result *results;
    char *err;
    size_t err_len;
    int rc;
} rtt_job;

/* One echo of the benchmark frame on fd; returns the round trip in ns, or -1 (err set). */
static int64_t round_trip(int fd, uint64_t *rng, char *err, size_t err_len) {
    const size_t plen = sizeof k_payload - 1;
    uint8_t frame[256], reply[256];
    size_t flen = masked_text_frame(k_payload, plen, rng, frame);
    int64_t t0 = now_ns();
    if (write_all(fd, frame, flen) != 0) {
        set_err(err, err_len, "send failed: %s", strerror(errno));
        return -1;
    }
    int opcode = 0;
    size_t rlen = 0;
    errno = 0;
    if (read_small_frame(fd, reply, sizeof reply, &opcode, &rlen) != 0) {
        set_err(err, err_len, "no echo: %s", errno ? strerror(errno) : "closed or unexpected frame");
        return -1;
    }
    int64_t t1 = now_ns();
    if (opcode != 1 || rlen != plen || memcmp(reply + 2, k_payload, plen) != 0) {
        set_err(err, err_len, "wrong echo (opcode %d, %zu bytes)", opcode, rlen);
        return -1;
    }
    return t1 - t0;
}

static void polite_close(int fd) {
    /* Close frame (1000), then wait briefly for the server's. */
    uint8_t close_frame[8] = {0x88, 0x82, 0, 0, 0, 0, 0x03, 0xE8};
    write_all(fd, close_frame, sizeof close_frame);
    set_timeouts(fd, 1);
    uint8_t sink[256];
    for (int i = 0; i < 4; i++) {
        if (recv(fd, sink, sizeof sink, 0) <= 0) break;
    }
    close(fd);
}

static void *rtt_thread(void *arg) {
    rtt_job *job = arg;
    const ef_rtt_plan *plan = job->plan;
    const int n = job->n;
    job->rc = -1;
    uint64_t rng = 0x9E3779B97F4A7C15ULL ^ (uint64_t)now_ns();
    int fds[n];
    for (int t = 0; t < n; t++) fds[t] = -1;
    const int64_t deadline = now_ns() + (int64_t)(plan->max_seconds * 1e9);
    clockid_t own_clock = ef_current_thread_cpu_clock();
    char what[256];
    int failed = 0;

    for (int t = 0; t < n && !failed; t++) {
        ef_rtt_result *r = &job->results[t];
        r->payload_bytes = (int)(sizeof k_payload - 1);
        r->server_cpu_ns = job->targets[t].has_server_cpu_clock ? 0 : -1;
        r->samples_ns = malloc(sizeof(int64_t) * (size_t)(plan->round_trips > 0 ? plan->round_trips : 1));
        if (!r->samples_ns) { set_err(job->err, job->err_len, "out of memory"); failed = 1; break; }
        fds[t] = client_connect(job->targets[t].host, job->targets[t].port, job->targets[t].path, &rng,
                                what, sizeof what);
        if (fds[t] < 0) { set_err(job->err, job->err_len, "target %d: %s", t, what); failed = 1; break; }
        for (int i = 0; i < plan->warmup && !failed; i++) {
            if (now_ns() > deadline) break;
            if (round_trip(fds[t], &rng, what, sizeof what) < 0) {
                set_err(job->err, job->err_len, "target %d, warm-up %d: %s", t, i, what);
                failed = 1;
            }
        }
    }

    int block = plan->block > 0 ? plan->block : plan->round_trips;
    for (int round = 0; !failed; round++) {
        int progressed = 0;
        for (int k = 0; k < n && !failed; k++) {
            int t = (round + k) % n; /* rotate who goes first */
            ef_rtt_result *r = &job->results[t];
            int todo = plan->round_trips - r->count;
            if (todo <= 0) continue;
            if (todo > block) todo = block;
            progressed = 1;
            const ef_rtt_target *target = &job->targets[t];
            int64_t cpu0 = ef_clock_ns(own_clock);
            int64_t srv0 = target->has_server_cpu_clock ? ef_clock_ns(target->server_cpu_clock) : 0;
            int64_t wall0 = now_ns();
            for (int i = 0; i < todo; i++) {
                if (now_ns() > deadline) {
                    for (int u = 0; u < n; u++) job->results[u].hit_time_cap = 1;
                    break;
                }
                int64_t rtt = round_trip(fds[t], &rng, what, sizeof what);
                if (rtt < 0) {
                    set_err(job->err, job->err_len, "target %d, round trip %d: %s", t, r->count, what);
                    failed = 1;
                    break;
                }
                r->samples_ns[r->count++] = rtt;
            }
            r->wall_ns += now_ns() - wall0;
            r->client_cpu_ns += ef_clock_ns(own_clock) - cpu0;
            if (target->has_server_cpu_clock) {
                int64_t srv1 = ef_clock_ns(target->server_cpu_clock);
                if (srv0 >= 0 && srv1 >= 0 && r->server_cpu_ns >= 0) r->server_cpu_ns += srv1 - srv0;
                else r->server_cpu_ns = -1;
            }
            if (r->hit_time_cap) break;
        }
        if (!progressed || job->results[0].hit_time_cap) break;
    }

    for (int t = 0; t < n; t++) {
        if (fds[t] >= 0) polite_close(fds[t]);
    }
    if (!failed) job->rc = 0;
    return NULL;
}

int ef_rtt_run(const ef_rtt_target *targets, int n, const ef_rtt_plan *plan, ef_rtt_result *results,
               char *err, size_t err_len) {
    if (n <= 0 || n > 64) { set_err(err, err_len, "1 to 64 targets"); return -1; }
    memset(results, 0, sizeof *results * (size_t)n);
    rtt_job job = {.targets = targets, .n = n, .plan = plan, .results = results, .err = err,
                   .err_len = err_len, .rc = -1};
    pthread_t thread;
    int rc = pthread_create(&thread, NULL, rtt_thread, &job);
    if (rc != 0) {
        set_err(err, err_len, "pthread_create: %s", strerror(rc));
        return -1;
    }
    pthread_join(thread, NULL);
    return job.rc;
}

void ef_rtt_result_free(ef_rtt_result *result) {
    free(result->samples_ns);
    result->samples_ns = NULL;
    result->count = 0;
}

/* ---- Idle connections ---------------------------------------------------------------- */

struct ef_idle_set {
    int *fds;
    int count;
};

ef_idle_set *ef_idle_open(const char *host, uint16_t port, const char *path, int count,
                          double max_seconds, char *err, size_t err_len) {
    ef_idle_set *set = calloc(1, sizeof *set);
    if (!set) return NULL;
    set->fds = calloc((size_t)(count > 0 ? count : 1), sizeof(int));
    if (!set->fds) { free(set); return NULL; }
    uint64_t rng = 0xD1B54A32D192ED03ULL ^ (uint64_t)now_ns();
    int64_t deadline = now_ns() + (int64_t)(max_seconds * 1e9);
    for (int i = 0; i < count; i++) {
        if (now_ns() > deadline) {
            set_err(err, err_len, "time cap reached after %d connections", i);
            break;
        }
        int fd = client_connect(host, port, path, &rng, err, err_len);
        if (fd < 0) break;
        set->fds[set->count++] = fd;
    }
    return set;
}

int ef_idle_count(const ef_idle_set *set) { return set ? set->count : 0; }

int ef_idle_verify(ef_idle_set *set, double max_seconds) {
    if (!set) return 0;
    uint64_t rng = 0x94D049BB133111EBULL;
    int64_t deadline = now_ns() + (int64_t)(max_seconds * 1e9);
    int ok = 0;
    for (int i = 0; i < set->count; i++) {
        if (now_ns() > deadline) break;
        char payload[32];
        int plen = snprintf(payload, sizeof payload, "{\"idle\":%d}", i);
        uint8_t frame[64], reply[64];
        size_t flen = masked_text_frame(payload, (size_t)plen, &rng, frame);
        if (write_all(set->fds[i], frame, flen) != 0) continue;
        int opcode = 0;
        size_t rlen = 0;
        if (read_small_frame(set->fds[i], reply, sizeof reply, &opcode, &rlen) != 0) continue;
        if (opcode == 1 && rlen == (size_t)plen && memcmp(reply + 2, payload, rlen) == 0) ok++;
    }
    return ok;
}

void ef_idle_close(ef_idle_set *set) {
    if (!set) return;
    for (int i = 0; i < set->count; i++) close(set->fds[i]);
    free(set->fds);
    free(set);
}

/* ---- Process helpers ----------------------------------------------------------------- */

long ef_raise_nofile(long wanted) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return -1;
    if ((long)rl.rlim_cur < wanted) {
        rlim_t target = (rlim_t)wanted;
        if (rl.rlim_max != RLIM_INFINITY && target > rl.rlim_max) target = rl.rlim_max;
        rl.rlim_cur = target;
        setrlimit(RLIMIT_NOFILE, &rl);
        getrlimit(RLIMIT_NOFILE, &rl);
    }
    return (long)rl.rlim_cur;
}

long ef_rss_kib(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kib;
}

void ef_cpu_model(char *buf, size_t len) {
    if (len == 0) return;
    buf[0] = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ' || *colon == '\t') colon++;
                size_t n = strcspn(colon, "\n");
                if (n >= len) n = len - 1;
                memcpy(buf, colon, n);
                buf[n] = 0;
            }
            break;
        }
    }
    fclose(f);
}
