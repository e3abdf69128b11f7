/* The chaos thread of `dialogmock-bench load --chaos` (see Chaos.h and lg_chaos in
 * LoadGenerator.h): control requests at a time in the window, then hostile connections opened
 * across it, each of one kind from mock-server/bad-input.md, on an epoll loop of its own so the
 * generator's loop and its measurements stay as they are without them. */
#define _GNU_SOURCE
#include "Chaos.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static const char *const kind_names[LG_HOSTILE_KINDS] = {
    "garbage-frames", "non-utf8-text", "oversize", "bad-json", "bad-close-reason",
    "slowloris", "never-reads", "plain-http", "unknown-path",
};

static const char *const outcome_names[] = {
    "never opened", "close frame", "HTTP status", "closed without a close frame", "reset", "kept open", "connect failed",
};

const char *lg_hostile_kind_name(int kind) { return kind >= 0 && kind < LG_HOSTILE_KINDS ? kind_names[kind] : NULL; }

const char *lg_hostile_outcome_name(int outcome) {
    return outcome >= 0 && outcome < (int)(sizeof outcome_names / sizeof *outcome_names) ? outcome_names[outcome] : NULL;
}

enum h_phase { H_WAITING, H_CONNECTING, H_HANDSHAKE, H_OPEN, H_DONE };

typedef struct {
    int fd, index;
    enum h_phase phase;
    double started, keep_until, next_send;
    uint8_t *in; size_t in_len, in_cap;
    long oversize_left;       /* payload bytes of the oversized message still to send */
    long chunk;               /* never-reads: audio chunks sent */
    size_t slow_sent;         /* slowloris: request bytes sent */
    int reading;              /* 0: never-reads stopped reading */
    uint32_t seed;
} hconn;

struct lg_chaos_run {
    const lg_config *c;
    lg_result *out;
    const uint8_t *voiced, *silent; size_t voiced_len, silent_len;
    pthread_t thread, control_thread;
    int control_started;
    int ep;
    hconn *h;
    int window_known, stop;   /* written by the generator's thread (__atomic) */
    double window_start, window_end;
    double cpu_start, cpu_end; /* the thread's CPU at the window's start and end */
};

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double thread_cpu_seconds(void) {
    struct rusage u;
    getrusage(RUSAGE_THREAD, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

static int loopback_socket(uint16_t port, int nonblocking, int rcvbuf) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0) return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (rcvbuf > 0) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0 && errno != EINPROGRESS) { close(fd); return -1; }
    return fd;
}

/* ---- control requests (blocking, on this thread) ------------------------------------ */

static int control_request(uint16_t port, const char *request) {
    int fd = loopback_socket(port, 0, 0);
    if (fd < 0) return 0;
    struct timeval timeout = { .tv_sec = 5 };
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    size_t len = strlen(request), off = 0;
    while (off < len) {
        ssize_t n = send(fd, request + off, len - off, MSG_NOSIGNAL);
        if (n <= 0) { close(fd); return 0; }
        off += (size_t)n;
    }
    char head[64] = "";
    size_t got = 0;
    char sink[4096];
    for (;;) {
        ssize_t n = recv(fd, sink, sizeof sink, 0);
        if (n <= 0) break;
        if (got < sizeof head - 1) {
            size_t c = (size_t)n < sizeof head - 1 - got ? (size_t)n : sizeof head - 1 - got;
            memcpy(head + got, sink, c);
            got += c;
        }
    }
    close(fd);
    int status = 0;
    if (sscanf(head, "HTTP/1.%*d %d", &status) != 1) status = 0;
    return status;
}

/* ---- hostile connections ------------------------------------------------------------- */

static lg_hostile_result *result_of(lg_chaos_run *x, hconn *h) { return &x->out->hostile_detail[h->index]; }

static int kind_of(hconn *h) { return h->index % LG_HOSTILE_KINDS; }

static void finish(lg_chaos_run *x, hconn *h, int outcome, int code) {
    if (h->phase == H_DONE) return;
    lg_hostile_result *res = result_of(x, h);
    res->outcome = outcome;
    res->code = code;
    res->seconds = now_s() - h->started;
    if (h->fd >= 0) { epoll_ctl(x->ep, EPOLL_CTL_DEL, h->fd, NULL); close(h->fd); h->fd = -1; }
    h->phase = H_DONE;
}

