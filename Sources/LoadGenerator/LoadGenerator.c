/* LoadGenerator: N simulated voice clients on one epoll thread (see LoadGenerator.h). */
#define _GNU_SOURCE
#include "LoadGenerator.h"
#include "Chaos.h"

#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

enum phase { P_IDLE, P_CONNECTING, P_HANDSHAKE, P_SETUP, P_READY, P_DRAINING, P_STOPPING, P_CLOSING, P_DONE };

typedef struct {
    int fd, index;
    enum phase phase;
    int failed, dropped, clean;
    uint8_t *in; size_t in_len, in_cap;          /* bytes received, not yet parsed */
    uint8_t *msg; size_t msg_len, msg_cap; int msg_opcode; /* a fragmented message */
    uint8_t *out; size_t out_len, out_off, out_cap; /* bytes to write */
    double started_at, phase_deadline;
    int streaming; double stream_t0; long chunk;  /* uplink schedule */
    double pending_turn_end;                       /* last voiced chunk of the open turn (0: none) */
    int turn_answered;
    double response_started_at; int response_open, response_has_audio, response_flushed;
    double play_end;
    int local_started; double local_end_due;       /* a playback report owed (script's replies) */
    int stop_sent;
    int heard;                                     /* LG_ON_SPEECH_HEARD since our voiced segment began */
    int group;                                     /* LG_UNTOUCHED or LG_FAULTED */
    const char *test_id;
    long frames_up, frames_down, bytes_up, bytes_down, late_chunks; /* the whole session (lg_session_result) */
    double max_late;
    double last_down;                              /* when the server last sent a data message */
} session;

typedef struct {
    const lg_config *c;
    session *s;
    int ep, tick;
    double t0, window_start, window_end;
    lg_result *r;
    uint8_t *voiced_frame, *silent_frame; size_t voiced_len, silent_len; /* whole masked frames */
    size_t voiced_payload, silent_payload;         /* their payload bytes */
    const lg_script *script;
} run_t;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void add_sample(lg_samples *s, double v) {
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? s->capacity * 2 : 1024;
        double *grown = realloc(s->values, cap * sizeof(double));
        if (!grown) return;
        s->values = grown;
        s->capacity = cap;
    }
    s->values[s->count++] = v;
}

static int in_window(run_t *r, double t) { return r->window_start > 0 && t >= r->window_start && t < r->window_end; }

static void close_socket(run_t *r, session *s) {
    if (s->fd >= 0) { epoll_ctl(r->ep, EPOLL_CTL_DEL, s->fd, NULL); close(s->fd); s->fd = -1; }
    s->phase = P_DONE;
}

/* The session ends badly: failed before it was ready, dropped after; an error while we are
 * closing it ourselves only ends it. */
static void fail(run_t *r, session *s, const char *why) {
    if (s->phase == P_DONE) return;
    if (s->stop_sent) { close_socket(r, s); return; }
    if (s->phase == P_READY || s->phase == P_DRAINING) s->dropped = 1;
    else s->failed = 1;
    if (!r->r->first_failure[0]) snprintf(r->r->first_failure, sizeof r->r->first_failure, "session %d: %s", s->index, why);
    close_socket(r, s);
}

/* ---- output ------------------------------------------------------------------------- */

static void want_write(run_t *r, session *s, int on) {
    struct epoll_event ev = { .events = EPOLLIN | (on ? EPOLLOUT : 0), .data.u32 = (uint32_t)s->index };
    epoll_ctl(r->ep, EPOLL_CTL_MOD, s->fd, &ev);
}

static void flush_out(run_t *r, session *s) {
    while (s->out_off < s->out_len) {
        ssize_t n = send(s->fd, s->out + s->out_off, s->out_len - s->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) { want_write(r, s, 1); return; }
            fail(r, s, "send failed");
            return;
        }
        s->out_off += (size_t)n;
    }
    s->out_len = s->out_off = 0;
    want_write(r, s, 0);
}

static void queue_bytes(run_t *r, session *s, const uint8_t *bytes, size_t len) {
    if (s->fd < 0) return;
    if (s->out_off > 0 && s->out_off == s->out_len) s->out_len = s->out_off = 0;
    if (s->out_len + len > s->out_cap) {
        size_t cap = (s->out_len + len) * 2;
        uint8_t *grown = realloc(s->out, cap);
        if (!grown) { fail(r, s, "out of memory"); return; }
        s->out = grown; s->out_cap = cap;
    }
    memcpy(s->out + s->out_len, bytes, len);
    s->out_len += len;
    flush_out(r, s);
}

