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
 *   phase <name> <seconds>                (where the time went: never graded)
 *   seed <seed>
 *   end
 *
 * The driver hands the runner the write end of a pipe (--result-fd): a
 * pipe cannot be rewound, so what the runner said cannot be rewritten,
 * and anything written after "end" makes the record unreadable.
 */
#ifndef WB_RESULT_H
#define WB_RESULT_H

#include <stdio.h>

/*
 * Open the channel at path (NULL: standard output, unless
 * wb_result_open_fd() has opened one: that one is kept). 0 or -1.
 */
int wb_result_open(const char *path);
/* Open the channel on descriptor fd, which must be open for writing (the
 * driver's pipe). 0, or -1 with errno set. */
int wb_result_open_fd(int fd);
/* The channel's descriptor (to keep writable: lockdown.h), or -1. */
int wb_result_fd(void);
/* Write "key value" where value is printf-formatted; newlines become spaces. */
void wb_result(const char *key, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Write "end" and close. */
void wb_result_end(void);
/*
 * Where the time went (tests/gpu/phases.sh; never graded): "phase NAME S",
 * S the seconds since the previous mark (the first: since the process
 * began) less `minus`, seconds spent inside the interval that another
 * phase line reports. Sets the mark to now.
 */
void wb_phase(const char *name, double minus);
/* The monotonic clock in seconds, which wb_phase() reads (and the rounds
 * are timed by: bench.c); wb_phase_begin() sets the first mark (at the
 * start of main()). */
double wb_phase_now(void);
void wb_phase_begin(void);

#endif /* WB_RESULT_H */