static void watch(lg_chaos_run *x, hconn *h, uint32_t events) {
    struct epoll_event ev = { .events = events, .data.u32 = (uint32_t)h->index };
    epoll_ctl(x->ep, EPOLL_CTL_MOD, h->fd, &ev);
}

/* Sends all of `bytes` (small: they fit the socket buffer); 0 when the connection is gone. */
static int send_all(lg_chaos_run *x, hconn *h, const void *bytes, size_t len) {
    size_t off = 0;
    while (off < len) {
        ssize_t n = send(h->fd, (const uint8_t *)bytes + off, len - off, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) { usleep(1000); continue; }
        if (n <= 0) return 0;
        off += (size_t)n;
        result_of(x, h)->bytes_sent += n;
    }
    return 1;
}

/* A masked client frame (zero masking key) with FIN set. */
static int send_frame(lg_chaos_run *x, hconn *h, int opcode, const void *payload, size_t len) {
    uint8_t f[14 + 256];
    size_t n = 0;
    f[n++] = (uint8_t)(0x80 | opcode);
    if (len < 126) f[n++] = (uint8_t)(0x80 | len);
    else { f[n++] = 0x80 | 126; f[n++] = (uint8_t)(len >> 8); f[n++] = (uint8_t)len; }
    memset(f + n, 0, 4);
    n += 4;
    if (len <= 256) { memcpy(f + n, payload, len); return send_all(x, h, f, n + len); }
    return send_all(x, h, f, n) && send_all(x, h, payload, len);
}

static uint32_t next_random(uint32_t *seed) {
    uint32_t v = *seed;
    v ^= v << 13; v ^= v >> 17; v ^= v << 5;
    return *seed = v;
}

static void send_request(lg_chaos_run *x, hconn *h) {
    const lg_config *c = x->c;
    const lg_chaos *k = c->chaos;
    int kind = kind_of(h);
    char test_id[160] = "";
    if (k->hostile_test_id_prefix) snprintf(test_id, sizeof test_id, "X-Test-Id: %s%s\r\n", k->hostile_test_id_prefix, kind_names[kind]);
    char request[1024];
    int n;
    if (kind == LG_HOSTILE_PLAIN_HTTP) {
        n = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n%s\r\n", c->path, c->port, test_id);
    } else {
        n = snprintf(request, sizeof request,
                     "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: ZGlhbG9nbW9jay1jaGFvcy0x\r\nSec-WebSocket-Version: 13\r\n"
                     "Authorization: Bearer %s\r\n%s\r\n",
                     kind == LG_HOSTILE_UNKNOWN_PATH ? "/api-ws/v1/nowhere" : c->path, c->port, c->api_key, test_id);
    }
    if (n < 0 || (size_t)n >= sizeof request) { finish(x, h, LG_HOSTILE_CONNECT_FAILED, 0); return; }
    if (kind == LG_HOSTILE_SLOWLORIS) return; /* one byte a second, from the schedule */
    if (!send_all(x, h, request, (size_t)n)) finish(x, h, LG_HOSTILE_RESET, 0);
}

static const char slow_request[] = "GET /api-ws/v1/realtime?model=qwen-audio-3.1-realtime HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n";

/* The server answered 101: the kind's misdeed. */
static void misbehave(lg_chaos_run *x, hconn *h, double t) {
    const lg_chaos *k = x->c->chaos;
    switch (kind_of(h)) {
    case LG_HOSTILE_GARBAGE_FRAMES: {
        uint8_t junk[200];
        for (int b = 0; b < 12; b++) {
            size_t len = 2 + next_random(&h->seed) % (sizeof junk - 2);
            for (size_t i = 0; i < len; i++) junk[i] = (uint8_t)next_random(&h->seed);
            if (!send_all(x, h, junk, len)) return;
        }
        break;
    }
    case LG_HOSTILE_NON_UTF8_TEXT: {
        static const uint8_t bad[] = { '{', '"', 't', 0xC3, 0x28, 0xFF, 0xFE, '"', '}' };
        send_frame(x, h, 1, bad, sizeof bad);
        break;
    }
    case LG_HOSTILE_OVERSIZE: {
        uint8_t f[14] = { 0x81, 0x80 | 127 };
        for (int i = 0; i < 8; i++) f[2 + i] = (uint8_t)((uint64_t)k->oversize_bytes >> (8 * (7 - i)));
        memset(f + 10, 0, 4);
        if (!send_all(x, h, f, sizeof f)) return;
        h->oversize_left = k->oversize_bytes;
        watch(x, h, EPOLLIN | EPOLLOUT | EPOLLRDHUP);
        break;
    }
    case LG_HOSTILE_BAD_JSON: {
        static const char *const texts[] = { "{\"type\":", "not JSON at all", "[1,2", "{\"type\": 7}" };
        for (int i = 0; i < 4; i++) if (!send_frame(x, h, 1, texts[i], strlen(texts[i]))) return;
        h->keep_until = t + k->hostile_keep;
        break;
    }
    case LG_HOSTILE_BAD_CLOSE_REASON: {
        static const uint8_t close_payload[] = { 0x03, 0xE8, 0xFF, 0xFE, 0xFD };
        send_frame(x, h, 8, close_payload, sizeof close_payload);
        break;
    }
    case LG_HOSTILE_NEVER_READS: {
        const char *setup = x->c->script->setup_text;
        if (!send_frame(x, h, 1, setup, strlen(setup))) return;
        h->reading = 0;
        h->next_send = t;
        watch(x, h, EPOLLRDHUP);
        break;
    }
    default:
        break;
    }
}

