#pragma once
/*
 * LoadGenerator: the C side of `dialogmock-bench load`.
 *
 * N simulated voice clients of one protocol on one thread (epoll, non-blocking sockets, a
 * 1 ms timerfd tick), written for this project: each streams 16 kHz PCM in real time in a loop
 * of voiced and silent segments, plays the answers back through a playout model and measures
 * what a listener would hear. Only loopback addresses are used; every phase is bounded in time.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { LG_QWEN = 0, LG_MULTIMODAL = 1 };

typedef struct {
    int protocol;             /* LG_QWEN or LG_MULTIMODAL */
    uint16_t port;            /* on 127.0.0.1 */
    const char *path;         /* request path with query, e.g. "/api-ws/v1/inference" */
    const char *api_key;
    int sessions;
    double ramp_per_second;   /* connection starts per second */
    double idle_seconds;      /* all sessions set up and silent for this long before streaming (RSS idle) */
    double warmup_seconds;    /* streaming before the measured window */
    double duration_seconds;  /* the measured window */
    int voiced_ms, silence_ms, chunk_ms;
    int down_rate;            /* downlink PCM rate (bytes → playback time) */
    int server_pid;           /* 0: no server CPU / RSS sampling */
} lg_config;

typedef struct {
    double *values;
    size_t count, capacity;
} lg_samples;

typedef struct {
    int requested, connected, ready, failed, dropped, closed_cleanly;
    long turns, turns_answered, turns_unanswered, responses, barge_ins, speech_started;
    long frames_up, frames_down, bytes_up, bytes_down, server_errors;
    lg_samples turn_latency_ms, lateness_ms, send_lateness_ms, loop_lag_ms;
    double window_seconds;
    double server_cpu_percent, generator_cpu_percent;
    long server_rss_base_kb, server_rss_idle_kb, server_rss_streaming_kb;
    char first_failure[160];
} lg_result;

/* Runs the whole load (set-up, idle, warm-up, window, orderly close). Returns 0, or -1 with a
 * message in `err` when nothing could run. Free the result's samples with `lg_result_free`. */
int lg_run(const lg_config *config, lg_result *result, char *err, size_t err_len);
void lg_result_free(lg_result *result);

#ifdef __cplusplus
}
#endif
