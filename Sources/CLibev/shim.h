#ifndef CLIBEV_SHIM_H
#define CLIBEV_SHIM_H
/// libev (Debian libev-dev): the epoll loop lws runs its connections on with --event-loop libev.
/// lws' evlib_ev plugin adds the I/O watchers; WireSocket adds its own timers (below) because
/// the plugin cannot move its timer earlier once armed.
#include <ev.h>

/// An ev_timer with a back pointer to its Swift owner (the watcher is the first member, so the
/// callback's ev_timer pointer is the struct's).
typedef struct clibev_timer {
    ev_timer watcher;
    void *owner;
} clibev_timer_t;

typedef void (*clibev_timer_cb)(struct ev_loop *loop, ev_timer *watcher, int revents);

static inline clibev_timer_t *clibev_timer_from_watcher(ev_timer *watcher) { return (clibev_timer_t *)watcher; }

/// (Re)arms `timer` to fire once after `seconds` (measured from now, not from the loop's cached
/// time), then every `repeat` seconds when `repeat` > 0.
static inline void clibev_timer_arm(struct ev_loop *loop, clibev_timer_t *timer, clibev_timer_cb cb,
                                    double seconds, double repeat) {
    ev_timer_stop(loop, &timer->watcher);
    ev_now_update(loop);
    ev_timer_init(&timer->watcher, cb, seconds, repeat);
    ev_timer_start(loop, &timer->watcher);
}

static inline void clibev_timer_stop(struct ev_loop *loop, clibev_timer_t *timer) {
    ev_timer_stop(loop, &timer->watcher);
}
#endif
