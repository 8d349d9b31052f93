/* SPDX-License-Identifier: MIT */
/*
 * ex_add_rmsnorm.c - lab 07's add_rmsnorm: its input makers, its check and
 * its hooks for the table in lab.c. A file per exercise keeps lab.c the
 * table alone.
 */
#include <math.h>

#include "harness.h"
#include "fusion.h"
#include "lab_hooks.h"

/* eps as in Llama-style models (and lab 06): too small to hide a bad mean. */
#define AR_EPS 1e-6f

/* ---- add_rmsnorm ---- */

enum { A_X, A_RES, A_W, A_Y };

/*
 * Rows where eps matters, as in lab 06: on ordinary rows mean(h^2) is
 * ~0.67 and eps = 1e-6 moves y by under 1e-6 relative, so eps outside the
 * square root, or none, passes there. Some rows of h = x + residual are
 * made to need it:
 *   zero   residual = -x exactly, so h = 0 and y = 0; without eps,
 *          0 / 0 = NaN;
 *   1e-4   x and residual of order 1e-4: mean(h^2) ~ 7e-9, under 1% of
 *          eps, which sets the scale; eps outside the root makes y ~12
 *          times too large;
 *   1e-20  mean(h^2) ~ 7e-41, a float32 subnormal; y ~ 1e-17, and eps
 *          outside the root makes it 1000 times too large.
 * Sizes of AR_SPECIAL_MIN_ROWS rows or more get 1 + rows / 256 of each
 * (65 each at the benchmark), spread over the rows by wb_rng_stripes().
 */
#define AR_SPECIAL_MIN_ROWS 4

static const double ar_special_scale[] = { 0, 1e-4, 1e-20 };
#define AR_SPECIAL_KINDS \
	(sizeof(ar_special_scale) / sizeof(ar_special_scale[0]))

/* The rows being planted: x and residual, h values a row. */
struct ar_special_rows {
	float *x, *res;
	size_t h;
};

/* Scale row `row` of x and residual by the kind's scale (0: h = 0). */
static void ar_special_row(void *arg, size_t row, size_t kind)
{
	struct ar_special_rows *p = arg;
	float *x = p->x + row * p->h, *res = p->res + row * p->h;
	double s = ar_special_scale[kind];

	for (size_t i = 0; i < p->h; i++) {
		if (s == 0) {
			res[i] = -x[i];
			continue;
		}
		x[i] = (float)(s * x[i]);
		res[i] = (float)(s * res[i]);
	}
}

static void ar_plant_special_rows(struct wb_ctx *c, float *x, float *res,
				  size_t rows, size_t h)
{
	struct ar_special_rows p = { x, res, h };

	if (rows >= AR_SPECIAL_MIN_ROWS)
		wb_rng_stripes(&c->rng, rows, AR_SPECIAL_KINDS, ar_special_row,
			       &p);
}

int lab07_add_rmsnorm_setup(struct wb_ctx *c)
{
	size_t rows = c->size->n[0], h = c->size->n[1];
	float *x = wb_input_as(c, "x", rows * h * sizeof(float), WB_FRESH_F32);
	float *res = wb_inout_as(c, "residual", rows * h * sizeof(float),
				 WB_FRESH_F32);
	float *w = wb_input_as(c, "w", h * sizeof(float), WB_FRESH_F32);

	wb_fill_uniform(c, x, rows * h, -1.0, 1.0);
	wb_fill_uniform(c, res, rows * h, -1.0, 1.0);
	/* Positive weights near 1, different per column: a w indexed by
	 * row or by flat index fails. */
	wb_fill_uniform(c, w, h, 0.5, 1.5);
	ar_plant_special_rows(c, x, res, rows, h);
	wb_output(c, "y", rows * h * sizeof(float));
	return 0;
}

typedef void add_rmsnorm_fn(const float *, float *, const float *, float *,
			    size_t, size_t, float);

int lab07_add_rmsnorm_run(struct wb_ctx *c, enum wb_impl impl)
{
	add_rmsnorm_fn *f = impl == WB_STUDENT ? add_rmsnorm :
			    impl == WB_NAIVE   ? naive_add_rmsnorm : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, A_X), wb_dev(c, A_RES), wb_dev(c, A_W), wb_dev(c, A_Y),
	  c->size->n[0], c->size->n[1], AR_EPS);
	return 0;
}

/*
 * Tolerances. residual: 1e-6 + 1e-6 |ref|: it is one float add, off by at
 * most half an ulp (6e-8 relative), and it must be written back (an
 * unwritten residual still holds its initial value and fails). y: 1e-5 +
 * 1e-4 |ref|, as in lab 06: a float sum of up to 16384 squares in any
 * order errs by well under 1e-5 relative, rsqrtf by 2 ulp. Both atols are
 * scaled per row, as in lab 06 (wb_row_atol): the 1e-20 rows (h ~ 1e-20,
 * y ~ 1e-17) are compared as closely as ordinary ones, whose largest |h|
 * and |y| are of order 1 and keep most of atol.
 */
#define RES_ATOL 1e-6
#define RES_RTOL 1e-6
#define AR_ATOL 1e-5
#define AR_RTOL 1e-4

/* Row by row: h = x + residual, then y from h, each against the kernel. */
static void add_rmsnorm_row(struct wb_ctx *c, struct wb_chunks *p, size_t r,
			    double *hr, const void *arg)
{
	const float *x = c->buf[A_X].host, *w = c->buf[A_W].host;
	const float *res0 = c->buf[A_RES].init, *res = c->buf[A_RES].host;
	const float *y = c->buf[A_Y].host;
	size_t h = c->size->n[1], off = r * h;
	double ss = 0, scale, *want = hr + h;

	(void)arg;
	for (size_t i = 0; i < h; i++) {
		hr[i] = (double)x[off + i] + res0[off + i];
		ss += hr[i] * hr[i];
	}
	wb_chunk_f32(p, "residual", res + off, hr, h,
		     wb_row_atol(hr, h, RES_ATOL), RES_RTOL);
	scale = 1.0 / sqrt(ss / (double)h + AR_EPS);
	for (size_t i = 0; i < h; i++)
		want[i] = hr[i] * scale * w[i];
	wb_chunk_f32(p, "y", y + off, want, h, wb_row_atol(want, h, AR_ATOL),
		     AR_RTOL);
}

void lab07_add_rmsnorm_check(struct wb_ctx *c)
{
	wb_check_chunks(c, c->size->n[0], 2 * c->size->n[1], add_rmsnorm_row,
			NULL, lab07_note_row);
}

/* x, residual and w read; residual and y written. */
void lab07_add_rmsnorm_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 8.0 * s->n[0] * s->n[1] + 4.0 * s->n[1];
	t->write = 8.0 * s->n[0] * s->n[1];
}
