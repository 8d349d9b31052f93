/* SPDX-License-Identifier: MIT */
/*
 * ex_hgemm.c - lab 08's hgemm: its CPU reference and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tensor_cores.h"
#include "ref.h"
#include "lab_hooks.h"

/* ---- CPU reference, in double precision ---- */

/*
 * Row i of a b (a: m x k, b: k x n, bf16), into want[0..n-1], and the
 * size of its terms, mag[j] = sum_p |a[i][p]| |b[p][j]|, for the
 * tolerance. Each product of two bf16 is exact in double; rows of b are
 * walked in order p = 0, 1, ..., as ref.cu walks them.
 */
static void cpu_hgemm_row(const bf16_bits *a, const bf16_bits *b, size_t k,
			  size_t n, size_t i, double *want, double *mag)
{
	memset(want, 0, n * sizeof(double));
	memset(mag, 0, n * sizeof(double));
	for (size_t p = 0; p < k; p++) {
		double x = lab08_bf16_to_double(a[i * k + p]), ax = fabs(x);
		const bf16_bits *br = b + p * n;

		if (x == 0)
			continue;
		for (size_t j = 0; j < n; j++) {
			double y = lab08_bf16_to_double(br[j]);

			want[j] += x * y;
			mag[j] += ax * fabs(y);
		}
	}
}

/* After a failed row: say which, since the indices reported are in it. */
static void note_row(struct wb_ctx *c, size_t r, size_t rows)
{
	wb_fail(c, "  (row %zu of %zu; the indices above are within the row)",
		r, rows);
}

/* ---- hgemm ---- */

enum { H_A, H_B, H_C };

int lab08_hgemm_setup(struct wb_ctx *c)
{
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];
	bf16_bits *a = wb_input_as(c, "a", m * k * sizeof(bf16_bits),
				   WB_FRESH_BF16);
	bf16_bits *b = wb_input_as(c, "b", k * n * sizeof(bf16_bits),
				   WB_FRESH_BF16);

	/* Signed values: the terms of a dot product cancel, so a term
	 * dropped or counted twice stands out against the tolerance. */
	for (size_t i = 0; i < m * k; i++)
		a[i] = lab08_float_to_bf16(
			(float)wb_rng_range(&c->rng, -1.0, 1.0));
	for (size_t i = 0; i < k * n; i++)
		b[i] = lab08_float_to_bf16(
			(float)wb_rng_range(&c->rng, -1.0, 1.0));
	wb_output(c, "c", m * n * sizeof(float));
	return 0;
}

typedef void hgemm_fn(const bf16_bits *, const bf16_bits *, float *, size_t,
		      size_t, size_t);

int lab08_hgemm_run(struct wb_ctx *c, enum wb_impl impl)
{
	hgemm_fn *f = impl == WB_STUDENT ? hgemm :
		      impl == WB_NAIVE   ? naive_hgemm :
					   peer_hgemm;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, H_A), wb_dev(c, H_B), wb_dev(c, H_C), c->size->n[0],
	  c->size->n[1], c->size->n[2]);
	return 0;
}

/*
 * Tolerance: |c[i][j] - ref| <= 1e-5 x max_j sum_p |a[i][p]| |b[p][j]|,
 * per row (the terms' size varies by a few percent along a row of these
 * inputs). Relative to the terms' size, not to c: the terms have random
 * signs and cancel, so c is ~sqrt(k) times smaller than their sum (lab
 * 04's matmul says more).
 *
 * What honest code errs by: a product of two bf16 (8 significant bits) is
 * exact in float32, on the CUDA cores and on the tensor cores alike; only
 * the sum rounds. In float32 with round-to-nearest (the naive, any order)
 * that is a few 1e-8 of the terms' size. The tensor cores add a step's
 * products to the accumulator after aligning them to the largest exponent
 * and truncate what falls off (Fasi et al., "Numerical behavior of NVIDIA
 * tensor cores", 2021): each step errs by up to ~2^-23 of the running
 * sum, always toward zero, so the errors add up instead of cancelling. At
 * k = 4096, 512 steps of 8 products on a running sum of ~sqrt(p)/3 (the
 * standard deviation of these products is 1/3) add up to ~9e-4, against
 * terms' size k/4 = 1024: ~1e-6 of it, 3e-6 with the running sum at three
 * deviations. 1e-5 leaves 3x over that bound.
 *
 * What it catches: a dropped or repeated term is on average 1/k of the
 * terms' size (2.4e-4 at k = 4096, 24x outside); a whole 16-deep k-step
 * dropped, 16x more. Rounding c or a partial sum to bf16 (8 bits: 2^-9 of
 * |c|, ~4e-5 of the terms' size at k = 4096, more at smaller k) fails on
 * most elements. To be confirmed on the GPU: tests/gpu/lab08.sh.
 */