/* A client frame: FIN, opcode, mask bit with a zero masking key (the payload is sent as is). */
static size_t frame_header(uint8_t *h, int opcode, size_t len) {
    size_t n = 0;
    h[n++] = (uint8_t)(0x80 | opcode);
    if (len < 126) h[n++] = (uint8_t)(0x80 | len);
    else if (len < 65536) { h[n++] = 0x80 | 126; h[n++] = (uint8_t)(len >> 8); h[n++] = (uint8_t)len; }
    else { h[n++] = 0x80 | 127; for (int i = 7; i >= 0; i--) h[n++] = (uint8_t)((uint64_t)len >> (8 * i)); }
    memset(h + n, 0, 4);
    return n + 4;
}

static uint8_t *make_frame(int opcode, const uint8_t *payload, size_t len, size_t *out_len) {
    uint8_t *f = malloc(len + 14);
    size_t h = frame_header(f, opcode, len);
    memcpy(f + h, payload, len);
    *out_len = h + len;
    return f;
}

static void send_frame(run_t *r, session *s, int opcode, const void *payload, size_t len) {
    if ((opcode == 1 || opcode == 2) && s->fd >= 0) { s->frames_up++; s->bytes_up += (long)len; }
    uint8_t h[14];
    size_t hn = frame_header(h, opcode, len);
    queue_bytes(r, s, h, hn);
    queue_bytes(r, s, payload, len);
    if (opcode == 1 || opcode == 2) { r->r->frames_up++; if (in_window(r, now_s())) r->r->bytes_up += (long)len; }
}

static void send_text(run_t *r, session *s, const char *text) { send_frame(r, s, 1, text, strlen(text)); }

/* ---- uplink audio -------------------------------------------------------------------- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static size_t base64(const uint8_t *in, size_t n, char *out) {
    size_t o = 0, i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
        out[o++] = b64[v >> 18]; out[o++] = b64[(v >> 12) & 63]; out[o++] = b64[(v >> 6) & 63]; out[o++] = b64[v & 63];
    }
    if (n - i == 1) { uint32_t v = (uint32_t)in[i] << 16; out[o++] = b64[v >> 18]; out[o++] = b64[(v >> 12) & 63]; out[o++] = '='; out[o++] = '='; }
    else if (n - i == 2) { uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8; out[o++] = b64[v >> 18]; out[o++] = b64[(v >> 12) & 63]; out[o++] = b64[(v >> 6) & 63]; out[o++] = '='; }
    out[o] = 0;
    return o;
}

/* 16 kHz s16le: voiced = a 140 Hz tone with three harmonics, amplitude-modulated at 3 Hz
 * (loud enough for any energy VAD); silent = ±8 LSB of deterministic dither. */
static void make_audio(run_t *r) {
    int samples = 16 * r->c->chunk_ms;
    uint8_t *voiced = malloc((size_t)samples * 2), *silent = malloc((size_t)samples * 2);
    uint32_t seed = 12345;
    for (int i = 0; i < samples; i++) {
        double t = i / 16000.0;
        double am = 0.7 + 0.3 * sin(2 * M_PI * 3 * t);
        double v = am * 6000 * (sin(2 * M_PI * 140 * t) + 0.5 * sin(2 * M_PI * 280 * t) + 0.3 * sin(2 * M_PI * 420 * t));
        int16_t a = (int16_t)v;
        seed = seed * 1103515245u + 12345u;
        int16_t d = (int16_t)((int)((seed >> 16) % 17) - 8);
        voiced[2 * i] = (uint8_t)a; voiced[2 * i + 1] = (uint8_t)((uint16_t)a >> 8);
        silent[2 * i] = (uint8_t)d; silent[2 * i + 1] = (uint8_t)((uint16_t)d >> 8);
    }
    size_t bytes = (size_t)samples * 2;
    const char *head = r->script->audio_prefix, *tail = r->script->audio_suffix ? r->script->audio_suffix : "";
    if (head) {
        char *text = malloc(strlen(head) + bytes * 2 + strlen(tail) + 8);
        for (int k = 0; k < 2; k++) {
            strcpy(text, head);
            size_t n = strlen(head);
            n += base64(k == 0 ? voiced : silent, bytes, text + n);
            strcpy(text + n, tail);
            n += strlen(tail);
            if (k == 0) { r->voiced_frame = make_frame(1, (uint8_t *)text, n, &r->voiced_len); r->voiced_payload = n; }
            else { r->silent_frame = make_frame(1, (uint8_t *)text, n, &r->silent_len); r->silent_payload = n; }
        }
        free(text);
    } else {
        r->voiced_frame = make_frame(2, voiced, bytes, &r->voiced_len);
        r->silent_frame = make_frame(2, silent, bytes, &r->silent_len);
        r->voiced_payload = r->silent_payload = bytes;
    }
    free(voiced);
    free(silent);
}