/* Reads what the server sent: the HTTP answer, then frames (counted; a close frame ends it). */
static void readable(lg_chaos_run *x, hconn *h, double t) {
    for (;;) {
        if (h->in_cap - h->in_len < 16384) {
            size_t cap = h->in_cap * 2 + 16384;
            uint8_t *grown = realloc(h->in, cap);
            if (!grown) { finish(x, h, LG_HOSTILE_RESET, 0); return; }
            h->in = grown; h->in_cap = cap;
        }
        ssize_t n = recv(h->fd, h->in + h->in_len, h->in_cap - h->in_len, 0);
        if (n == 0) { finish(x, h, LG_HOSTILE_EOF, 0); return; }
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return;
            finish(x, h, LG_HOSTILE_RESET, 0);
            return;
        }
        h->in_len += (size_t)n;
        if (h->phase == H_HANDSHAKE) {
            uint8_t *end = memmem(h->in, h->in_len, "\r\n\r\n", 4);
            if (!end) continue;
            int status = 0;
            char head[40] = "";
            memcpy(head, h->in, h->in_len < sizeof head - 1 ? h->in_len : sizeof head - 1);
            if (sscanf(head, "HTTP/1.%*d %d", &status) != 1) status = 0;
            if (status != 101) { finish(x, h, LG_HOSTILE_HTTP_STATUS, status); return; }
            result_of(x, h)->upgraded = 1;
            size_t consumed = (size_t)(end + 4 - h->in);
            memmove(h->in, h->in + consumed, h->in_len - consumed);
            h->in_len -= consumed;
            h->phase = H_OPEN;
            misbehave(x, h, t);
            if (h->phase == H_DONE || !h->reading) return;
        }
        size_t off = 0;
        while (h->in_len - off >= 2) {
            uint8_t *p = h->in + off;
            int opcode = p[0] & 0x0f;
            uint64_t len = p[1] & 0x7f;
            size_t hl = 2;
            if (len == 126) { if (h->in_len - off < 4) break; len = (uint64_t)p[2] << 8 | p[3]; hl = 4; }
            else if (len == 127) { if (h->in_len - off < 10) break; len = 0; for (int i = 0; i < 8; i++) len = len << 8 | p[2 + i]; hl = 10; }
            if (p[1] & 0x80) hl += 4;
            if (h->in_len - off < hl + len) break;
            if (opcode == 8) { finish(x, h, LG_HOSTILE_CLOSE_FRAME, len >= 2 ? (p[hl] << 8 | p[hl + 1]) : 1005); return; }
            if (opcode == 1 || opcode == 2) result_of(x, h)->frames_received++;
            off += hl + len;
        }
        if (off > 0) { memmove(h->in, h->in + off, h->in_len - off); h->in_len -= off; }
    }
}

/* The connection is gone while we were writing or not reading: what the server left in the
 * socket tells how (a close frame, or none). */
static void gone(lg_chaos_run *x, hconn *h, double t) {
    h->reading = 1;
    readable(x, h, t);
    if (h->phase != H_DONE) finish(x, h, LG_HOSTILE_RESET, 0);
}

