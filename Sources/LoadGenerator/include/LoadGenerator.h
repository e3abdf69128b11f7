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

/* What a client of one protocol sends and how it reads the server. The caller builds it from
 * the protocol's descriptor (Swift: `LoadScript`); this file knows WebSocket framing, timing
 * and the playout model, and no protocol. */
typedef enum {
    LG_ON_SEND_SETUP = 1,    /* during set-up: send `setup_text` (e.g. once the server greets) */
    LG_ON_READY,             /* during set-up: the session is ready to stream */
    LG_ON_LISTENING,         /* ready during set-up; afterwards it closes an open answer */
    LG_ON_RESPONSE_STARTED,  /* an answer begins (`response_started_reply` goes out, if any) */
    LG_ON_RESPONSE_DONE,     /* the server ended the answer */
    LG_ON_RESPONSE_SENT,     /* the answer's audio is all sent: `playback_ended_reply` is due at the playout end */
    LG_ON_SPEECH_STARTED,    /* the server heard the user start speaking: a barge-in */
    LG_ON_AUDIO_BASE64,      /* answer audio, base64 in the string value after `audio_key` */
    LG_ON_ERROR,             /* counted */
    LG_ON_FATAL,             /* counted, and the session failed */
    LG_ON_STOPPED,           /* our `stop_text` is acknowledged: close cleanly */
    LG_ON_ANSWER_AUDIO_BASE64, /* like LG_ON_AUDIO_BASE64, and it opens an answer when none is open
                                  (protocols that mark no answer start, e.g. Qwen-Audio-Live) */
    LG_ON_SPEECH_HEARD       /* the server heard the user (e.g. a transcript) in a protocol that marks no
                                speech start: the first in each of our voiced segments counts as a speech
                                start and ends an open answer (a barge-in when it was still playing) */
} lg_action;

/* Where a rule looks: the string value after `key` (`"name":"`), searched from the first
 * `anchor` (NULL: from the start of the message). */
typedef struct {
    const char *anchor;
    const char *key;
} lg_selector;

/* When the value at `selectors[selector]` is `value`, do `action` (the first matching rule of
 * each selector acts). */
typedef struct {
    int selector;
    const char *value;
    lg_action action;
} lg_rule;

typedef struct {
    const char *setup_text;             /* the set-up frame */
    int setup_on_open;                  /* 1: sent right after the handshake; 0: an LG_ON_SEND_SETUP rule sends it */
    const char *audio_prefix;           /* uplink audio as base64 in a text frame between prefix and suffix; */
    const char *audio_suffix;           /*   NULL prefix: raw binary frames */
    int binary_audio_down;              /* binary frames from the server are answer audio */
    const char *audio_key;              /* for LG_ON_AUDIO_BASE64, e.g. `"delta":"` */
    const char *response_started_reply; /* sent when an answer starts (NULL: none); `playback_ended_reply` is then owed */
    const char *playback_ended_reply;   /* sent at the playout end or at a barge-in when owed */
    const char *stop_text;              /* the orderly stop, acknowledged by LG_ON_STOPPED; NULL: close at once */
    const lg_selector *selectors;
    int selector_count;
    const lg_rule *rules;
    int rule_count;
} lg_script;

/* Chaos under load (`dialogmock-bench load --chaos`): some sessions carry faults the caller arms
 * through the mock's control API, and hostile connections run beside them on a thread of their
 * own, so the generator's loop and its measurements stay as without them. */
enum { LG_UNTOUCHED = 0, LG_FAULTED = 1, LG_GROUPS = 2 };

typedef struct {
    const char *test_id;  /* sent as `X-Test-Id` (NULL: none) */
    int group;            /* LG_UNTOUCHED or LG_FAULTED: lateness is also sampled per group */
} lg_session_setup;

/* What a hostile connection does (the bad-input table of mock-server/bad-input.md). */
typedef enum {
    LG_HOSTILE_GARBAGE_FRAMES,   /* after the upgrade: blocks of random bytes as frames */
    LG_HOSTILE_NON_UTF8_TEXT,    /* a text frame that is not UTF-8 */
    LG_HOSTILE_OVERSIZE,         /* a text message longer than the route's cap, streamed until refused */
    LG_HOSTILE_BAD_JSON,         /* text frames that are not JSON; held `hostile_keep` seconds if kept */
    LG_HOSTILE_BAD_CLOSE_REASON, /* a close frame whose reason is not UTF-8 */
    LG_HOSTILE_SLOWLORIS,        /* an upgrade request one byte a second, never finished */
    LG_HOSTILE_NEVER_READS,      /* a real session (set-up, audio in real time) that never reads */
    LG_HOSTILE_PLAIN_HTTP,       /* a plain GET on the protocol route */
    LG_HOSTILE_UNKNOWN_PATH,     /* an upgrade on a path nothing serves */
    LG_HOSTILE_KINDS
} lg_hostile_kind;