/* ---- protocol ------------------------------------------------------------------------ */

/* The string value after the first `"key":"` at or after `from`; copies up to cap-1 bytes. */
static int find_string(const char *text, size_t len, const char *key, char *value, size_t cap, const char **after) {
    size_t kl = strlen(key);
    const char *p = memmem(text, len, key, kl);
    if (!p) return 0;
    p += kl;
    const char *end = text + len, *q = p;
    while (q < end && *q != '"') { if (*q == '\\' && q + 1 < end) q++; q++; }
    size_t n = (size_t)(q - p);
    if (value && cap) { size_t c = n < cap - 1 ? n : cap - 1; memcpy(value, p, c); value[c] = 0; }
    if (after) *after = q;
    return (int)n + 1;
}

static void start_streaming(run_t *r, session *s, double t) {
    s->streaming = 1;
    /* Sessions start their voiced/silent loop at offsets spread evenly over one loop (on the
     * 1 ms grid), so turns and answers are spread in time as with users who did not all start
     * talking at once. */
    double loop = (r->c->voiced_ms + r->c->silence_ms) / 1000.0;
    s->stream_t0 = t + floor(loop * s->index / r->c->sessions * 1000) / 1000;
    s->chunk = 0;
}

static void response_started(run_t *r, session *s, double t) {
    s->response_started_at = t;
    s->response_open = 1;
    s->response_has_audio = 0;
    s->response_flushed = 0;
    if (in_window(r, t)) r->r->responses++;
}

static void barge_in(run_t *r, session *s) {
    if (s->response_open && s->play_end > now_s()) { r->r->barge_ins++; s->response_flushed = 1; }
    s->play_end = 0;
}

static void audio_arrived(run_t *r, session *s, double t, size_t bytes) {
    if (!s->response_open || s->response_flushed) return;
    double duration = (double)bytes / (2.0 * r->c->down_rate);
    if (!s->response_has_audio) {
        s->response_has_audio = 1;
        s->play_end = t + duration;
        if (s->pending_turn_end > 0 && !s->turn_answered && s->response_started_at >= s->pending_turn_end) {
            s->turn_answered = 1;
            if (in_window(r, s->pending_turn_end)) { r->r->turns_answered++; add_sample(&r->r->turn_latency_ms, (t - s->pending_turn_end) * 1000); }
        }
        return;
    }
    double late = 0;
    if (t <= s->play_end) s->play_end += duration;
    else { late = t - s->play_end; s->play_end = t + duration; }
    if (in_window(r, t)) {
        add_sample(&r->r->lateness_ms, late * 1000);
        if (r->c->session_setups) {
            add_sample(&r->r->group_lateness_ms[s->group], late * 1000);
            if (late > 0) s->late_chunks++;
            if (late * 1000 > s->max_late) s->max_late = late * 1000;
        }
    }
}

/* A playback report the script owes (its `playback_ended_reply`), sent now. */
static void send_playback_ended(run_t *r, session *s) {
    if (s->local_started && r->script->playback_ended_reply) send_text(r, s, r->script->playback_ended_reply);
    s->local_started = 0;
    s->local_end_due = 0;
}