#define HG_RTOL 1e-5

/*
 * Products up to this many multiply-adds are checked against the host's
 * reference, a row a chunk on up to WB_CHECK_THREADS threads (255 x 1000
 * x 264, the largest such size, ~0.1 s on one core); larger ones against
 * the GPU's (ref.cu), which the host checks first on HG_REF_ROWS rows.
 */
#define HG_HOST_MACS (1u << 27)

/* Rows the host computes to check the GPU reference each time: the
 * first, the last and one at random (3 x 16M multiply-adds at 4096^3). */
#define HG_REF_ROWS 3

/* The GPU reference of the whole product, or NULL: the host's, a row at a
 * time. */
struct hg_ref {
	const double *want, *mag;
};

static void hgemm_row(struct wb_ctx *c, struct wb_chunks *p, size_t i,
		      double *scratch, const void *arg)
{
	const struct hg_ref *g = arg;
	const float *got = c->buf[H_C].host;
	size_t k = c->size->n[1], n = c->size->n[2];
	const double *want = scratch, *mag = scratch + n;

	if (g->want) {
		want = g->want + i * n;
		mag = g->mag + i * n;
	} else {
		cpu_hgemm_row(c->buf[H_A].host, c->buf[H_B].host, k, n, i,
			      scratch, scratch + n);
	}
	wb_chunk_f32(p, "c", got + i * n, want, n,
		     HG_RTOL * lab08_row_max(mag, n), 0);
}

/*
 * Does the GPU reference agree with the host's on HG_REF_ROWS rows? Both
 * add the same exact products in the same order (ref.cu); any order would
 * still agree to k 2^-53 of the terms' size. Returns 0, or -1 (reported:
 * a grader error, not the submission's).
 */
static int hg_ref_agrees(struct wb_ctx *c, const struct hg_ref *g,
			 double *want, double *mag)
{
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];

	for (int s = 0; s < HG_REF_ROWS; s++) {
		size_t i = s == 0 ? 0 : s == 1 ? m - 1 :
			   (size_t)wb_rng_below(&c->rng, m);

		cpu_hgemm_row(c->buf[H_A].host, c->buf[H_B].host, k, n, i,
			      want, mag);
		for (size_t j = 0; j < n; j++) {
			double tol = (double)k * DBL_EPSILON * mag[j];

			if (fabs(g->want[i * n + j] - want[j]) <= tol &&
			    fabs(g->mag[i * n + j] - mag[j]) <= tol)
				continue;
			wb_fail(c, "grader error, not your code's: the GPU "
				   "reference is broken: at c[%zu][%zu] it "
				   "gives %.17g, the host %.17g; nothing was "
				   "judged", i, j, g->want[i * n + j], want[j]);
			return -1;
		}
	}
	return 0;
}

/* Every element against the GPU reference (ref.cu), once the host has
 * checked it on a few rows. */
static void hgemm_check_gpu(struct wb_ctx *c)
{
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];
	double *scratch = wb_ref_scratch(c, 2 * m * n + 2 * n);
	struct hg_ref g;
	const char *why;

	if (!scratch)
		return;
	g.want = scratch;
	g.mag = scratch + m * n;
	why = hg_ref(c->buf[H_A].host, c->buf[H_B].host, m, k, n, scratch,
		     scratch + m * n);
	if (why)
		wb_fail(c, "grader error, not your code's: the GPU reference "
			   "for this size failed (%s)", why);
	else if (!hg_ref_agrees(c, &g, scratch + 2 * m * n,
				scratch + 2 * m * n + n))
		wb_check_chunks(c, m, 1, hgemm_row, &g, note_row);
	free(scratch);
}

void lab08_hgemm_check(struct wb_ctx *c)
{
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];
	struct hg_ref host = { NULL, NULL };

	if ((double)m * k * n <= HG_HOST_MACS)
		wb_check_chunks(c, m, 2 * n, hgemm_row, &host, note_row);
	else
		hgemm_check_gpu(c);
}

/* 2 m n k: one multiply and one add per term; on the tensor cores (the
 * table's .tensor_flops), so the FLOP/s ceiling is theirs. */
void lab08_hgemm_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	double m = s->n[0], k = s->n[1], n = s->n[2];

	t->read = 2 * (m * k + k * n);
	t->write = 4 * m * n;
	t->flops = 2 * m * n * k;
}
