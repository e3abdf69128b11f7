#pragma once
/* The chaos thread of `dialogmock-bench load --chaos` (private to LoadGenerator). */
#include "LoadGenerator.h"

typedef struct lg_chaos_run lg_chaos_run;

/* Starts the thread (it waits for the window); NULL with a message in `err` when it cannot. */
lg_chaos_run *lg_chaos_start(const lg_config *c, lg_result *out, const uint8_t *voiced_frame, size_t voiced_len,
                             const uint8_t *silent_frame, size_t silent_len, char *err, size_t err_len);
/* The measured window is known (CLOCK_MONOTONIC seconds): control requests and hostile
 * connections are scheduled from its start. */
void lg_chaos_window(lg_chaos_run *run, double window_start, double window_end);
/* Closes what is still open, joins the thread, fills `out->hostile_detail` and frees `run`. */
void lg_chaos_stop(lg_chaos_run *run);
