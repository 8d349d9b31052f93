/* SPDX-License-Identifier: MIT */
/*
 * knobs.h - the harness's global measurement settings, each with its reason.
 * Per-exercise knobs (sizes, tolerances, tiers, points, timeouts) live in
 * each lab's lab.c; these apply to every exercise alike.
 */
#ifndef WB_KNOBS_H
#define WB_KNOBS_H

/* Untimed runs of each implementation first: module load, lazy loading of
 * kernels and first-touch page mapping stay out of the samples. */
#define WB_WARMUP_RUNS 3

/* At least this many samples of each series: below ~15 the quartiles that
 * the median's error estimate rests on are themselves unreliable. */
#define WB_MIN_SAMPLES 15

/* Never more than this many: enough for a 0.2% median on a noisy GPU. Odd,
 * because sampling stops only after a forward round (an odd count). */
#define WB_MAX_SAMPLES 401

/* Stop once each median's estimated relative standard error is under this:
 * 0.5% keeps a 1.15x tier boundary far outside the noise. */
#define WB_TARGET_REL_ERR 0.005

/* Cap on one exercise's timing loop (seconds of wall clock), so a very slow
 * submission cannot stretch a class's grading run. */
#define WB_MAX_TIMING_S 6.0

/* The L2 flush writes max(2 x L2, this) bytes before every sample: twice
 * the L2 evicts every line whatever the replacement policy. */
#define WB_FLUSH_MIN_BYTES (32u << 20)

/* Guard regions around every buffer (inputs, outputs and the workspace).
 * 256 bytes before keeps the buffer at
 * cudaMalloc's 256-byte alignment; 4 KiB after catches a missing tail guard
 * even when a whole block of 1024 threads runs past the end. */
#define WB_GUARD_BEFORE 256u
#define WB_GUARD_AFTER 4096u

#endif /* WB_KNOBS_H */
