/* SPDX-License-Identifier: MIT */
/*
 * result.h - the machine-readable channel from an exercise runner to the
 * grader's driver. One record per run, a line per fact, "key value...",
 * closed by the line "end". A record without "end" means the runner died
 * before it finished, whatever else it says.
 *
 *   verdict PASS | WRONG | NOT_IMPLEMENTED | CRASH | OUT_OF_BOUNDS | ...
 *   detail <free text, one line>          (repeated)
 *   size <label> ok | fail                (one per size checked)
 *   time <naive|student|peer> <median_us> <q1_us> <q3_us> <samples>
 *   host <naive|student|peer> <median_us>  (host-clock cross-check)
 *   bytes <bytes at the benchmark size>
 *   seed <seed>
 *   end
 */
#ifndef WB_RESULT_H
#define WB_RESULT_H

#include <stdio.h>

/* Open the channel at path (NULL: standard output). 0 or -1. */
int wb_result_open(const char *path);
/* Write "key value" where value is printf-formatted; newlines become spaces. */
void wb_result(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Write "end" and close. */
void wb_result_end(void);

#endif /* WB_RESULT_H */
