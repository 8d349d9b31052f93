/* SPDX-License-Identifier: MIT */
/*
 * ex_softmax.c - lab 07's softmax: its CPU reference and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <math.h>

#include "harness.h"
#include "fusion.h"
#include "lab_hooks.h"

/* softmax of one row: y = exp(x - max) / sum, into want. */
static void cpu_softmax_row(const float *x, double *want, size_t cols)
{
	double m = x[0], s = 0;

	for (size_t i = 1; i < cols; i++)
		m = x[i] > m ? x[i] : m;
	for (size_t i = 0; i < cols; i++) {
		want[i] = exp(x[i] - m);
		s += want[i];
	}
	for (size_t i = 0; i < cols; i++)
		want[i] /= s;
}

/* ---- softmax ---- */

enum { S_X, S_Y };

/*
 * Rows of four kinds, row r of kind r % 4, so that every size with two
 * rows or more has the first two and the benchmark all four:
 *   0  uniform in (-100, 100): exp(x) overflows float above x = 88.7, so
 *      without subtracting the row maximum first most rows give inf / inf.
 *      That is the lesson.
 *   1  a spike in the last column, in [40, 50), over a floor in
 *      [-100, -90): the maximum sits in the last partial chunk of any way
 *      of cutting the row (a float4 tail, a last block-sized chunk);
 *   2  the floor alone: every value below -90, so a maximum that starts
 *      at 0 instead of -inf or the first value gives exp(x - 0) < 1e-39,
 *      subnormal or flushed to zero: y loses its digits or is 0 / 0;
 *   3  a spike at a random column over the floor.
 * Softmax does not change when x is shifted, so a maximum taken over part
 * of a row (a chunk, a warp's share) passes uniform rows: their parts'
 * maxima lie within a few units of the row's. Over a spike row, a part
 * without the spike has its maximum under -90, 130 or more below the
 * spike, and exp(spike - that) overflows: inf / inf, NaN.
 */
#define SM_FLOOR_LO -100.0
#define SM_FLOOR_HI -90.0
#define SM_SPIKE_LO 40.0
#define SM_SPIKE_HI 50.0

static void softmax_row_kind(struct wb_ctx *c, float *x, size_t cols,
			     size_t kind)
{
	if (kind == 0) {
		wb_fill_uniform(c, x, cols, -100.0, 100.0);
		return;
	}
	wb_fill_uniform(c, x, cols, SM_FLOOR_LO, SM_FLOOR_HI);
	if (kind == 1)
		x[cols - 1] = (float)wb_rng_range(&c->rng, SM_SPIKE_LO,
						  SM_SPIKE_HI);
	else if (kind == 3)
		x[wb_rng_below(&c->rng, cols)] =
			(float)wb_rng_range(&c->rng, SM_SPIKE_LO, SM_SPIKE_HI);
}

int lab07_softmax_setup(struct wb_ctx *c)
{
	size_t rows = c->size->n[0], cols = c->size->n[1];
	float *x = wb_input_as(c, "x", rows * cols * sizeof(float),
			       WB_FRESH_F32);

	for (size_t r = 0; r < rows; r++)
		softmax_row_kind(c, x + r * cols, cols, r % 4);
	wb_output(c, "y", rows * cols * sizeof(float));
	return 0;
}

typedef void softmax_fn(const float *, float *, size_t, size_t);

int lab07_softmax_run(struct wb_ctx *c, enum wb_impl impl)
{
	softmax_fn *f = impl == WB_STUDENT ? softmax :
			impl == WB_NAIVE   ? naive_softmax : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, S_X), wb_dev(c, S_Y), c->size->n[0], c->size->n[1]);
	return 0;
}

/*
 * Tolerance: |y - ref| <= 1e-9 + 1e-5 |ref|. Where y >= 1e-4 (x - max >
 * -14 here), float x - max errs by <= 5e-7, expf by 2 ulp and the float
 * row sum of up to 16384 terms by ~1e-6: a few 1e-6 relative, also with
 * __expf or exp2f of a scaled argument (a shared error in the max cancels
 * in the division). Below, atol takes over: probabilities under 1e-9 may
 * come out as 0 (float exp underflows at x - max < -103). On a spike row
 * y is 1 at the spike (to within 1e-50) and 0 elsewhere (to within
 * 1e-50: exp(-130) and less); on a floor row x - max > -10, so every y
 * is above 2e-8 and compared as closely as elsewhere: x - max is exact
 * there (two floats within a factor of 2), and a float row sum of 4096
 * comparable terms errs by a few 1e-6.
 */
#define SOFTMAX_ATOL 1e-9
#define SOFTMAX_RTOL 1e-5

static void softmax_row(struct wb_ctx *c, struct wb_chunks *p, size_t r,
			double *want, const void *arg)
{
	const float *x = c->buf[S_X].host, *y = c->buf[S_Y].host;
	size_t cols = c->size->n[1];

	(void)arg;
	cpu_softmax_row(x + r * cols, want, cols);
	wb_chunk_f32(p, "y", y + r * cols, want, cols, SOFTMAX_ATOL,
		     SOFTMAX_RTOL);
}

void lab07_softmax_check(struct wb_ctx *c)
{
	wb_check_chunks(c, c->size->n[0], c->size->n[1], softmax_row, NULL,
			lab07_note_row);
}

void lab07_softmax_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0] * s->n[1];
	t->write = 4.0 * s->n[0] * s->n[1];
}
