#ifndef CJANSSON_SHIM_H
#define CJANSSON_SHIM_H
#include <jansson.h>

/// json_typeof is a macro; Swift cannot call it.
static inline json_type cjansson_typeof(const json_t *value) { return json_typeof(value); }

/// JSON_INDENT(n) and JSON_REAL_PRECISION(n) are function-like macros.
static inline size_t cjansson_flags_indent(int n) { return JSON_INDENT(n); }
static inline size_t cjansson_flags_real_precision(int n) { return JSON_REAL_PRECISION(n); }

/// json_incref/json_decref are static inline already, but keep named entry points for clarity.
static inline json_t *cjansson_incref(json_t *value) { return json_incref(value); }
static inline void cjansson_decref(json_t *value) { json_decref(value); }
#endif