static void act(run_t *r, session *s, const lg_rule *rule, const char *text, size_t len, double t) {
    lg_action action = rule->action;
    switch (action) {
    case LG_ON_SEND_SETUP:
        if (s->phase == P_SETUP) send_text(r, s, r->script->setup_text);
        break;
    case LG_ON_READY:
        if (s->phase == P_SETUP) { s->phase = P_READY; r->r->ready++; }
        break;
    case LG_ON_LISTENING:
        if (s->phase == P_SETUP) { s->phase = P_READY; r->r->ready++; }
        else if (s->response_open) { barge_in(r, s); s->response_open = 0; }
        break;
    case LG_ON_RESPONSE_STARTED:
        response_started(r, s, t);
        if (r->script->response_started_reply) { send_text(r, s, r->script->response_started_reply); s->local_started = 1; }
        break;
    case LG_ON_RESPONSE_DONE:
        s->response_open = 0;
        break;
    case LG_ON_RESPONSE_SENT:
        if (s->local_started) s->local_end_due = s->play_end > t ? s->play_end : t;
        break;
    case LG_ON_SPEECH_STARTED:
        if (in_window(r, t)) r->r->speech_started++;
        if (s->response_open) { barge_in(r, s); send_playback_ended(r, s); }
        break;
    case LG_ON_SPEECH_HEARD:
        if (s->heard) break;
        s->heard = 1;
        if (in_window(r, t)) r->r->speech_started++;
        if (s->response_open) { barge_in(r, s); send_playback_ended(r, s); s->response_open = 0; }
        break;
    case LG_ON_ANSWER_AUDIO_BASE64:
        if (!s->response_open) response_started(r, s, t);
        /* fall through */
    case LG_ON_AUDIO_BASE64: {
        const char *after;
        int n = find_string(text, len, r->script->audio_key, NULL, 0, &after);
        if (n > 1) {
            size_t chars = (size_t)(n - 1), bytes = chars / 4 * 3;
            if (chars >= 2 && after[-1] == '=') bytes -= after[-2] == '=' ? 2 : 1;
            audio_arrived(r, s, t, bytes);
        }
        break;
    }
    case LG_ON_ERROR:
        r->r->server_errors++;
        break;
    case LG_ON_FATAL:
        r->r->server_errors++;
        fail(r, s, rule->value);
        break;
    case LG_ON_STOPPED:
        if (s->phase == P_STOPPING) { s->clean = 1; s->phase = P_CLOSING; send_frame(r, s, 8, "\x03\xe8", 2); }
        break;
    }
}

/* Each selector's value, then the first rule of that selector that names it. */
static void on_text(run_t *r, session *s, const char *text, size_t len, double t) {
    if (in_window(r, t)) r->r->bytes_down += (long)len;
    r->r->frames_down++;
    const lg_script *script = r->script;
    const char *anchor_name = NULL, *from = text;
    for (int k = 0; k < script->selector_count; k++) {
        const lg_selector *selector = &script->selectors[k];
        if (selector->anchor != anchor_name) {
            anchor_name = selector->anchor;
            from = anchor_name ? memmem(text, len, anchor_name, strlen(anchor_name)) : text;
        }
        if (!from) continue;
        char value[96];
        if (!find_string(from, len - (size_t)(from - text), selector->key, value, sizeof value, NULL)) continue;
        for (int i = 0; i < script->rule_count; i++) {
            const lg_rule *rule = &script->rules[i];
            if (rule->selector != k || strcmp(rule->value, value) != 0) continue;
            act(r, s, rule, text, len, t);
            if (s->phase == P_DONE) return;
            break;
        }
    }
}

static void on_message(run_t *r, session *s, int opcode, const uint8_t *payload, size_t len, double t) {
    if (opcode == 1 || opcode == 2) { s->frames_down++; s->bytes_down += (long)len; s->last_down = t; }
    if (opcode == 1) on_text(r, s, (const char *)payload, len, t);
    else if (opcode == 2) {
        r->r->frames_down++;
        if (in_window(r, t)) r->r->bytes_down += (long)len;
        if (r->script->binary_audio_down) audio_arrived(r, s, t, len);
    }
}

/* ---- input --------------------------------------------------------------------------- */

static void handshake_done(run_t *r, session *s) {
    s->phase = P_SETUP;
    r->r->connected++;
    if (r->script->setup_on_open) send_text(r, s, r->script->setup_text);
}

