/* SPDX-License-Identifier: MIT */
/*
 * diag.h - naming the likely bug behind a WRONG verdict.
 *
 * While the runner checks an exercise it feeds this module what it saw:
 * which sizes passed, and for every comparison that failed, where the bad
 * values sit and what they hold. A failing size is also run a second time
 * on the same input. At the end, wb_diag_cause() names the bug class when
 * the pattern is clear:
 *
 *   - no output was ever written (still poison);
 *   - an input was modified (inputs are read-only);
 *   - right until the inputs changed under the same pointers (a cached
 *     result);
 *   - only sizes whose extent is not a multiple of m fail (a tail guard);
 *   - a second run on the same input came out different (a race);
 *   - bad values only at the edges of every B-element block (a missing
 *     __syncthreads, a halo);
 *   - bad values in only a few lanes of every warp (a shuffle mask or lane
 *     arithmetic);
 *   - NaN or inf in the output (uninitialised shared memory, overflow);
 *   - every bad value is 0 (never computed);
 *   - only the benchmark size, or only a timed run, is wrong.
 *
 * Pure C with no CUDA, so that it is unit-tested on synthetic arrays.
 */
#ifndef WB_DIAG_H
#define WB_DIAG_H

#include <stddef.h>
#include <stdint.h>

#include "harness.h"

/* Bad values remembered from a first run, to compare with the second. */
#define WB_DIAG_KEEP 64
/* Comparisons shorter than this say nothing about lanes or blocks. */
#define WB_DIAG_WIDE 64
/* Block sizes whose edges are looked at: 64, 128, ..., 1024. */
#define WB_DIAG_EDGES 5

struct wb_diag_size {
	char label[48];
	size_t n[WB_MAX_DIMS];
	int ok;
	int bench;
};

struct wb_diag_mark {
	int call;      /* which comparison of the check (0, 1, ...) */
	size_t index;  /* the value's index in it */
	double got;
	double tol;    /* the tolerance at that value: atol + rtol |want| */
};

struct wb_diag {
	struct wb_diag_size sizes[WB_MAX_SIZES + WB_MAX_BENCH];
	int nsizes;

	/* Every failing comparison of a first run. */
	size_t compared, bad, nonfinite, poisoned, zeros;
	size_t wide_bad;                 /* bad values in wide comparisons */
	size_t lane[32];                 /* ... by index % 32 */
	size_t edge[WB_DIAG_EDGES];      /* ... first or last of a block */
	size_t span;                     /* widest bad-index span in one */

	/* The current call: first run or re-run of one size. */
	int rerun;
	int call;                        /* comparisons so far */
	size_t call_bad;
	size_t first_bad;                /* bad values in the first run */
	int first_ok;
	struct wb_diag_mark keep[WB_DIAG_KEEP];
	int nkeep;
	int reran;                       /* a size was run twice */
	int differs;                     /* ... and came out different */

	/* Set by the runner. */
	int bench_wrong;  /* the small sizes passed, a benchmark shape not */
	int timed_wrong;  /* the output of a timed run was wrong */
	int timed_oob;    /* ... or wrote past a buffer's end */
	int fresh_wrong;  /* wrong once the inputs changed under it */
	int input_modified; /* the code wrote into an input */
	char first_fail[48];
};

/* Start afresh (one exercise). */
void wb_diag_reset(struct wb_diag *d);

/* A size was checked: label, extents, passed or not, benchmark or not. */
void wb_diag_add_size(struct wb_diag *d, const char *label,
		      const size_t n[WB_MAX_DIMS], int ok, int bench);

/* Around one checked call; rerun: the same input again, quietly. */
void wb_diag_call_begin(struct wb_diag *d, int rerun);
void wb_diag_call_end(struct wb_diag *d, int ok);

/* One comparison of a check (a wb_check_*) that found bad values, or any
 * comparison during a re-run. */
void wb_diag_cmp_f32(struct wb_diag *d, const float *got, const double *want,
		     size_t n, double atol, double rtol);
void wb_diag_cmp_i64(struct wb_diag *d, const int64_t *got,
		     const int64_t *want, size_t n);

/* A comparison that passed: only counted. _n: `calls` of them, n values
 * in all (a check made on several threads: wb_check_chunks). */
void wb_diag_cmp_ok(struct wb_diag *d, size_t n);
void wb_diag_cmp_ok_n(struct wb_diag *d, size_t n, size_t calls);

/* The likely cause in one or two sentences; 0 when no pattern is clear. */
int wb_diag_cause(const struct wb_diag *d, char *buf, size_t n);

/* How to reproduce the run, and the first failing size alone. */
void wb_diag_reproduce(const struct wb_diag *d, const char *lab,
		       const char *exercise, uint64_t seed, char *buf,
		       size_t n);

#endif /* WB_DIAG_H */
