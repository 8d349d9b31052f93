/* SPDX-License-Identifier: MIT */
/*
 * result.h - the machine-readable channel from an exercise runner to the
 * grader's driver. One record per run, a line per fact, "key value...",
 * closed by the line "end". A record without "end" means the runner died
 * before it finished, whatever else it says.
 *
 *   seed <seed>
 *   size <label> ok | fail                (one per size checked)
 *   detail <free text, one line>          (repeated)
 *   shape <k> <label> <rounds> <student|peer|-> <small> <mhz_min>
 *         <mhz_med> <mhz_max>             (one per benchmark shape, k from 0)
 *   sample <k> <round> <us> <naive_us> <ideal_us>
 *                                         (one per kept round of shape k,
 *                                          round from 0, in order)
 *   time <naive|student|peer|ideal> <median_us> <q1_us> <q3_us> <samples>
 *   ratio speedup|share <median> <lo95> <hi95>
 *   ratio naive_ideal|share_max <x> 0 0
 *   sol dram|peer|instr|roof <read B> <written B> <read GB/s> <write GB/s>
 *   peak fma|mma|wgmma <TFLOP/s>          (roof: the compute probe)
 *   clock <min> <median> <max>            (the SM clock, MHz: shape 0's)
 *   rounds <kept> <dropped> <extra> <resets> <checked> <throttled>
 *   bytes <bytes at the benchmark size>
 *   flops <count>
 *   phase <name> <seconds>                (where the time went: never graded)
 *   verdict PASS | WRONG | NOT_IMPLEMENTED | CRASH | OUT_OF_BOUNDS | ...
 *   end
 *
 * The "sample" lines are the raw rounds of a timed run (runner.c,
 * shape_samples()): in round r of shape k, the time of the series the
 * "shape" line names (the student's; the peer's in a reference run; 0
 * for none), the naive's, and the ideal (the speed of light the probes
 * measured in that round, or the peer's time; 0 when none was measured),
 * each in microseconds; small is 1 for a small shape (knobs.h,
 * WB_LAUNCH_BYTES), else 0; the clocks are the spacer's readings over that
 * shape. The driver scores from these alone (grader/score/score.c,
 * g_measure()): the "time" and "ratio" lines, which the runner computes
 * from the same rounds (geometric means over the shapes), must agree with
 * its recomputation, or the record is a grader error. They stay for the
 * grader's reference (grader/run/reference.c reads its "time" lines) and for
 * people reading <runner>.result.
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