static int parse_frames(run_t *r, session *s, double t) {
    size_t off = 0;
    while (s->in_len - off >= 2) {
        uint8_t *p = s->in + off;
        int fin = p[0] & 0x80, opcode = p[0] & 0x0f;
        uint64_t len = p[1] & 0x7f;
        size_t h = 2;
        if (len == 126) { if (s->in_len - off < 4) break; len = (uint64_t)p[2] << 8 | p[3]; h = 4; }
        else if (len == 127) { if (s->in_len - off < 10) break; len = 0; for (int i = 0; i < 8; i++) len = len << 8 | p[2 + i]; h = 10; }
        if (p[1] & 0x80) h += 4; /* servers do not mask; tolerated */
        if (s->in_len - off < h + len) break;
        uint8_t *payload = p + h;
        if (opcode == 8) {
            /* Our own close answered (or the server's after Stop): clean. Otherwise a drop. */
            if (!s->stop_sent) { fail(r, s, "closed by the server"); return -1; }
            if (s->phase == P_STOPPING) s->clean = 0;
            else s->clean = 1;
            close_socket(r, s);
            return -1;
        } else if (opcode == 9) {
            send_frame(r, s, 10, payload, (size_t)len);
        } else if (opcode == 0 || opcode == 1 || opcode == 2) {
            if (opcode != 0) s->msg_opcode = opcode;
            if (fin && opcode != 0 && s->msg_len == 0) {
                on_message(r, s, opcode, payload, (size_t)len, t);
            } else {
                if (s->msg_len + len > s->msg_cap) { s->msg_cap = (s->msg_len + len) * 2; s->msg = realloc(s->msg, s->msg_cap); }
                memcpy(s->msg + s->msg_len, payload, len);
                s->msg_len += len;
                if (fin) { on_message(r, s, s->msg_opcode, s->msg, s->msg_len, t); s->msg_len = 0; }
            }
        }
        if (s->phase == P_DONE) return -1;
        off += h + len;
    }
    if (off > 0) { memmove(s->in, s->in + off, s->in_len - off); s->in_len -= off; }
    return 0;
}

static void on_readable(run_t *r, session *s) {
    double t = now_s();
    for (;;) {
        if (s->in_cap - s->in_len < 65536) { s->in_cap = s->in_cap * 2 + 65536; s->in = realloc(s->in, s->in_cap); }
        ssize_t n = recv(s->fd, s->in + s->in_len, s->in_cap - s->in_len, 0);
        if (n == 0) { fail(r, s, "connection closed"); return; }
        if (n < 0) { if (errno == EAGAIN || errno == EWOULDBLOCK) return; fail(r, s, "recv failed"); return; }
        s->in_len += (size_t)n;
        if (s->phase == P_HANDSHAKE) {
            uint8_t *end = memmem(s->in, s->in_len, "\r\n\r\n", 4);
            if (!end) continue;
            if (s->in_len < 12 || memcmp(s->in, "HTTP/1.1 101", 12) != 0) {
                char status[40] = "";
                memcpy(status, s->in, s->in_len < 39 ? s->in_len : 39);
                char *cr = strchr(status, '\r'); if (cr) *cr = 0;
                fail(r, s, status);
                return;
            }
            size_t consumed = (size_t)(end + 4 - s->in);
            memmove(s->in, s->in + consumed, s->in_len - consumed);
            s->in_len -= consumed;
            handshake_done(r, s);
        }
        if (parse_frames(r, s, t) < 0) return;
    }
}

static void start_connect(run_t *r, session *s, double t) {
    s->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s->fd < 0) { fail(r, s, "socket failed"); return; }
    int one = 1;
    setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(r->c->port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    s->started_at = t;
    s->phase_deadline = t + 10;
    s->phase = P_CONNECTING;
    struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT, .data.u32 = (uint32_t)s->index };
    epoll_ctl(r->ep, EPOLL_CTL_ADD, s->fd, &ev);
    if (connect(s->fd, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS) fail(r, s, "connect failed");
}

static void on_connected(run_t *r, session *s) {
    int error = 0; socklen_t l = sizeof error;
    getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &error, &l);
    if (error) { fail(r, s, "connect refused"); return; }
    s->phase = P_HANDSHAKE;
    char request[1024];
    int n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: ZGlhbG9nbW9jay1sb2FkLTE=\r\nSec-WebSocket-Version: 13\r\n"
                     "Authorization: Bearer %s\r\n%s%s%s\r\n", r->c->path, r->c->port, r->c->api_key,
                     s->test_id ? "X-Test-Id: " : "", s->test_id ? s->test_id : "", s->test_id ? "\r\n" : "");
    if (n < 0 || (size_t)n >= sizeof request) { fail(r, s, "upgrade request too long"); return; }
    want_write(r, s, 0);
    queue_bytes(r, s, (uint8_t *)request, (size_t)n);
}

/* ---- the schedule -------------------------------------------------------------------- */