static void writable(lg_chaos_run *x, hconn *h, double t) {
    if (h->phase == H_CONNECTING) {
        int error = 0; socklen_t l = sizeof error;
        getsockopt(h->fd, SOL_SOCKET, SO_ERROR, &error, &l);
        if (error) { finish(x, h, LG_HOSTILE_CONNECT_FAILED, error); return; }
        h->phase = H_HANDSHAKE;
        watch(x, h, EPOLLIN | EPOLLRDHUP);
        send_request(x, h);
        if (kind_of(h) == LG_HOSTILE_SLOWLORIS) h->next_send = t;
        return;
    }
    static uint8_t filler[65536];
    if (!filler[0]) memset(filler, 'a', sizeof filler);
    while (h->oversize_left > 0) {
        size_t len = h->oversize_left < (long)sizeof filler ? (size_t)h->oversize_left : sizeof filler;
        ssize_t n = send(h->fd, filler, len, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n <= 0) { gone(x, h, t); return; }
        h->oversize_left -= n;
        result_of(x, h)->bytes_sent += n;
    }
    watch(x, h, EPOLLIN | EPOLLRDHUP);
}

static void open_hostile(lg_chaos_run *x, hconn *h, double t) {
    h->started = t;
    h->reading = 1;
    h->seed = 2463534242u + (uint32_t)h->index * 7919u;
    result_of(x, h)->kind = kind_of(h);
    result_of(x, h)->opened_at = t - x->window_start;
    /* A small receive buffer: what the server sends a client that never reads piles up on its side. */
    h->fd = loopback_socket(x->c->port, 1, kind_of(h) == LG_HOSTILE_NEVER_READS ? 4096 : 0);
    h->phase = H_CONNECTING;
    if (h->fd < 0) { h->phase = H_WAITING; finish(x, h, LG_HOSTILE_CONNECT_FAILED, errno); return; }
    struct epoll_event ev = { .events = EPOLLOUT | EPOLLIN | EPOLLRDHUP, .data.u32 = (uint32_t)h->index };
    epoll_ctl(x->ep, EPOLL_CTL_ADD, h->fd, &ev);
}

/* What a connection does on its own schedule. */
static void tick(lg_chaos_run *x, hconn *h, double t) {
    if (h->phase == H_DONE || h->phase == H_WAITING || h->phase == H_CONNECTING) return;
    int kind = kind_of(h);
    if (kind == LG_HOSTILE_SLOWLORIS && h->phase == H_HANDSHAKE && t >= h->next_send && h->slow_sent < sizeof slow_request - 1) {
        if (!send_all(x, h, slow_request + h->slow_sent, 1)) { gone(x, h, t); return; }
        h->slow_sent++;
        h->next_send = t + 1;
    }
    if (kind == LG_HOSTILE_NEVER_READS && h->phase == H_OPEN && t >= h->next_send) {
        /* 100 ms chunks in real time, 1.5 s voiced and 1.5 s silent: it asks for answers it never reads. */
        int voiced = h->chunk % 30 < 15;
        ssize_t n = send(h->fd, voiced ? x->voiced : x->silent, voiced ? x->voiced_len : x->silent_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { gone(x, h, t); return; }
        if (n > 0) result_of(x, h)->bytes_sent += n;
        /* A partial frame would corrupt the stream: stop sending once the socket is full. */
        if (n >= 0 && (size_t)n < (voiced ? x->voiced_len : x->silent_len)) h->next_send = 1e18;
        else h->next_send += 0.1;
        h->chunk++;
    }
    if (h->keep_until > 0 && t >= h->keep_until) finish(x, h, LG_HOSTILE_KEPT, 0);
}

/* The control requests, one after another on a thread of their own: an overloaded server may
 * answer them late (each waits up to 5 s), and the hostile connections keep their schedule. */
static void *control_main(void *arg) {
    lg_chaos_run *x = arg;
    const lg_chaos *k = x->c->chaos;
    for (int i = 0; i < k->control_request_count && !__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE); i++)
        x->out->control_statuses[i] = control_request(x->c->port, k->control_requests[i]);
    return NULL;
}