/* How a hostile connection ended. */
typedef enum {
    LG_HOSTILE_PENDING,        /* never opened (the run ended first) */
    LG_HOSTILE_CLOSE_FRAME,    /* the server sent a close frame (`code`) */
    LG_HOSTILE_HTTP_STATUS,    /* the server answered the request with HTTP `code` (not 101) */
    LG_HOSTILE_EOF,            /* the server closed TCP without a close frame */
    LG_HOSTILE_RESET,          /* the connection was reset */
    LG_HOSTILE_KEPT,           /* still open when we closed it (after `hostile_keep`, or at the end) */
    LG_HOSTILE_CONNECT_FAILED
} lg_hostile_outcome;

typedef struct {
    int kind;              /* lg_hostile_kind */
    int outcome;           /* lg_hostile_outcome */
    int code;              /* the close code or HTTP status of the outcome */
    int upgraded;          /* the server answered 101 */
    double opened_at;      /* seconds after the window opened */
    double seconds;        /* from the connect to the outcome */
    long frames_received;  /* data frames the server sent it */
    long bytes_sent;       /* bytes it sent (request included) */
} lg_hostile_result;

typedef struct {
    const char *const *control_requests; /* whole HTTP/1.1 requests to the port (e.g. POST /_mock/faults) */
    int control_request_count;
    double control_after;   /* seconds after the window opens they are sent, one after another */
    int hostile;            /* hostile connections, kinds in turn */
    double hostile_after;   /* the first opens this long after the window opens, */
    double hostile_spread;  /*   the last this much later */
    double hostile_keep;    /* a hostile connection the server keeps is closed by us after this long */
    long oversize_bytes;    /* the oversized message's length */
    const char *hostile_test_id_prefix; /* its upgrades carry `X-Test-Id: <prefix><kind name>` (NULL: none) */
} lg_chaos;

/* The name of a hostile kind ("garbage-frames", …; NULL out of range). */
const char *lg_hostile_kind_name(int kind);
/* The name of an outcome ("close frame", …). */
const char *lg_hostile_outcome_name(int outcome);

typedef struct {
    const lg_script *script;  /* the protocol */
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
    const lg_session_setup *session_setups; /* NULL, or one per session */
    const lg_chaos *chaos;    /* NULL: no control requests, no hostile connections */
} lg_config;

typedef struct {
    double *values;
    size_t count, capacity;
} lg_samples;

/* One session over its whole life (with `session_setups`): data messages and payload bytes
 * each way, as the server journals them (`framesIn`, `bytesIn`, … of `GET /_mock/sessions`). */
typedef struct {
    int group, failed, dropped, clean;
    long frames_up, frames_down, bytes_up, bytes_down;
    long late_chunks;         /* answer chunks that came after the playout ran dry, in the window */
    double max_lateness_ms;   /* in the window */
} lg_session_result;

typedef struct {
    int requested, connected, ready, failed, dropped, closed_cleanly;
    long turns, turns_answered, turns_unanswered, responses, barge_ins, speech_started;
    long frames_up, frames_down, bytes_up, bytes_down, server_errors;
    lg_samples turn_latency_ms, lateness_ms, send_lateness_ms, loop_lag_ms;
    double window_seconds;
    double server_cpu_percent, generator_cpu_percent;
    long server_rss_base_kb, server_rss_idle_kb, server_rss_streaming_kb;
    char first_failure[160];
    /* With `session_setups`: */
    lg_samples group_lateness_ms[LG_GROUPS];
    lg_session_result *sessions_detail;
    /* With `chaos`: */
    lg_hostile_result *hostile_detail;
    int hostile_count;
    int *control_statuses;    /* HTTP status of each control request (0: no answer) */
    double chaos_cpu_percent; /* the chaos thread's CPU over the window, % of one core */
} lg_result;

/* Runs the whole load (set-up, idle, warm-up, window, orderly close). Returns 0, or -1 with a
 * message in `err` when nothing could run. Free the result's samples with `lg_result_free`. */
int lg_run(const lg_config *config, lg_result *result, char *err, size_t err_len);
void lg_result_free(lg_result *result);

#ifdef __cplusplus
}
#endif