static void tick_session(run_t *r, session *s, double t) {
    if (s->phase == P_DONE || s->phase == P_IDLE) return;
    if ((s->phase == P_CONNECTING || s->phase == P_HANDSHAKE || s->phase == P_SETUP) && t > s->phase_deadline) { fail(r, s, "set-up timed out"); return; }
    if (s->phase == P_STOPPING || s->phase == P_CLOSING) {
        if (t > s->phase_deadline) close_socket(r, s);
        return;
    }
    if (s->phase == P_DRAINING) {
        /* Closing at once would cut off frames the server has already sent: the close goes
         * out once the downlink has been quiet for half a second (at most 5 s). */
        if (t - s->last_down >= 0.5 || t > s->phase_deadline) {
            s->stop_sent = 1;
            s->phase = P_CLOSING;
            s->phase_deadline = t + 3;
            send_frame(r, s, 8, "\x03\xe8", 2);
        }
        return;
    }
    if (s->phase != P_READY) return;
    if (s->local_end_due > 0 && t >= s->local_end_due) send_playback_ended(r, s);
    if (!s->streaming) return;
    int per_loop = (r->c->voiced_ms + r->c->silence_ms) / r->c->chunk_ms, voiced = r->c->voiced_ms / r->c->chunk_ms;
    double period = r->c->chunk_ms / 1000.0;
    while (t >= s->stream_t0 + s->chunk * period) {
        double due = s->stream_t0 + s->chunk * period;
        long position = s->chunk % per_loop;
        /* After the window only silence goes up: the answers to the window's turns come in. */
        int is_voiced = position < voiced && due < r->window_end;
        if (is_voiced && position == 0) s->heard = 0;
        if (is_voiced && position == 0 && s->pending_turn_end > 0 && !s->turn_answered && in_window(r, s->pending_turn_end)) r->r->turns_unanswered++;
        if (s->fd >= 0) { s->frames_up++; s->bytes_up += (long)(is_voiced ? r->voiced_payload : r->silent_payload); }
        queue_bytes(r, s, is_voiced ? r->voiced_frame : r->silent_frame, is_voiced ? r->voiced_len : r->silent_len);
        if (s->phase == P_DONE) return;
        r->r->frames_up++;
        if (in_window(r, t)) { r->r->bytes_up += (long)(is_voiced ? r->voiced_len : r->silent_len); add_sample(&r->r->send_lateness_ms, (t - due) * 1000); }
        if (is_voiced && position == voiced - 1) {
            s->pending_turn_end = t;
            s->turn_answered = 0;
            if (in_window(r, t)) r->r->turns++;
        }
        s->chunk++;
    }
}

/* Reads /proc/<pid>/<name> into buf (NUL-terminated); 0 when it cannot be read. */
static size_t read_proc(int pid, const char *name, char *buf, size_t cap) {
    if (pid <= 0) return 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", pid, name);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = 0;
    return n;
}

static long rss_kb(int pid) {
    char buf[4096];
    if (!read_proc(pid, "status", buf, sizeof buf)) return 0;
    const char *line = strstr(buf, "VmRSS:");
    return line ? strtol(line + 6, NULL, 10) : 0;
}

static double cpu_seconds(int pid) {
    char buf[1024];
    if (!read_proc(pid, "stat", buf, sizeof buf)) return 0;
    char *p = strrchr(buf, ')');
    if (!p) return 0;
    unsigned long utime = 0, stime = 0;
    /* fields after ") ": state(3) … utime(14) stime(15) */
    sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime);
    return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

static double thread_cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_THREAD, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

