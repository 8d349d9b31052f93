/* SPDX-License-Identifier: MIT */
/*
 * ex_lockstep.c - lab 02's lockstep: its CPU reference and its hooks for
 * the table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <math.h>

#include "harness.h"
#include "shfl.h"
#include "lab_hooks.h"

/* ---- lockstep ---- */

enum { L_A, L_X, L_Y };

int lab02_lockstep_setup(struct wb_ctx *c)
{
	size_t rows = c->size->n[0], cols = c->size->n[1];
	float *a = wb_input(c, "a", rows * cols * sizeof(float));
	float *x = wb_input(c, "x", cols * sizeof(float));

	/* Signed entries: a row's sum mostly cancels, so one partial sum
	 * lost or added twice (the race's wrong answer) stands out. */
	wb_rng_fill_uniform(&c->rng, a, rows * cols, -1.0, 1.0);
	wb_rng_fill_uniform(&c->rng, x, cols, -1.0, 1.0);
	wb_output(c, "y", rows * sizeof(float));
	return 0;
}

int lab02_lockstep_run(struct wb_ctx *c, enum wb_impl impl)
{
	/* Correctness only: there is no naive and no peer to call. */
	if (impl != WB_STUDENT || !lockstep_matvec)
		return WB_MISSING;
	lockstep_matvec(wb_dev(c, L_A), wb_dev(c, L_X), wb_dev(c, L_Y),
			c->size->n[0], c->size->n[1]);
	return 0;
}

/* The dot product of a row with x, and the sum of |a[c] x[c]|. */
static double lockstep_dot(const float *a, const float *x, size_t cols,
			   double *abs_sum)
{
	double s = 0, t = 0;

	for (size_t j = 0; j < cols; j++) {
		double p = (double)a[j] * x[j];

		s += p;
		t += fabs(p);
	}
	*abs_sum = t;
	return s;
}

/*
 * Tolerance, per row: |y[r] - ref| <= LOCKSTEP_RTOL * sum_c |a[r][c] x[c]|.
 * Float32 partial sums in any order (32 lane-strided sums and a tree of
 * five steps, or a shuffle tree) err by a few 2^-24 of that sum (signed
 * terms: the partial sums grow like sqrt(cols), not cols); 1e-5 leaves a
 * wide margin, while one lane's partial sum dropped or counted twice (a
 * term of ~0.25 at cols = 33, against a bound of ~1e-4) fails.
 */
#define LOCKSTEP_RTOL 1e-5

void lab02_lockstep_check(struct wb_ctx *c)
{
	const float *a = c->buf[L_A].host, *x = c->buf[L_X].host;
	const float *y = c->buf[L_Y].host;
	size_t rows = c->size->n[0], cols = c->size->n[1], bad = 0;
	size_t shown[WB_MAX_SHOWN];
	double want[WB_MAX_SHOWN], tol[WB_MAX_SHOWN];

	for (size_t r = 0; r < rows; r++) {
		double abs_sum, w = lockstep_dot(a + r * cols, x, cols, &abs_sum);

		if (fabs((double)y[r] - w) <= LOCKSTEP_RTOL * abs_sum)
			continue; /* false for NaN: counted */
		if (bad < WB_MAX_SHOWN) {
			shown[bad] = r;
			want[bad] = w;
			tol[bad] = LOCKSTEP_RTOL * abs_sum;
		}
		bad++;
	}
	if (!bad)
		return;
	wb_fail(c, "%zu of %zu values of y wrong (tolerance %.0e x sum_c "
		   "|a[r][c] x[c]|)", bad, rows, LOCKSTEP_RTOL);
	for (size_t i = 0; i < bad && i < WB_MAX_SHOWN; i++)
		wb_fail(c, "  y[%zu] = %.9g, expected %.9g (tolerance %.3g)",
			shown[i], y[shown[i]], want[i], tol[i]);
}
