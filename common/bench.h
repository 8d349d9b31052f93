/* SPDX-License-Identifier: MIT */
/*
 * bench.h - timing one benchmark shape (bench.c): the rounds, the speed of
 * light measured beside the code, the stopping rule on the grade, and the
 * checks of timed outputs. Internal to the runner; labs use harness.h.
 */
#ifndef WB_BENCH_H
#define WB_BENCH_H

#include "harness.h"
#include "scale.h"
#include "stats.h"
#include "verdict.h"

/* What the rounds time, besides the probes of the speed of light. */
enum wb_bench_kind {
	WB_BENCH_GRADE,     /* naive and student; stop on the grade */
	WB_BENCH_COMPARE,   /* naive and a solution (make bench); stop on
			     * the medians */
	WB_BENCH_REFERENCE, /* naive and the peer, no student code at all
			     * (the grader's reference); stop on the medians */
};

/* How the driver scores this exercise, so the rounds can stop as soon as
 * the grade is known (runner --tiers, --peer-us). */
struct wb_decision {
	struct wb_scale_in {
		enum wb_scale_unit unit;
		int n;
		double x[WB_SCALE_MAX];
		double pts[WB_SCALE_MAX];
	} tiers;
	double peer_ms; /* WB_IDEAL_PEER: the peer's time; 0 when unknown */
	int with_peer;  /* WB_BENCH_REFERENCE: the peer is linked and right */
};

/* A median and the 95% interval around it. */
struct wb_ci {
	double lo, med, hi;
};

/* What timing one shape measured. Times in ms. */
struct wb_shape_time {
	struct wb_summary naive, student, peer, ideal;
	int timed_naive, timed_student, timed_peer, have_ideal;
	struct wb_ci share;   /* ideal / student, paired per round */
	struct wb_ci speedup; /* naive / student, paired per round */
	double naive_over_ideal; /* median of the paired ratios */
	double read_bytes, write_bytes, flops;
	double mem_gbps;                 /* the memory probe's bytes (read
					  * and written) over its median */
	double peak_tflops;              /* the compute probe's rate (its
					  * FLOPs over its median); 0: none */
	int small;                       /* a small shape (knobs.h,
					  * WB_LAUNCH_BYTES) */
	int mem_probe, peak_probe;       /* enum wb_probe; -1: not probed */
	int limit;                       /* the lab's limit kernel was timed
					  * (WB_IDEAL_LIMIT): limit_ms */
	struct wb_summary limit_ms;
	double mhz_min, mhz_med, mhz_max; /* the spacer's clock readings */
	int rounds, discarded, extra, resets, verified;
	int throttled;                   /* too many slow rounds to drop */
	int capped;                      /* a grade's sampling stopped at
					  * WB_MAX_SAMPLES or WB_MAX_TIMING_S,
					  * not at the precision it asked */
};

/*
 * Time one benchmark shape of c's exercise (its buffers set up, its checks
 * passed). Returns PASS, or WRONG / OUT_OF_BOUNDS when a checked timed
 * output was wrong (the details are already written). Under
 * WB_BENCH_GRADE the student's output of random rounds is checked, and of
 * one more call on new inputs after the rounds.
 */
enum wb_verdict wb_bench_shape(struct wb_ctx *c, uint64_t seed,
			       enum wb_bench_kind kind,
			       const struct wb_decision *d,
			       struct wb_shape_time *st);

#endif /* WB_BENCH_H */
