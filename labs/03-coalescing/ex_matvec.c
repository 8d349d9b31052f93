/* SPDX-License-Identifier: MIT */
/*
 * ex_matvec.c - lab 03's matvec: its CPU reference and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <math.h>

#include "harness.h"
#include "coalescing.h"
#include "lab_hooks.h"

/* ---- CPU references, in double precision ---- */

/* The dot product of a row with x, and the sum of |a[j] x[j]|. */
static double cpu_dot(const float *a, const float *x, size_t n,
		      double *abs_sum)
{
	double s = 0, t = 0;

	for (size_t j = 0; j < n; j++) {
		double p = (double)a[j] * x[j];

		s += p;
		t += fabs(p);
	}
	*abs_sum = t;
	return s;
}

/* ---- matvec ---- */

enum { MV_A, MV_X, MV_Y };

int lab03_matvec_setup(struct wb_ctx *c)
{
	size_t m = c->size->n[0], n = c->size->n[1];
	float *a = wb_input_as(c, "a", m * n * sizeof(float), WB_FRESH_F32);
	float *x = wb_input_as(c, "x", n * sizeof(float), WB_FRESH_F32);

	/* Signed entries: y[r] is a sum that mostly cancels, small next to
	 * sum |a x|, so a dropped or repeated term stands out (MV_RTOL). */
	wb_fill_uniform(c, a, m * n, -1.0, 1.0);
	wb_fill_uniform(c, x, n, -1.0, 1.0);
	wb_output(c, "y", m * sizeof(float));
	return 0;
}

typedef void matvec_fn(const float *, const float *, float *, size_t,
		       size_t);

int lab03_matvec_run(struct wb_ctx *c, enum wb_impl impl)
{
	matvec_fn *f = impl == WB_STUDENT ? matvec :
		       impl == WB_NAIVE   ? naive_matvec :
					    peer_matvec;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, MV_A), wb_dev(c, MV_X), wb_dev(c, MV_Y), c->size->n[0],
	  c->size->n[1]);
	return 0;
}

/*
 * Tolerance, per row: |y[r] - ref| <= MV_RTOL * sum_j |a[r][j] x[j]|, as
 * lab 05's sum. A float32 dot product in any order (sequential, lane-
 * strided, a shuffle tree, cuBLAS's) errs by about 2^-24 * sum |a x| here,
 * whatever n (the partial sums of signed terms grow like sqrt(n), not n);
 * 1e-5 leaves a wide margin, while a dropped term at n = 33 (|a x| ~ 0.25
 * against a bound of ~1e-4) fails. NaN never passes.
 */
#define MV_RTOL 1e-5

static void matvec_stretch(size_t k, void *arg)
{
	struct stretch_job *j = arg;
	struct wb_ctx *c = j->c;
	const float *a = c->buf[MV_A].host, *x = c->buf[MV_X].host;
	const float *y = c->buf[MV_Y].host;
	size_t n = c->size->n[1], lo, hi;

	lab03_stretch_bounds(j, k, &lo, &hi);
	for (size_t r = lo; r < hi; r++) {
		double abs_sum, w = cpu_dot(a + r * n, x, n, &abs_sum);

		if (fabs((double)y[r] - w) <= MV_RTOL * abs_sum)
			continue; /* false for NaN: it is counted here */
		lab03_miss_note(&j->part[k], r, lab03_is_poison(y[r]), w,
				MV_RTOL * abs_sum);
	}
}

void lab03_matvec_check(struct wb_ctx *c)
{
	const float *y = c->buf[MV_Y].host;
	size_t m = c->size->n[0];
	struct misses w = { 0 };

	if (lab03_by_stretches(c, m, matvec_stretch, &w) || !w.bad)
		return;
	wb_fail(c, "%zu of %zu values of y wrong (tolerance %.0e x sum_j "
		   "|a[r][j] x[j]|)%s", w.bad, m, MV_RTOL,
		w.odd == m ? ": none was written" :
		w.odd ? ": some never written (still poison)" : "");
	for (int i = 0; i < w.shown; i++)
		wb_fail(c, "  y[%zu] = %.9g, expected %.9g (tolerance %.3g)",
			w.at[i], y[w.at[i]], w.want[i], w.tol[i]);
}

/* a (m x n) and x (n) read, y (m) written. */
void lab03_matvec_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * ((double)s->n[0] * s->n[1] + s->n[1]);
	t->write = 4.0 * s->n[0];
}