static void *chaos_main(void *arg) {
    lg_chaos_run *x = arg;
    const lg_chaos *k = x->c->chaos;
    while (!__atomic_load_n(&x->window_known, __ATOMIC_ACQUIRE) && !__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE)) usleep(5000);
    int controlled = 0, opened = 0, cpu_started = 0, cpu_ended = 0;
    struct epoll_event events[64];
    while (!__atomic_load_n(&x->stop, __ATOMIC_ACQUIRE)) {
        double t = now_s();
        if (!cpu_started && t >= x->window_start) { x->cpu_start = thread_cpu_seconds(); cpu_started = 1; }
        if (!cpu_ended && t >= x->window_end) { x->cpu_end = thread_cpu_seconds(); cpu_ended = 1; }
        if (!controlled && t >= x->window_start + k->control_after) {
            if (k->control_request_count > 0) x->control_started = pthread_create(&x->control_thread, NULL, control_main, x) == 0;
            controlled = 1;
        }
        while (opened < k->hostile
               && t >= x->window_start + k->hostile_after + (k->hostile > 1 ? k->hostile_spread * opened / (k->hostile - 1) : 0)) {
            open_hostile(x, &x->h[opened], t);
            opened++;
        }
        int n = epoll_wait(x->ep, events, 64, 10);
        t = now_s();
        for (int e = 0; e < n; e++) {
            hconn *h = &x->h[events[e].data.u32];
            if (h->phase == H_DONE) continue;
            uint32_t ev = events[e].events;
            if (h->phase == H_CONNECTING) {
                if (ev & (EPOLLOUT | EPOLLERR | EPOLLHUP)) writable(x, h, t);
                continue;
            }
            /* Reading first: a close frame the server sent is taken before a write fails on the reset after it. */
            if (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
                if (h->reading) readable(x, h, t);
                else gone(x, h, t);
            }
            if (h->phase != H_DONE && (ev & EPOLLOUT)) writable(x, h, t);
        }
        for (int i = 0; i < opened; i++) tick(x, &x->h[i], t);
    }
    if (cpu_started && !cpu_ended) x->cpu_end = thread_cpu_seconds();
    for (int i = 0; i < opened; i++) finish(x, &x->h[i], LG_HOSTILE_KEPT, 0);
    return NULL;
}

lg_chaos_run *lg_chaos_start(const lg_config *c, lg_result *out, const uint8_t *voiced_frame, size_t voiced_len,
                             const uint8_t *silent_frame, size_t silent_len, char *err, size_t err_len) {
    const lg_chaos *k = c->chaos;
    if (k->hostile < 0 || k->control_request_count < 0 || (k->control_request_count > 0 && !k->control_requests)) {
        snprintf(err, err_len, "invalid chaos configuration");
        return NULL;
    }
    lg_chaos_run *x = calloc(1, sizeof *x);
    if (!x) { snprintf(err, err_len, "out of memory"); return NULL; }
    *x = (lg_chaos_run){ .c = c, .out = out, .voiced = voiced_frame, .silent = silent_frame, .voiced_len = voiced_len,
                         .silent_len = silent_len, .ep = epoll_create1(EPOLL_CLOEXEC) };
    x->h = calloc((size_t)(k->hostile > 0 ? k->hostile : 1), sizeof(hconn));
    out->hostile_detail = calloc((size_t)(k->hostile > 0 ? k->hostile : 1), sizeof(lg_hostile_result));
    out->hostile_count = k->hostile;
    out->control_statuses = calloc((size_t)(k->control_request_count > 0 ? k->control_request_count : 1), sizeof(int));
    if (x->ep < 0 || !x->h || !out->hostile_detail || !out->control_statuses) {
        snprintf(err, err_len, "cannot set up the chaos thread: %s", strerror(errno));
        if (x->ep >= 0) close(x->ep);
        free(x->h); free(x);
        return NULL;
    }
    for (int i = 0; i < k->hostile; i++) {
        x->h[i].index = i;
        x->h[i].fd = -1;
        out->hostile_detail[i].kind = i % LG_HOSTILE_KINDS;
    }
    if (pthread_create(&x->thread, NULL, chaos_main, x) != 0) {
        snprintf(err, err_len, "cannot start the chaos thread");
        close(x->ep);
        free(x->h); free(x);
        return NULL;
    }
    return x;
}

void lg_chaos_window(lg_chaos_run *x, double window_start, double window_end) {
    x->window_start = window_start;
    x->window_end = window_end;
    __atomic_store_n(&x->window_known, 1, __ATOMIC_RELEASE);
}

void lg_chaos_stop(lg_chaos_run *x) {
    __atomic_store_n(&x->stop, 1, __ATOMIC_RELEASE);
    pthread_join(x->thread, NULL);
    if (x->control_started) pthread_join(x->control_thread, NULL);
    double window = x->window_end - x->window_start;
    if (window > 0 && x->cpu_end > x->cpu_start) x->out->chaos_cpu_percent = (x->cpu_end - x->cpu_start) / window * 100;
    for (int i = 0; i < x->c->chaos->hostile; i++) free(x->h[i].in);
    free(x->h);
    close(x->ep);
    free(x);
}
