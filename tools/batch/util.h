/* SPDX-License-Identifier: MIT */
/*
 * util.h - the batch's small helpers on strings and time: snprintf under
 * a name of its own, a hash, quoting for sh, text replaced, a clock and
 * durations in words. Floor 0 (batch.h): uses nothing of the batch.
 */
#ifndef BATCH_UTIL_H
#define BATCH_UTIL_H

#include <stddef.h>

/*
 * snprintf, under a name of its own: every path here is built from parts
 * bounded by BT_PATH and a truncated one only fails to open, so gcc's
 * -Wformat-truncation, which cannot know that, is not asked. Returns what
 * snprintf returns.
 */
int bt_fmt(char *out, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* FNV-1a of n bytes at p, going on from h (BT_FNV_INIT: a start). */
unsigned long long bt_fnv(unsigned long long h, const void *p, size_t n);
#define BT_FNV_INIT 0xcbf29ce484222325ULL
/* s as one word for sh, in single quotes. */
void bt_shell_quote(const char *s, char *out, size_t n);
/* Every from in text (a malloc'd string, freed) replaced by to. */
char *bt_replace(char *text, const char *from, const char *to);
/* The monotonic clock, in seconds. */
double bt_now(void);
/* "45 s", "12 min", "1 h 05 min" */
void bt_fmt_duration(char *buf, size_t n, double s);

#endif /* BATCH_UTIL_H */
