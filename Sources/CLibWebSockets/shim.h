#ifndef CLWS_SHIM_H
#define CLWS_SHIM_H
#include <libwebsockets.h>

/// LWS_PRE is a macro: the headroom lws_write needs before the payload.
static inline size_t clws_pre(void) { return LWS_PRE; }

/// A sorted-usec-list timer with a back pointer: the sul callback only gets the sul pointer,
/// so the owner is recovered with lws_container_of (a macro).
typedef struct clws_timer {
    lws_sorted_usec_list_t sul;
    void *owner;
    uint64_t token;
} clws_timer_t;

static inline clws_timer_t *clws_timer_from_sul(lws_sorted_usec_list_t *sul) {
    return lws_container_of(sul, clws_timer_t, sul);
}
static inline lws_sorted_usec_list_t *clws_timer_sul(clws_timer_t *timer) { return &timer->sul; }

/// lws_write_protocol flags are an enum; OR-ing them in Swift is awkward.
static inline int clws_write(struct lws *wsi, unsigned char *buf, size_t len, int binary, int first, int final) {
    int proto;
    if (first) proto = binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT;
    else proto = LWS_WRITE_CONTINUATION;
    if (!final) proto |= LWS_WRITE_NO_FIN;
    return lws_write(wsi, buf, len, (enum lws_write_protocol)proto);
}
/// pthread_setname_np is a GNU extension the Glibc module hides; names the service thread.
extern int pthread_setname_np(pthread_t thread, const char *name);
static inline void clws_name_current_thread(const char *name) { pthread_setname_np(pthread_self(), name); }
#endif