int lg_run(const lg_config *c, lg_result *out, char *err, size_t err_len) {
    memset(out, 0, sizeof *out);
    if (c->sessions <= 0 || c->chunk_ms <= 0 || c->voiced_ms < c->chunk_ms || c->down_rate <= 0 || !c->script || !c->script->setup_text
        || (c->script->selector_count > 0 && !c->script->selectors) || (c->script->rule_count > 0 && !c->script->rules)) {
        snprintf(err, err_len, "invalid configuration");
        return -1;
    }
    for (int i = 0; i < c->script->rule_count; i++) {
        const lg_rule *rule = &c->script->rules[i];
        if (rule->selector < 0 || rule->selector >= c->script->selector_count || !rule->value
            || ((rule->action == LG_ON_AUDIO_BASE64 || rule->action == LG_ON_ANSWER_AUDIO_BASE64) && !c->script->audio_key)) {
            snprintf(err, err_len, "invalid script: rule %d", i);
            return -1;
        }
    }
    run_t r = { .c = c, .r = out, .script = c->script };
    out->requested = c->sessions;
    r.s = calloc((size_t)c->sessions, sizeof(session));
    r.ep = epoll_create1(EPOLL_CLOEXEC);
    r.tick = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (!r.s || r.ep < 0 || r.tick < 0) { snprintf(err, err_len, "cannot set up epoll: %s", strerror(errno)); return -1; }
    struct itimerspec period = { .it_interval = { 0, 1000000 }, .it_value = { 0, 1000000 } };
    timerfd_settime(r.tick, 0, &period, NULL);
    struct epoll_event tev = { .events = EPOLLIN, .data.u32 = UINT32_MAX };
    epoll_ctl(r.ep, EPOLL_CTL_ADD, r.tick, &tev);
    make_audio(&r);
    for (int i = 0; i < c->sessions; i++) {
        r.s[i].index = i; r.s[i].fd = -1;
        if (c->session_setups) {
            r.s[i].test_id = c->session_setups[i].test_id;
            r.s[i].group = c->session_setups[i].group == LG_FAULTED ? LG_FAULTED : LG_UNTOUCHED;
        }
    }
    lg_chaos_run *chaos = NULL;
    if (c->chaos) {
        chaos = lg_chaos_start(c, out, r.voiced_frame, r.voiced_len, r.silent_frame, r.silent_len, err, err_len);
        if (!chaos) { free(r.s); free(r.voiced_frame); free(r.silent_frame); close(r.tick); close(r.ep); return -1; }
    }
    out->server_rss_base_kb = rss_kb(c->server_pid);

    r.t0 = now_s();
    double ramp = c->ramp_per_second > 0 ? c->ramp_per_second : 1e9;
    int launched = 0, streaming_started = 0, window_closed = 0;
    double setup_done_at = 0, stream_start = 0, idle_rss_at = 0;
    double cpu_server0 = 0, cpu_self0 = 0, hard_stop = r.t0 + c->sessions / ramp + 20 + c->idle_seconds + c->warmup_seconds + c->duration_seconds
                       + 2 * (c->voiced_ms + c->silence_ms) / 1000.0 + 15;
    double last_tick = now_s(), stop_at = 0, last_rss = 0;
    struct epoll_event events[256];
    for (;;) {
        int n = epoll_wait(r.ep, events, 256, 5);
        double t = now_s();
        int ticked = n == 0;
        for (int k = 0; k < n; k++) {
            if (events[k].data.u32 == UINT32_MAX) { uint64_t ticks; if (read(r.tick, &ticks, sizeof ticks) < 0) {} ticked = 1; continue; }
            session *s = &r.s[events[k].data.u32];
            if (s->fd < 0) continue;
            if (s->phase == P_CONNECTING && (events[k].events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) { on_connected(&r, s); continue; }
            if (events[k].events & EPOLLOUT) flush_out(&r, s);
            if (s->fd >= 0 && (events[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) on_readable(&r, s);
        }
        /* The sessions are scanned on the 1 ms tick only, not on every wake-up: at thousands of
         * sessions, sockets wake the loop many times a millisecond, and a scan per wake-up was
         * most of the generator's own CPU. */
        if (!ticked) continue;
        t = now_s();
        if (in_window(&r, t)) add_sample(&out->loop_lag_ms, t - last_tick > 0.001 ? (t - last_tick - 0.001) * 1000 : 0);
        last_tick = t;
        while (launched < c->sessions && t >= r.t0 + launched / ramp) start_connect(&r, &r.s[launched++], t);
        for (int i = 0; i < c->sessions; i++) tick_session(&r, &r.s[i], t);
        /* Counted only while set-up or the close is under way: in between, nothing reads them. */
        int settled = 0, done = 0;
        if (!setup_done_at || stop_at) {
            for (int i = 0; i < c->sessions; i++) {
                enum phase p = r.s[i].phase;
                if (p == P_READY || p == P_DONE || p == P_DRAINING || p == P_STOPPING || p == P_CLOSING) settled++;
                if (p == P_DONE) done++;
            }
        }
        if (!setup_done_at && launched == c->sessions && settled == c->sessions) { setup_done_at = t; idle_rss_at = t + c->idle_seconds; }
        if (setup_done_at && !streaming_started && t >= idle_rss_at) {
            out->server_rss_idle_kb = rss_kb(c->server_pid);
            for (int i = 0; i < c->sessions; i++) if (r.s[i].phase == P_READY) start_streaming(&r, &r.s[i], t);
            streaming_started = 1;
            stream_start = t;
            /* The last session starts its loop one loop period later; the window opens a warm-up
             * after that (a session's first voiced segment primes the server's VAD). */
            r.window_start = t + (c->voiced_ms + c->silence_ms) / 1000.0 + c->warmup_seconds;
            r.window_end = r.window_start + c->duration_seconds;
            if (chaos) lg_chaos_window(chaos, r.window_start, r.window_end);
        }
        if (streaming_started && cpu_server0 == 0 && t >= r.window_start) { cpu_server0 = cpu_seconds(c->server_pid) + 1e-9; cpu_self0 = thread_cpu_seconds(); }
        if (streaming_started && t >= r.window_start && t < r.window_end && t - last_rss >= 1) {
            long kb = rss_kb(c->server_pid);
            if (kb > out->server_rss_streaming_kb) out->server_rss_streaming_kb = kb;
            last_rss = t;
        }
        if (streaming_started && !window_closed && t >= r.window_end) {
            window_closed = 1;
            out->window_seconds = r.window_end - r.window_start;
            if (c->server_pid > 0) out->server_cpu_percent = (cpu_seconds(c->server_pid) - cpu_server0) / (t - r.window_start) * 100;
            out->generator_cpu_percent = (thread_cpu_seconds() - cpu_self0) / (t - r.window_start) * 100;
        }
        /* One loop after the window, the answers to its last turns are in: close. */
        if (window_closed && !stop_at && t >= r.window_end + (c->voiced_ms + c->silence_ms) / 1000.0) {
            stop_at = t;
            for (int i = 0; i < c->sessions; i++) {
                session *s = &r.s[i];
                if (s->phase != P_READY) continue;
                s->streaming = 0;
                s->stop_sent = 1;
                s->phase_deadline = t + 3;
                if (r.script->stop_text) {
                    s->phase = P_STOPPING;
                    send_text(&r, s, r.script->stop_text);
                } else if (c->session_setups) {
                    /* Chaos runs compare every frame with the server's journal counts. */
                    s->stop_sent = 0;
                    s->phase = P_DRAINING;
                    s->phase_deadline = t + 5;
                } else {
                    s->phase = P_CLOSING;
                    send_frame(&r, s, 8, "\x03\xe8", 2);
                }
            }
        }
        if (chaos && stop_at) { lg_chaos_stop(chaos); chaos = NULL; }
        if ((stop_at && done == c->sessions) || t > hard_stop) break;
        if (!streaming_started && setup_done_at == 0 && t > r.t0 + c->sessions / ramp + 20) {
            for (int i = 0; i < c->sessions; i++) if (r.s[i].phase != P_READY && r.s[i].phase != P_DONE) fail(&r, &r.s[i], "set-up timed out");
        }
    }
    (void)stream_start;
    if (chaos) lg_chaos_stop(chaos);
    if (c->session_setups) out->sessions_detail = calloc((size_t)c->sessions, sizeof(lg_session_result));
    for (int i = 0; i < c->sessions; i++) {
        session *s = &r.s[i];
        if (out->sessions_detail) {
            out->sessions_detail[i] = (lg_session_result){
                .group = s->group, .failed = s->failed, .dropped = s->dropped, .clean = s->clean && !s->failed && !s->dropped,
                .frames_up = s->frames_up, .frames_down = s->frames_down, .bytes_up = s->bytes_up, .bytes_down = s->bytes_down,
                .late_chunks = s->late_chunks, .max_lateness_ms = s->max_late };
        }
        out->failed += s->failed;
        out->dropped += s->dropped;
        out->closed_cleanly += s->clean && !s->failed && !s->dropped;
        if (s->fd >= 0) close(s->fd);
        free(s->in); free(s->out); free(s->msg);
    }
    free(r.s); free(r.voiced_frame); free(r.silent_frame);
    close(r.tick); close(r.ep);
    return 0;
}

void lg_result_free(lg_result *r) {
    free(r->turn_latency_ms.values);
    free(r->lateness_ms.values);
    free(r->send_lateness_ms.values);
    free(r->loop_lag_ms.values);
    for (int g = 0; g < LG_GROUPS; g++) free(r->group_lateness_ms[g].values);
    free(r->sessions_detail);
    free(r->hostile_detail);
    free(r->control_statuses);
    memset(r, 0, sizeof *r);
}
