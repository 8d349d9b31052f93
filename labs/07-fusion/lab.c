/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 07 (kernel fusion): CPU references, input makers and the
 * table of knobs the grader reads. References first, then the hooks, then
 * the table.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "fusion.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak gelu
#pragma weak bias_gelu
#pragma weak add_rmsnorm
#pragma weak softmax
#pragma weak chain_traffic
#pragma weak diagnose

/* eps as in Llama-style models (and lab 06): too small to hide a bad mean. */
#define AR_EPS 1e-6f

/* The elementwise checks compare this many values at a time (8 MiB of
 * doubles), so the reference never needs a 64M-double array. */
#define CHECK_CHUNK ((size_t)1 << 20)

/* ---- CPU references, in double precision ---- */

#define GELU_K0 0.79788456080286535588 /* sqrt(2 / pi) */
#define GELU_K1 0.044715

/*
 * GeLU, tanh form. 0.5 x (1 + tanh(u)) = x / (1 + exp(-2u)) exactly; the
 * second form costs one exp instead of a tanh (64M tanh calls take ~2.4 s
 * on one host core, and the benchmark size is checked three times, within
 * the 15 s the broken-submission tests allow) and does not cancel in
 * 1 + tanh(u) for u << 0. |u| <= 18 here, so exp cannot overflow.
 */
static double cpu_gelu(double x)
{
	double u = GELU_K0 * (x + GELU_K1 * x * x * x);

	return x / (1.0 + exp(-2.0 * u));
}

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

/* ---- shared by the exercises ---- */

/* After a failed row: say which, since the indices reported are in it. */
static void note_row(struct wb_ctx *c, size_t r, size_t rows)
{
	wb_fail(c, "  (row %zu of %zu; the indices above are within the row)",
		r, rows);
}

/* ---- gelu ---- */

enum { G_X, G_Y };

static int gelu_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0];
	float *x = wb_input_as(c, "x", n * sizeof(float), WB_FRESH_F32);

	/* [-6, 6] spans GeLU's three regimes: y ~ 0 for x << 0 (where
	 * 1 + tanh cancels), the curved middle, and y ~ x for x >> 0. */
	wb_fill_uniform(c, x, n, -6.0, 6.0);
	wb_output(c, "y", n * sizeof(float));
	return 0;
}

typedef void gelu_fn(const float *, float *, size_t);

static int gelu_run(struct wb_ctx *c, enum wb_impl impl)
{
	gelu_fn *f = impl == WB_STUDENT ? gelu :
		     impl == WB_NAIVE   ? naive_gelu : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, G_X), wb_dev(c, G_Y), c->size->n[0]);
	return 0;
}

/*
 * Tolerance: |y - ref| <= 1e-6 + 1e-5 |ref|, for gelu and bias_gelu. In
 * float with tanhf (2 ulp), in any order and with or without FMA
 * contraction, y errs by a few ulp (~1e-6 relative) where it is not small,
 * and by at most ~4e-7 absolute where 1 + tanh(u) cancels (x -> -6: the
 * float spacing near -1 is 6e-8, times 0.5 |x|); the naive's nine
 * roundings included. The hardware tanh.approx.f32 (up to ~130 ulp,
 * about 8e-6 absolute near tanh = -1) fails there, by up to ~20x: it is
 * not accepted, since the kernel is memory-bound and it buys only error.
 */
#define GELU_ATOL 1e-6
#define GELU_RTOL 1e-5

/* Chunk by chunk, so the double reference stays small; on several
 * threads (wb_check_chunks). */
static void gelu_chunk(struct wb_ctx *c, struct wb_chunks *p, size_t k,
		       double *want, const void *arg)
{
	const float *x = c->buf[G_X].host, *y = c->buf[G_Y].host;
	size_t n = c->size->n[0], i0 = k * CHECK_CHUNK;
	size_t m = n - i0 < CHECK_CHUNK ? n - i0 : CHECK_CHUNK;

	(void)arg;
	for (size_t i = 0; i < m; i++)
		want[i] = cpu_gelu(x[i0 + i]);
	wb_chunk_f32(p, "y", y + i0, want, m, GELU_ATOL, GELU_RTOL);
}

static void note_chunk(struct wb_ctx *c, size_t k, size_t nchunks)
{
	if (nchunks > 1)
		wb_fail(c, "  (the indices above count from element %zu)",
			k * CHECK_CHUNK);
}

static void gelu_check(struct wb_ctx *c)
{
	size_t n = c->size->n[0];

	wb_check_chunks(c, (n + CHECK_CHUNK - 1) / CHECK_CHUNK, CHECK_CHUNK,
			gelu_chunk, NULL, note_chunk);
}

static void gelu_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 4.0 * s->n[0];
}

/* ---- bias_gelu ---- */

enum { B_X, B_B, B_Y };

static int bias_gelu_setup(struct wb_ctx *c)
{
	size_t rows = c->size->n[0], cols = c->size->n[1];
	float *x = wb_input_as(c, "x", rows * cols * sizeof(float),
			       WB_FRESH_F32);
	float *b = wb_input_as(c, "b", cols * sizeof(float), WB_FRESH_F32);

	/* x as for gelu; a bias of either sign shifts every column
	 * differently, so a bias indexed by row or by flat index fails. */
	wb_fill_uniform(c, x, rows * cols, -6.0, 6.0);
	wb_fill_uniform(c, b, cols, -1.0, 1.0);
	wb_output(c, "y", rows * cols * sizeof(float));
	return 0;
}

typedef void bias_gelu_fn(const float *, const float *, float *, size_t,
			  size_t);

static int bias_gelu_run(struct wb_ctx *c, enum wb_impl impl)
{
	bias_gelu_fn *f = impl == WB_STUDENT ? bias_gelu :
			  impl == WB_NAIVE   ? naive_bias_gelu : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, B_X), wb_dev(c, B_B), wb_dev(c, B_Y), c->size->n[0],
	  c->size->n[1]);
	return 0;
}

/* Row by row; the tolerance is gelu's (the reference adds x + b exactly,
 * the float sum's rounding, 6e-8 relative, is far inside it). */
static void bias_gelu_row(struct wb_ctx *c, struct wb_chunks *p, size_t r,
			  double *want, const void *arg)
{
	const float *x = c->buf[B_X].host, *b = c->buf[B_B].host;
	const float *y = c->buf[B_Y].host;
	size_t cols = c->size->n[1];

	(void)arg;
	for (size_t i = 0; i < cols; i++)
		want[i] = cpu_gelu((double)x[r * cols + i] + b[i]);
	wb_chunk_f32(p, "y", y + r * cols, want, cols, GELU_ATOL, GELU_RTOL);
}

static void bias_gelu_check(struct wb_ctx *c)
{
	wb_check_chunks(c, c->size->n[0], c->size->n[1], bias_gelu_row, NULL,
			note_row);
}

static void bias_gelu_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0] * s->n[1] + 4.0 * s->n[1];
	t->write = 4.0 * s->n[0] * s->n[1];
}

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

static int add_rmsnorm_setup(struct wb_ctx *c)
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

static int add_rmsnorm_run(struct wb_ctx *c, enum wb_impl impl)
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

static void add_rmsnorm_check(struct wb_ctx *c)
{
	wb_check_chunks(c, c->size->n[0], 2 * c->size->n[1], add_rmsnorm_row,
			NULL, note_row);
}

/* x, residual and w read; residual and y written. */
static void add_rmsnorm_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 8.0 * s->n[0] * s->n[1] + 4.0 * s->n[1];
	t->write = 8.0 * s->n[0] * s->n[1];
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

static int softmax_setup(struct wb_ctx *c)
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

static int softmax_run(struct wb_ctx *c, enum wb_impl impl)
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

static void softmax_check(struct wb_ctx *c)
{
	wb_check_chunks(c, c->size->n[0], c->size->n[1], softmax_row, NULL,
			note_row);
}

static void softmax_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0] * s->n[1];
	t->write = 4.0 * s->n[0] * s->n[1];
}

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * Technique rule (checked on the student's object, not on timings): the
 * fused kernel is the exercise, so a library that runs the operation or a
 * part of it (cuBLASLt's bias-GeLU epilogue, CUB's or Thrust's device-wide
 * transforms and reductions) costs the performance points; block-level CUB
 * stays allowed.
 */
#define NO_LIBRARY_FUSION                                                  \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library kernel (CUB's Device*, Thrust, cuBLAS(Lt), cuDNN)",   \
	  "Writing the fused kernel is the exercise." }

/*
 * gelu sizes: 1, 3 and 31, 33 (around a warp) have no full float4 or an
 * odd tail; 4097, 65537 and 1000003 leave n % 4 = 1 or 3 after many full
 * blocks, where a float4 kernel without a scalar tail drops elements.
 * The benchmark, 64M floats (256 MiB each way), is 4x an H200's L2, so the
 * eager sequence's intermediates really go to DRAM and back.
 */
#define GELU_SIZES                                                         \
	{ "n=1", { 1 } }, { "n=3", { 3 } }, { "n=31", { 31 } },             \
	{ "n=33", { 33 } }, { "n=1000", { 1000 } }, { "n=4097", { 4097 } }, \
	{ "n=65537", { 65537 } }, { "n=1000003", { 1000003 } }

/*
 * bias_gelu sizes (rows x cols): one element; odd widths (7, 31, 33, 4095:
 * rows not 16-byte aligned, so no float4 on them); 4096 (aligned); 1000
 * (aligned, but not a multiple of a 256-thread block's float4 stride);
 * more rows than columns (1000 x 33), where a bias indexed by row shows.
 * Benchmark: 8192 x 8192, 256 MiB, a large MLP activation.
 */
#define BIAS_GELU_SIZES                                                    \
	{ "1x1", { 1, 1 } }, { "3x7", { 3, 7 } }, { "33x31", { 33, 31 } },  \
	{ "17x4095", { 17, 4095 } }, { "5x4096", { 5, 4096 } },             \
	{ "1000x33", { 1000, 33 } }, { "129x1000", { 129, 1000 } }

/*
 * add_rmsnorm sizes (rows x hidden), lab 06's widths: one element, odd
 * widths (no float4), small-model 768, 4095/4096 either side of alignment,
 * 5120, 8192 and 16384 (a whole 512-thread block's worth of float4 and
 * beyond: a row that does not fit a register budget takes another path).
 * Benchmark: 16384 tokens x 4096, Llama-7B-like, 256 MiB per matrix.
 */
#define ADD_RMSNORM_SIZES                                                  \
	{ "1x1", { 1, 1 } }, { "3x7", { 3, 7 } }, { "33x768", { 33, 768 } }, \
	{ "17x4095", { 17, 4095 } }, { "5x4096", { 5, 4096 } },             \
	{ "9x5120", { 9, 5120 } }, { "3x8192", { 3, 8192 } },               \
	{ "7x16384", { 7, 16384 } }

/*
 * softmax sizes (rows x cols): single-element rows (y = 1 exactly, the sum
 * of one term); 3, 31, 33, 100 and 1023 around a warp and a block;
 * 4096 and 4099 either side of alignment; 16384, a long row (attention
 * over 16k tokens). Benchmark: 16384 x 4096 (attention scores of one head
 * at 4k context, 16k queries), 256 MiB.
 */
#define SOFTMAX_SIZES                                                      \
	{ "1x1", { 1, 1 } }, { "3x1", { 3, 1 } }, { "5x3", { 5, 3 } },      \
	{ "7x31", { 7, 31 } }, { "9x33", { 9, 33 } },                       \
	{ "33x100", { 33, 100 } }, { "3x1023", { 3, 1023 } },               \
	{ "17x4096", { 17, 4096 } }, { "5x4099", { 5, 4099 } },             \
	{ "2x16384", { 2, 16384 } }

/* ---- passes ---- */

/*
 * The lab's rules, where the instructor's copy has them: answers.c
 * (lab.mk's ANSWERS) replaces this weak NULL with them, and every count
 * is checked against them. The student handout has no answers.c: there
 * the worked cases (passes_worked.h, the rules' own answers) are checked
 * exactly, and every other count by what the rules imply (pass_props(),
 * chain_twin()), which does not give the answer away.
 */
__attribute__((weak)) void (*passes_rule)(const struct chain *ch,
					  struct chain_bytes *eager,
					  struct chain_bytes *fused);

#include "passes_worked.h"

/* The groups, by size index (n[0]). */
enum {
	PASS_GELU, PASS_BIAS_GELU, PASS_ADD_RMSNORM, PASS_SOFTMAX,
	PASS_IN_PLACE, PASS_WORKED, PASS_RANDOM,
};

/* The chains of one size: the lab's four at each of their shapes, the
 * hand-made ones, or PASS_RANDOM_COUNT drawn from the seed. */
#define PASS_MAX 1024
#define PASS_RANDOM_COUNT 1000

/* Appends kernel (in..., out...) to ch; -1 ends each list. */
static void chain_kernel_add(struct chain *ch, const int *in, const int *out)
{
	struct chain_kernel *k = &ch->k[ch->nkernels++];

	k->nin = k->nout = 0;
	while (*in >= 0)
		k->in[k->nin++] = *in++;
	while (*out >= 0)
		k->out[k->nout++] = *out++;
}

static int chain_buf(struct chain *ch, unsigned long long floats, int result)
{
	ch->floats[ch->nbufs] = floats;
	ch->result[ch->nbufs] = result;
	return ch->nbufs++;
}

#define K(ch, ins, outs)                                                  \
	chain_kernel_add(ch, (const int[])ins, (const int[])outs)
#define L(...) { __VA_ARGS__, -1 }
#define NONE { -1 }

/* naive_gelu's nine kernels over x into y, with its temporaries t and u. */
static void chain_gelu_on(struct chain *ch, int x, unsigned long long n,
			  int y)
{
	int t = chain_buf(ch, n, 0), u = chain_buf(ch, n, 0);

	K(ch, L(x), L(t));        /* t = x * x */
	K(ch, L(t, x), L(t));     /* t = t * x */
	K(ch, L(t), L(t));        /* t = 0.044715 t */
	K(ch, L(x, t), L(t));     /* t = x + t */
	K(ch, L(t), L(t));        /* t = sqrt(2/pi) t */
	K(ch, L(t), L(t));        /* t = tanh(t) */
	K(ch, L(t), L(t));        /* t = 1 + t */
	K(ch, L(x), L(u));        /* u = 0.5 x */
	K(ch, L(u, t), L(y));     /* y = u * t */
}

/* The eager chains of naive.cu, buffer for buffer. */
static void chain_of(int op, const struct wb_size *s, struct chain *ch)
{
	unsigned long long r = s->n[0], c = s->n[1];
	int x, b, h, res, w, y, m, sums;

	memset(ch, 0, sizeof(*ch));
	switch (op) {
	case PASS_GELU:
		x = chain_buf(ch, r, 0);
		y = chain_buf(ch, r, 1);
		chain_gelu_on(ch, x, r, y);
		break;
	case PASS_BIAS_GELU:
		x = chain_buf(ch, r * c, 0);
		b = chain_buf(ch, c, 0);
		h = chain_buf(ch, r * c, 0);
		y = chain_buf(ch, r * c, 1);
		K(ch, L(x, b), L(h));                 /* h = x + b */
		chain_gelu_on(ch, h, r * c, y);
		break;
	case PASS_ADD_RMSNORM:
		x = chain_buf(ch, r * c, 0);
		res = chain_buf(ch, r * c, 1);
		w = chain_buf(ch, c, 0);
		y = chain_buf(ch, r * c, 1);
		K(ch, L(res, x), L(res));             /* residual += x */
		/* its second read of the row hits in L1/L2: one pass */
		K(ch, L(res, w), L(y));               /* y = rmsnorm(h) w */
		break;
	default:
		x = chain_buf(ch, r * c, 0);
		m = chain_buf(ch, r, 0);
		sums = chain_buf(ch, r, 0);
		y = chain_buf(ch, r * c, 1);
		K(ch, L(x), L(m));                    /* row maxima */
		K(ch, L(x, m), L(y, sums));           /* exp, row sums */
		K(ch, L(y, sums), L(y));              /* y /= sum */
	}
}

/* The lab's own count of the fewest bytes, for the chain's check. */
static void chain_task_bytes(int op, const struct wb_size *s,
			     struct wb_traffic *t)
{
	memset(t, 0, sizeof(*t));
	switch (op) {
	case PASS_GELU: gelu_traffic(s, t); break;
	case PASS_BIAS_GELU: bias_gelu_traffic(s, t); break;
	case PASS_ADD_RMSNORM: add_rmsnorm_traffic(s, t); break;
	default: softmax_traffic(s, t);
	}
}

/* Each exercise's checked shapes, its benchmarks first. */
static const struct wb_size pass_gelu_shapes[] = {
	{ "n=64M", { 64u << 20 } }, { "n=256K", { 256u << 10 } }, GELU_SIZES
};
static const struct wb_size pass_bias_shapes[] = {
	{ "8192x8192", { 8192, 8192 } }, { "64x4096", { 64, 4096 } },
	BIAS_GELU_SIZES
};
static const struct wb_size pass_add_shapes[] = {
	{ "16384x4096", { 16384, 4096 } }, ADD_RMSNORM_SIZES
};
static const struct wb_size pass_softmax_shapes[] = {
	{ "16384x4096", { 16384, 4096 } }, { "256x1024", { 256, 1024 } },
	SOFTMAX_SIZES
};

#define PASS_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const struct wb_size *shapes;
	size_t count;
	const char *ex;
} pass_ops[] = {
	[PASS_GELU] = { pass_gelu_shapes, PASS_COUNT(pass_gelu_shapes),
			"gelu" },
	[PASS_BIAS_GELU] = { pass_bias_shapes, PASS_COUNT(pass_bias_shapes),
			     "bias_gelu" },
	[PASS_ADD_RMSNORM] = { pass_add_shapes, PASS_COUNT(pass_add_shapes),
			       "add_rmsnorm" },
	[PASS_SOFTMAX] = { pass_softmax_shapes,
			   PASS_COUNT(pass_softmax_shapes), "softmax" },
};

/*
 * The cases the lab's four chains do not reach, one chain each: a result
 * read again by a later kernel (fused: written once, never read back);
 * an input updated in place first thing (read once, and written as a
 * result); a buffer written twice; an input read by three kernels; an
 * intermediate of another size than the rest; a buffer nobody uses; a
 * kernel with nothing to read (a fill).
 */
#define HAND_MADE 7

static int chain_hand_made(struct chain *ch)
{
	int a, b, t, y, z;

	memset(ch, 0, HAND_MADE * sizeof(*ch));
	a = chain_buf(&ch[0], 1000, 0);
	y = chain_buf(&ch[0], 1000, 1);
	K(&ch[0], L(a), L(y));
	K(&ch[0], L(y), L(y));

	a = chain_buf(&ch[1], 4096, 1);
	b = chain_buf(&ch[1], 64, 0);
	K(&ch[1], L(a, b), L(a));
	K(&ch[1], L(a), L(a));

	a = chain_buf(&ch[2], 33, 0);
	y = chain_buf(&ch[2], 33, 1);
	K(&ch[2], L(a), L(y));
	K(&ch[2], L(a), L(y));

	a = chain_buf(&ch[3], 1u << 20, 0);
	y = chain_buf(&ch[3], 1, 1);
	z = chain_buf(&ch[3], 1, 1);
	t = chain_buf(&ch[3], 1, 0);
	K(&ch[3], L(a), L(t));
	K(&ch[3], L(a, t), L(y));
	K(&ch[3], L(a, t), L(z));

	a = chain_buf(&ch[4], 7, 0);
	t = chain_buf(&ch[4], 7 * 5, 0);
	y = chain_buf(&ch[4], 5, 1);
	K(&ch[4], L(a), L(t));
	K(&ch[4], L(t), L(y));

	a = chain_buf(&ch[5], 100, 0);
	chain_buf(&ch[5], 1u << 30, 0);
	y = chain_buf(&ch[5], 100, 1);
	K(&ch[5], L(a), L(y));

	y = chain_buf(&ch[6], 12345, 1);
	t = chain_buf(&ch[6], 12345, 0);
	K(&ch[6], NONE, L(t));
	K(&ch[6], L(t), L(y));
	return HAND_MADE;
}

/* Any chain the contract allows: sizes from 1 float to 2^28, some
 * shared, kernels with up to four distinct inputs and outputs. */
static void chain_random(struct chain *ch, struct wb_rng *rng)
{
	int written[CHAIN_MAX_BUFS] = { 0 }, any = 0;

	memset(ch, 0, sizeof(*ch));
	ch->nbufs = 1 + (int)wb_rng_below(rng, CHAIN_MAX_BUFS);
	ch->nkernels = 1 + (int)wb_rng_below(rng, CHAIN_MAX_KERNELS);
	for (int b = 0; b < ch->nbufs; b++)
		ch->floats[b] = wb_rng_below(rng, 2) ?
			1 + wb_rng_below(rng, 1000) :
			1ull << wb_rng_below(rng, 29);
	for (int i = 0; i < ch->nkernels; i++) {
		struct chain_kernel *k = &ch->k[i];
		int nin = (int)wb_rng_below(rng, KERNEL_MAX_ARGS + 1);
		int nout = 1 + (int)wb_rng_below(rng, KERNEL_MAX_ARGS);
		int in0 = (int)wb_rng_below(rng, (uint64_t)ch->nbufs);
		int out0 = (int)wb_rng_below(rng, (uint64_t)ch->nbufs);

		/* distinct buffers: a random start, then consecutive ones */
		for (int a = 0; a < nin && a < ch->nbufs; a++)
			k->in[k->nin++] = (in0 + a) % ch->nbufs;
		for (int a = 0; a < nout && a < ch->nbufs; a++) {
			k->out[k->nout++] = (out0 + a) % ch->nbufs;
			written[(out0 + a) % ch->nbufs] = 1;
		}
	}
	for (int b = 0; b < ch->nbufs; b++) {
		ch->result[b] = written[b] && wb_rng_below(rng, 2);
		any |= ch->result[b];
	}
	/* at least one result: the last kernel's first output */
	if (!any)
		ch->result[ch->k[ch->nkernels - 1].out[0]] = 1;
}

/* Every group fits: the largest is the random one. */
/*
 * Chain i's twin, asked after the group: its buffers numbered the other
 * way round (b is nbufs - 1 - b) and each twice as large. Every count is
 * twice chain i's: without the rules (the handout) that is checked of
 * every chain.
 */
static void chain_twin(const struct chain *ch, struct chain *t)
{
	int last = ch->nbufs - 1;

	*t = *ch;
	for (int b = 0; b < ch->nbufs; b++) {
		t->floats[last - b] = 2 * ch->floats[b];
		t->result[last - b] = ch->result[b];
	}
	for (int i = 0; i < ch->nkernels; i++) {
		for (int a = 0; a < ch->k[i].nin; a++)
			t->k[i].in[a] = last - ch->k[i].in[a];
		for (int a = 0; a < ch->k[i].nout; a++)
			t->k[i].out[a] = last - ch->k[i].out[a];
	}
}

#define PASS_WORKED_COUNT (sizeof(pass_worked) / sizeof(pass_worked[0]))

_Static_assert(PASS_RANDOM_COUNT <= PASS_MAX && HAND_MADE <= PASS_MAX &&
	       PASS_WORKED_COUNT <= PASS_MAX, "PASS_MAX holds every group");

/* The wrong chains shown: each takes four lines. */
#define SHOWN_CHAINS 3

enum { PS_CHAINS, PS_BYTES };

/* The group's chains, then their twins (chain_twin()). */
static int passes_setup(struct wb_ctx *c)
{
	static struct chain scratch[2 * PASS_MAX];
	int op = (int)c->size->n[0], n = 0;
	struct chain *in;

	if (op <= PASS_SOFTMAX) {
		for (size_t s = 0; s < pass_ops[op].count; s++)
			chain_of(op, &pass_ops[op].shapes[s], &scratch[n++]);
	} else if (op == PASS_IN_PLACE) {
		n = chain_hand_made(scratch);
	} else if (op == PASS_WORKED) {
		for (n = 0; n < (int)PASS_WORKED_COUNT; n++)
			scratch[n] = pass_worked[n].ch;
	} else {
		for (n = 0; n < PASS_RANDOM_COUNT; n++)
			chain_random(&scratch[n], &c->rng);
	}
	for (int i = 0; i < n; i++)
		chain_twin(&scratch[i], &scratch[n + i]);
	in = wb_input(c, "chains", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "bytes", 2 * (size_t)n * 2 * sizeof(struct chain_bytes));
	return 0;
}

/* The group's chains; as many twins follow them. */
static size_t pass_count(const struct wb_ctx *c)
{
	return c->buf[PS_CHAINS].bytes / sizeof(struct chain) / 2;
}

/* Your eager and fused bytes for every chain and its twin, copied to the
 * output. Each call gets its own copy of the chain, and poisoned
 * results. */
static int passes_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct chain_bytes got[4 * PASS_MAX];
	const struct chain *in = c->buf[PS_CHAINS].host;
	size_t n = 2 * pass_count(c);

	if (impl != WB_STUDENT || !chain_traffic)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct chain ch = in[i];

		memset(&got[2 * i], 0xff, 2 * sizeof(got[0]));
		chain_traffic(&ch, &got[2 * i], &got[2 * i + 1]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, PS_BYTES), got,
			      n * 2 * sizeof(got[0]), cudaMemcpyHostToDevice));
	return 0;
}

/* A chain in one line: its buffers (number:floats), then each kernel as
 * inputs>outputs, in launch order. */
static void chain_describe(const struct chain *ch, char *s, size_t len)
{
	size_t at = 0;

	at += (size_t)snprintf(s + at, len - at, "buffers");
	for (int b = 0; b < ch->nbufs && at < len; b++)
		at += (size_t)snprintf(s + at, len - at, " %d:%llu%s", b,
				       ch->floats[b],
				       ch->result[b] ? "(result)" : "");
	for (int i = 0; i < ch->nkernels && at < len; i++) {
		const struct chain_kernel *k = &ch->k[i];

		at += (size_t)snprintf(s + at, len - at, "%s", i ? "; " :
				       "; kernels ");
		for (int a = 0; a < k->nin && at < len; a++)
			at += (size_t)snprintf(s + at, len - at, "%s%d",
					       a ? "," : "", k->in[a]);
		for (int a = 0; a < k->nout && at < len; a++)
			at += (size_t)snprintf(s + at, len - at, "%s%d",
					       a ? "," : ">", k->out[a]);
	}
}

/* Passes of the chain's largest buffer: 21 for gelu's eager chain. */
static double chain_passes(const struct chain *ch, unsigned long long bytes)
{
	unsigned long long most = 0;

	for (int b = 0; b < ch->nbufs; b++)
		most = ch->floats[b] > most ? ch->floats[b] : most;
	return (double)bytes / (4.0 * (double)most);
}

static void passes_print_bench(const struct wb_ctx *c,
			       const struct chain_bytes *got)
{
	const struct chain *ch = c->buf[PS_CHAINS].host;
	int op = (int)c->size->n[0];
	struct chain_bytes e = got[0], f = got[1];

	printf("  %s at %s, in passes over its largest buffer (read + "
	       "written): eager yours %.2f + %.2f", pass_ops[op].ex,
	       pass_ops[op].shapes[0].label, chain_passes(ch, got[0].read),
	       chain_passes(ch, got[0].write));
	if (passes_rule) {
		passes_rule(ch, &e, &f);
		printf(", the rule %.2f + %.2f", chain_passes(ch, e.read),
		       chain_passes(ch, e.write));
	}
	printf("; fused yours %.2f + %.2f", chain_passes(ch, got[1].read),
	       chain_passes(ch, got[1].write));
	if (passes_rule)
		printf(", the rule %.2f + %.2f", chain_passes(ch, f.read),
		       chain_passes(ch, f.write));
	if (f.read + f.write)
		printf(": at the same bandwidth the fused kernel can be %.2fx "
		       "faster%s", (double)(e.read + e.write) /
				   (double)(f.read + f.write),
		       passes_rule ? "" : " by your counts");
	printf(" (measure: make profile LAB=fusion EX=%s WITH=naive,"
	       "solution)\n", pass_ops[op].ex);
}

/* The rules must give the lab's own byte count (traffic()) for its four
 * chains: if not, the lab is wrong, not you. */
static int pass_rule_consistent(struct wb_ctx *c, int op, size_t n)
{
	const struct chain *in = c->buf[PS_CHAINS].host;

	for (size_t i = 0; op <= PASS_SOFTMAX && i < n; i++) {
		struct chain_bytes e, f;
		struct wb_traffic t;

		passes_rule(&in[i], &e, &f);
		chain_task_bytes(op, &pass_ops[op].shapes[i], &t);
		if ((double)f.read != t.read || (double)f.write != t.write) {
			wb_fail(c, "the lab's rule and %s's traffic() disagree "
				   "at %s (a bug in labs/07-fusion/lab.c)",
				pass_ops[op].ex, pass_ops[op].shapes[i].label);
			return -1;
		}
	}
	return 0;
}

/* The worked cases are the rules' answers (tools/worked-cases.sh writes
 * them from them): where the rules are linked, are they still? */
static int pass_worked_stale(void)
{
	for (size_t i = 0; i < PASS_WORKED_COUNT; i++) {
		const struct pass_worked *w = &pass_worked[i];
		struct chain_bytes e, f;

		passes_rule(&w->ch, &e, &f);
		if (e.read != w->eager.read || e.write != w->eager.write ||
		    f.read != w->fused.read || f.write != w->fused.write)
			return 1;
	}
	return 0;
}

/* What chain i's counts must be, where that is known here: the rules'
 * (the instructor's copy), or, without them, a worked case's. */
static int pass_expected(const struct wb_ctx *c, const struct chain *in,
			 size_t n, size_t i, struct chain_bytes *e,
			 struct chain_bytes *f)
{
	if (passes_rule) {
		passes_rule(&in[i], e, f);
		return 1;
	}
	if (c->size->n[0] != PASS_WORKED || i >= n)
		return 0;
	*e = pass_worked[i].eager;
	*f = pass_worked[i].fused;
	return 1;
}

/*
 * Without the rules: what any right counts for chain i of the group
 * satisfy, as the README's rules imply. Returns 0, or 1 with why they
 * cannot be right.
 */
static int pass_props(const struct wb_ctx *c, size_t i,
		      const struct chain_bytes *e, const struct chain_bytes *f,
		      char *why, size_t len)
{
	int op = (int)c->size->n[0], lab = op <= PASS_SOFTMAX;
	struct wb_traffic t = { 0 };

	if (lab)
		chain_task_bytes(op, &pass_ops[op].shapes[i], &t);
	if ((e->read | e->write | f->read | f->write) % 4)
		snprintf(why, len, "every buffer holds floats: bytes come in "
			 "fours");
	else if (f->read > e->read || f->write > e->write)
		snprintf(why, len, "fused, a chain moves no more than eagerly: "
			 "each buffer it reads once, each result it writes "
			 "once, eager moves too");
	else if (!f->write)
		snprintf(why, len, "fused, the chain still writes its results");
	else if (lab && ((double)f->read != t.read ||
			 (double)f->write != t.write))
		snprintf(why, len, "fused, naive.cu's %s chain moves the bytes "
			 "%s is timed against (traffic() in lab.c): %.0f read, "
			 "%.0f written", pass_ops[op].ex, pass_ops[op].ex,
			 t.read, t.write);
	else
		return 0;
	return 1;
}

/* Is the twin's count, t, twice its chain's, o (chain_twin())? */
static int pass_twin_wrong(const struct chain_bytes *t,
			   const struct chain_bytes *o, char *why, size_t len)
{
	if (t[0].read == 2 * o[0].read && t[0].write == 2 * o[0].write &&
	    t[1].read == 2 * o[1].read && t[1].write == 2 * o[1].write)
		return 0;
	snprintf(why, len, "for the same chain with its buffers numbered the "
		 "other way round and half as large you said %llu, %llu "
		 "eager and %llu, %llu fused: the numbering changes nothing, "
		 "twice the floats are twice the bytes", o[0].read,
		 o[0].write, o[1].read, o[1].write);
	return 1;
}

/* Chain i, and which it is, in two lines. */
static void pass_describe(struct wb_ctx *c, const struct chain *in,
			  size_t n, size_t i)
{
	int op = (int)c->size->n[0];
	char what[512];

	chain_describe(&in[i], what, sizeof(what));
	if (op <= PASS_SOFTMAX && i < n)
		wb_fail(c, "chain %zu: naive.cu's %s at %s", i,
			pass_ops[op].ex, pass_ops[op].shapes[i].label);
	else
		wb_fail(c, "chain %zu%s:", i, i >= n ? " (a twin)" : "");
	wb_fail(c, "  %s", what);
}

/* The expected counts beside yours, for those that differ. */
static void pass_show_expected(struct wb_ctx *c, const struct chain_bytes *g,
			       const struct chain_bytes *e,
			       const struct chain_bytes *f)
{
	if (g[0].read != e->read || g[0].write != e->write)
		wb_fail(c, "  eager: you said %llu read, %llu written; "
			   "expected %llu, %llu (every kernel moves every "
			   "buffer it lists, whole)", g[0].read, g[0].write,
			e->read, e->write);
	if (g[1].read != f->read || g[1].write != f->write)
		wb_fail(c, "  fused: you said %llu read, %llu written; "
			   "expected %llu, %llu (read: buffers whose first use "
			   "is a read, once; written: the results, once)",
			g[1].read, g[1].write, f->read, f->write);
}

/*
 * Is chain i wrong (i < n: the group's chains; n and on: their twins)?
 * With expected counts, they must match; without (the handout), a chain
 * must have the rules' properties and a twin twice its chain's counts.
 * Shows it when `show`.
 */
static int pass_wrong(struct wb_ctx *c, const struct chain *in,
		      const struct chain_bytes *got, size_t n, size_t i,
		      int show)
{
	const struct chain_bytes *g = &got[2 * i];
	struct chain_bytes e, f;
	int exact = pass_expected(c, in, n, i, &e, &f);
	char why[320];

	if (exact) {
		if (g[0].read == e.read && g[0].write == e.write &&
		    g[1].read == f.read && g[1].write == f.write)
			return 0;
	} else if (i >= n) {
		if (!pass_twin_wrong(g, &got[2 * (i - n)], why, sizeof(why)))
			return 0;
	} else if (!pass_props(c, i, &g[0], &g[1], why, sizeof(why))) {
		return 0;
	}
	if (!show)
		return 1;
	pass_describe(c, in, n, i);
	if (exact) {
		pass_show_expected(c, g, &e, &f);
		return 1;
	}
	wb_fail(c, "  you said %llu read, %llu written eager; %llu, %llu "
		   "fused", g[0].read, g[0].write, g[1].read, g[1].write);
	wb_fail(c, "  but %s", why);
	return 1;
}

static void passes_check(struct wb_ctx *c)
{
	const struct chain *in = c->buf[PS_CHAINS].host;
	const struct chain_bytes *got = c->buf[PS_BYTES].host;
	int op = (int)c->size->n[0];
	size_t n = pass_count(c), bad = 0;

	if (passes_rule && pass_rule_consistent(c, op, n))
		return;
	if (passes_rule && op == PASS_WORKED && pass_worked_stale()) {
		wb_fail(c, "labs/07-fusion/passes_worked.h is not the rules' "
			   "answers (a bug of the lab: write it again with "
			   "tools/worked-cases.sh)");
		return;
	}
	if (op <= PASS_SOFTMAX)
		passes_print_bench(c, got);
	for (size_t i = 0; i < 2 * n; i++)
		bad += pass_wrong(c, in, got, n, i, bad < SHOWN_CHAINS);
	if (bad)
		wb_fail(c, "%zu of %zu chains wrong, twins included (4 bytes "
			   "per float)", bad, 2 * n);
}

/*
 * passes sizes: one group of chains each, named by its label: the eager
 * chains of naive.cu at each exercise's benchmark and checked shapes,
 * then the cases those do not reach (hand-made), the worked cases
 * (passes_worked.h: with the rules' answers, the exact check where no
 * rule is linked), then 1000 chains drawn from the run's seed. Each
 * group's chains are asked again as their twins.
 */
/* ---- diagnose ---- */

#include "diagnose_reports.h"

#define DIAG_COUNT (sizeof(diag_recordings) / sizeof(diag_recordings[0]))

/* The columns read, in the order of diagnose_reports.h's cut. */
enum {
	DC_NAME, DC_TIME, DC_DRAM_PCT, DC_SM_PCT, DC_DRAM_RD, DC_DRAM_WR,
	DC_LD_SEC, DC_LD_REQ, DC_LD_BYTES, DC_ST_SEC, DC_ST_REQ, DC_ST_BYTES,
	DC_SH_LD_WAVES, DC_SH_ST_WAVES, DC_SH_LD_CONF, DC_SH_ST_CONF,
	DC_BR_TARGETS, DC_BR_DIV, DC_BR_UNI, DC_LANES, DC_WAVES, DC_COUNT
};

static const char *const diag_columns[DC_COUNT] = {
	"Kernel Name", "gpu__time_duration.sum",
	"dram__throughput.avg.pct_of_peak_sustained_elapsed",
	"sm__throughput.avg.pct_of_peak_sustained_elapsed",
	"dram__bytes_read.sum", "dram__bytes_write.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
	"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
	"sm__sass_data_bytes_mem_global_op_ld.sum",
	"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
	"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
	"sm__sass_data_bytes_mem_global_op_st.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
	"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
	"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
	"smsp__sass_branch_targets.sum",
	"smsp__sass_branch_targets_threads_divergent.sum",
	"smsp__sass_branch_targets_threads_uniform.sum",
	"smsp__thread_inst_executed_per_inst_executed.ratio",
	"launch__waves_per_multiprocessor",
};

/*
 * One line of ncu's CSV into fields (every field quoted, "" a quote):
 * up to DC_COUNT of them, each copied into f[i] (64 bytes). Returns the
 * number of fields.
 */
static int diag_fields(const char *p, const char **end, char f[][96])
{
	int n = 0;

	while (*p == '"' && n < DC_COUNT) {
		size_t w = 0;

		for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
			if (*p == '"')
				p++;
			if (w < 95)
				f[n][w++] = *p;
		}
		f[n++][w] = '\0';
		if (*p == '"')
			p++;
		if (*p == ',')
			p++;
	}
	while (*p && *p != '\n')
		p++;
	*end = *p ? p + 1 : p;
	return n;
}

/* "1,048,576" -> 1048576; "n/a" or nothing -> 0. */
static double diag_number(const char *s)
{
	char buf[96], *end;
	size_t n = 0;
	double x;

	for (; *s && n < sizeof(buf) - 1; s++)
		if (*s != ',')
			buf[n++] = *s;
	buf[n] = '\0';
	x = strtod(buf, &end);
	return n && !*end ? x : 0;
}

/*
 * A recording parsed into a report: the header row names the columns
 * (any order), the units row follows it (ncu's base units: ns, byte),
 * then a row per kernel, combined as fusion.h says. Returns 0, or -1
 * when the recording lacks a column or a kernel (a bug of the lab).
 */
static int diag_parse(const struct diag_recording *rec,
		      struct diag_report *r)
{
	char f[DC_COUNT][96];
	int pos[DC_COUNT], row = 0;
	const char *p = rec->csv;
	double longest = -1;

	memset(r, 0, sizeof(*r));
	while (*p) {
		int n = diag_fields(p, &p, f);
		double v[DC_COUNT];

		if (row++ == 0) {
			for (int c = 0; c < DC_COUNT; c++) {
				pos[c] = -1;
				for (int i = 0; i < n; i++)
					if (!strcmp(f[i], diag_columns[c]))
						pos[c] = i;
				if (pos[c] < 0)
					return -1;
			}
			continue;
		}
		if (row == 2 || n < DC_COUNT)
			continue; /* the units */
		for (int c = 1; c < DC_COUNT; c++)
			v[c] = diag_number(f[pos[c]]);
		r->kernels++;
		r->time_ns += v[DC_TIME];
		r->dram_pct += v[DC_DRAM_PCT] * v[DC_TIME];
		r->sm_pct += v[DC_SM_PCT] * v[DC_TIME];
		r->dram_bytes += v[DC_DRAM_RD] + v[DC_DRAM_WR];
		r->ld_sectors += v[DC_LD_SEC];
		r->ld_requests += v[DC_LD_REQ];
		r->ld_bytes += v[DC_LD_BYTES];
		r->st_sectors += v[DC_ST_SEC];
		r->st_requests += v[DC_ST_REQ];
		r->st_bytes += v[DC_ST_BYTES];
		r->sh_wavefronts += v[DC_SH_LD_WAVES] + v[DC_SH_ST_WAVES];
		r->sh_conflicts += v[DC_SH_LD_CONF] + v[DC_SH_ST_CONF];
		r->br_targets += v[DC_BR_TARGETS];
		r->br_divergent += v[DC_BR_DIV];
		r->br_uniform += v[DC_BR_UNI];
		r->lanes += v[DC_LANES] * v[DC_TIME];
		if (v[DC_TIME] > longest) {
			longest = v[DC_TIME];
			r->waves = v[DC_WAVES];
		}
	}
	if (!r->kernels || r->time_ns <= 0)
		return -1;
	r->dram_pct /= r->time_ns;
	r->sm_pct /= r->time_ns;
	r->lanes /= r->time_ns;
	r->min_bytes = rec->min_bytes;
	r->flops = rec->flops;
	return 0;
}

static double diag_abs(double x)
{
	return x < 0 ? -x : x;
}

/* x / y, or 0 where y is 0 (fusion.h). */
static double diag_ratio(double x, double y)
{
	return y <= 0 ? 0 : x / y;
}

/* Sectors per request over the fewest a request could touch: its bytes
 * in 32-byte sectors, at least one (lab 03's sectors; make profile's
 * coalescing figure). */
static double diag_excess(double sectors, double requests, double bytes)
{
	double least = diag_ratio(bytes, 32 * requests);

	if (least < 1)
		least = 1;
	return diag_ratio(sectors, requests) / least;
}

#define DIAG_NMETRICS (DIAG_DRAM_PCT + 1)

/* Every metric's value in a report, as fusion.h and section 12 define
 * them. */
static void diag_figures(const struct diag_report *r,
			 double f[DIAG_NMETRICS])
{
	double ld = diag_excess(r->ld_sectors, r->ld_requests, r->ld_bytes);
	double st = diag_excess(r->st_sectors, r->st_requests, r->st_bytes);

	f[DIAG_WAVES] = r->waves;
	f[DIAG_SECTOR_EXCESS] = st > ld ? st : ld;
	f[DIAG_TRAFFIC] = diag_ratio(r->dram_bytes, r->min_bytes);
	f[DIAG_BYTES_PER_FLOP] = diag_ratio(r->ld_bytes, r->flops);
	f[DIAG_CONFLICTS] = diag_ratio(r->sh_conflicts, r->sh_wavefronts);
	f[DIAG_BRANCH_EFF] = r->br_targets <= 0 ? 100 :
			     r->br_uniform / r->br_targets * 100;
	f[DIAG_SM_PCT] = r->sm_pct;
	f[DIAG_DRAM_PCT] = r->dram_pct;
}

static double diag_value(const struct diag_report *r, enum diag_metric m)
{
	double f[DIAG_NMETRICS];

	diag_figures(r, f);
	return (unsigned)m < DIAG_NMETRICS ? f[m] : 0;
}

/*
 * The lab's model (README, section 12), which make profile's hints apply
 * too (grader/profile/profile_derive.c, the same thresholds). The bound is ncu's
 * speed-of-light rule: 60% of the memory's or the SMs' peak, the larger
 * deciding; under both, latency. The fix is the first of these that the
 * report shows, in the order that one blocks the next: an idle GPU
 * (under half a wave), wasted sectors (more than 2x: exactly 2x is what
 * half a warp's lanes storing costs, lab 01's naive branch), a chain's
 * intermediates (several kernels moving 1.5x the task's bytes), re-reads
 * (0.5 bytes of loads a FLOP), bank conflicts (a fifth of the
 * wavefronts), divergence (branch efficiency under 50%); else by the
 * bound: fewer instructions (compute), more in flight (latency), nothing
 * (memory).
 */
#define DIAG_SOL_PCT 60.0

/* When a rule's fix is due: its figure under, from or over the limit. */
enum diag_when { DIAG_UNDER, DIAG_FROM, DIAG_OVER };

struct diag_rule_row {
	enum diag_fix gives;
	enum diag_metric metric;
	double limit;
	enum diag_when when;
	int min_kernels;
};

static const struct diag_rule_row diag_rules[] = {
	{ DIAG_FIX_GRID, DIAG_WAVES, 0.5, DIAG_UNDER, 1 },
	{ DIAG_FIX_COALESCE, DIAG_SECTOR_EXCESS, 2.0, DIAG_OVER, 1 },
	{ DIAG_FIX_FUSE, DIAG_TRAFFIC, 1.5, DIAG_FROM, 2 },
	{ DIAG_FIX_TILE, DIAG_BYTES_PER_FLOP, 0.5, DIAG_FROM, 1 },
	{ DIAG_FIX_PAD, DIAG_CONFLICTS, 0.2, DIAG_FROM, 1 },
	{ DIAG_FIX_BRANCH, DIAG_BRANCH_EFF, 50.0, DIAG_UNDER, 1 },
};

#define DIAG_NRULES (sizeof(diag_rules) / sizeof(diag_rules[0]))

static int diag_due(const struct diag_report *r, const double *f,
		    const struct diag_rule_row *row)
{
	double v = f[row->metric];

	if (r->kernels < row->min_kernels)
		return 0;
	if (row->when == DIAG_UNDER)
		return v < row->limit;
	if (row->when == DIAG_OVER)
		return v > row->limit;
	return v >= row->limit;
}

static void diag_rule(const struct diag_report *r, struct diag_answer *a)
{
	/* Where no rule is due: the fix and figure each bound gives. */
	static const enum diag_fix last_fix[] = {
		[DIAG_MEMORY] = DIAG_FIX_NONE,
		[DIAG_COMPUTE] = DIAG_FIX_FEWER_INSTR,
		[DIAG_LATENCY] = DIAG_FIX_IN_FLIGHT,
	};
	static const enum diag_metric last_metric[] = {
		[DIAG_MEMORY] = DIAG_DRAM_PCT,
		[DIAG_COMPUTE] = DIAG_SM_PCT,
		[DIAG_LATENCY] = DIAG_DRAM_PCT,
	};
	double f[DIAG_NMETRICS];
	size_t i;

	diag_figures(r, f);
	if (r->dram_pct < DIAG_SOL_PCT && r->sm_pct < DIAG_SOL_PCT)
		a->bound = DIAG_LATENCY;
	else if (r->sm_pct > r->dram_pct)
		a->bound = DIAG_COMPUTE;
	else
		a->bound = DIAG_MEMORY;
	for (i = 0; i < DIAG_NRULES && !diag_due(r, f, &diag_rules[i]); i++)
		;
	a->fix = i < DIAG_NRULES ? diag_rules[i].gives : last_fix[a->bound];
	a->metric = i < DIAG_NRULES ? diag_rules[i].metric :
				      last_metric[a->bound];
	a->value = f[a->metric];
}

/* Is any threshold's figure within 1e-6 of its limit (a drawn report
 * there could take either answer, by rounding alone)? */
static int diag_near_limit(const struct diag_report *r)
{
	double lim[] = { DIAG_SOL_PCT, DIAG_SOL_PCT };
	double fig[] = { r->dram_pct, r->sm_pct };
	double f[DIAG_NMETRICS];

	diag_figures(r, f);
	for (size_t i = 0; i < DIAG_NRULES; i++) {
		double v = f[diag_rules[i].metric];
		double limit = diag_rules[i].limit;

		if (diag_abs(v - limit) <= 1e-6 * limit)
			return 1;
	}
	for (int i = 0; i < 2; i++)
		if (diag_abs(fig[i] - lim[i]) <= 1e-6 * lim[i])
			return 1;
	return diag_abs(r->dram_pct - r->sm_pct) <= 1e-9;
}

/* The groups, by size index: the recordings, in an order drawn from the
 * seed; then reports drawn around them. */
enum { DIAG_RECORDED, DIAG_DRAWN };

#define DIAG_DRAWN_COUNT 300

struct diag_case {
	struct diag_report r;
	int rec; /* the recording it is, or was drawn from */
	int drawn;
};

/*
 * A report drawn around a recording: the throughputs redrawn from 0 to
 * 100%; each other figure a rule reads kept or, one time in two, scaled
 * by 2^k (1 + u) (k from -3 to 2: 1/8 to 8; the waves' k from -4 to 9);
 * the conflicts and divergent branches redrawn as shares; one time in
 * four, another number of kernels. So every rule, and every bound, is
 * crossed both ways across the group (the report counts the fixes). Not
 * a recording: what a profile of some other kernel could say.
 */
static double diag_scale(struct wb_rng *rng, int lo, int n)
{
	double k = (double)(1u << wb_rng_below(rng, (uint64_t)n)) /
		   (double)(1u << -lo);

	if (wb_rng_below(rng, 2))
		return 1;
	return k * (1 + wb_rng_unit(rng)); /* no libm: hostcheck.c's link
					      * leaves it weak */
}

/* Sectors scaled, but never below the fewest the requests need. */
static double diag_sectors(struct wb_rng *rng, double sectors,
			   double requests, double bytes)
{
	double least = diag_ratio(bytes, 32);

	sectors *= diag_scale(rng, -3, 6);
	if (least < requests)
		least = requests;
	return sectors < least ? least : sectors;
}

static void diag_draw(struct wb_rng *rng, struct diag_report *r)
{
	r->dram_pct = 100 * wb_rng_unit(rng);
	r->sm_pct = 100 * wb_rng_unit(rng);
	r->waves = (r->waves + 0.01) * diag_scale(rng, -4, 14);
	r->ld_sectors = diag_sectors(rng, r->ld_sectors, r->ld_requests,
				     r->ld_bytes);
	r->st_sectors = diag_sectors(rng, r->st_sectors, r->st_requests,
				     r->st_bytes);
	r->dram_bytes *= diag_scale(rng, -3, 6);
	r->ld_bytes *= diag_scale(rng, -3, 6);
	if (wb_rng_below(rng, 2))
		r->sh_conflicts = r->sh_wavefronts * wb_rng_unit(rng) * 0.5;
	if (wb_rng_below(rng, 2)) {
		r->br_divergent = r->br_targets * wb_rng_unit(rng);
		r->br_uniform = r->br_targets - r->br_divergent;
	}
	if (wb_rng_below(rng, 4) == 0)
		r->kernels = 1 + (int)wb_rng_below(rng, 9);
}

static int diagnose_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0] == DIAG_RECORDED ? DIAG_COUNT :
						    DIAG_DRAWN_COUNT;
	struct diag_case *in = wb_input(c, "reports", n * sizeof(*in));
	int order[DIAG_COUNT];

	for (size_t i = 0; i < DIAG_COUNT; i++)
		order[i] = (int)i;
	for (size_t i = DIAG_COUNT - 1; i > 0; i--) {
		size_t j = wb_rng_below(&c->rng, i + 1);
		int t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < n; i++) {
		struct diag_case *d = &in[i];

		memset(d, 0, sizeof(*d));
		d->rec = order[i % DIAG_COUNT];
		if (diag_parse(&diag_recordings[d->rec], &d->r))
			return -1;
		if (c->size->n[0] == DIAG_RECORDED)
			continue;
		d->drawn = 1;
		do {
			diag_parse(&diag_recordings[d->rec], &d->r);
			diag_draw(&c->rng, &d->r);
		} while (diag_near_limit(&d->r));
	}
	wb_output(c, "answers", n * sizeof(struct diag_answer));
	return 0;
}

enum { DG_REPORTS, DG_ANSWERS };

static size_t diag_count(const struct wb_ctx *c)
{
	return c->buf[DG_REPORTS].bytes / sizeof(struct diag_case);
}

/* Your answer for every report, copied to the output. Each call gets its
 * own copy of the report, and a poisoned answer. */
static int diagnose_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct diag_answer got[DIAG_DRAWN_COUNT + DIAG_COUNT];
	const struct diag_case *in = c->buf[DG_REPORTS].host;
	size_t n = diag_count(c);

	if (impl != WB_STUDENT || !diagnose)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct diag_report r = in[i].r;

		memset(&got[i], 0xff, sizeof(got[i]));
		diagnose(&r, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, DG_ANSWERS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

static const char *const diag_bound_names[] = { "memory", "compute",
						"latency" };
static const char *const diag_metric_names[] = {
	"DIAG_WAVES", "DIAG_SECTOR_EXCESS", "DIAG_TRAFFIC",
	"DIAG_BYTES_PER_FLOP", "DIAG_CONFLICTS", "DIAG_BRANCH_EFF",
	"DIAG_SM_PCT", "DIAG_DRAM_PCT",
};
static const char *const diag_fix_names[] = {
	"DIAG_FIX_GRID", "DIAG_FIX_COALESCE", "DIAG_FIX_FUSE",
	"DIAG_FIX_TILE", "DIAG_FIX_PAD", "DIAG_FIX_BRANCH",
	"DIAG_FIX_FEWER_INSTR", "DIAG_FIX_IN_FLIGHT", "DIAG_FIX_NONE",
};

#define DIAG_NAME(tab, v)                                                  \
	((unsigned)(v) < sizeof(tab) / sizeof(tab[0]) ? tab[v] : "(none)")

/* Why answer a is wrong for report r, or NULL. The value is checked to
 * 1e-9 relative: a ratio of the same counters in another order. */
static const char *diag_wrong(const struct diag_report *r,
			      const struct diag_answer *a,
			      const struct diag_answer *w)
{
	double v;

	if (a->bound != w->bound)
		return "the bound";
	if (a->fix != w->fix)
		return "the fix";
	if (a->metric != w->metric)
		return "the metric that shows the fix is due";
	v = diag_value(r, a->metric);
	if (!(diag_abs(a->value - v) <= 1e-9 * diag_abs(v)))
		return "the value of that metric";
	return NULL;
}

#define DIAG_SHOWN 3

static void diagnose_check(struct wb_ctx *c)
{
	const struct diag_case *in = c->buf[DG_REPORTS].host;
	const struct diag_answer *got = c->buf[DG_ANSWERS].host;
	size_t n = diag_count(c), bad = 0;

	for (size_t i = 0; i < n; i++) {
		const struct diag_report *r = &in[i].r;
		const struct diag_answer *a = &got[i];
		struct diag_answer w;
		const char *why;

		diag_rule(r, &w);
		why = diag_wrong(r, a, &w);
		if (!why || bad++ >= DIAG_SHOWN)
			continue;
		wb_fail(c, "report %zu, %s%s: %s is wrong", i,
			diag_recordings[in[i].rec].name,
			in[i].drawn ? " with its figures redrawn" : "", why);
		wb_fail(c, "  DRAM %.2f%%, SM %.2f%%, %d kernel(s), waves "
			   "%.4g, sector excess %.4g, traffic %.4g, load "
			   "bytes/FLOP %.4g, conflicts %.4g, branch eff %.4g%%",
			r->dram_pct, r->sm_pct, r->kernels, r->waves,
			diag_value(r, DIAG_SECTOR_EXCESS),
			diag_value(r, DIAG_TRAFFIC),
			diag_value(r, DIAG_BYTES_PER_FLOP),
			diag_value(r, DIAG_CONFLICTS),
			diag_value(r, DIAG_BRANCH_EFF));
		wb_fail(c, "  you: %s-bound, %s = %.6g, %s",
			DIAG_NAME(diag_bound_names, a->bound),
			DIAG_NAME(diag_metric_names, a->metric), a->value,
			DIAG_NAME(diag_fix_names, a->fix));
		wb_fail(c, "  the model: %s-bound, %s = %.6g, %s",
			diag_bound_names[w.bound],
			diag_metric_names[w.metric], w.value,
			diag_fix_names[w.fix]);
	}
	if (bad > DIAG_SHOWN)
		wb_fail(c, "... and %zu more of %zu reports", bad - DIAG_SHOWN,
			n);
	if (!bad && c->size->n[0] == DIAG_DRAWN) {
		int count[DIAG_FIX_NONE + 1] = { 0 };

		for (size_t i = 0; i < n; i++)
			count[got[i].fix]++;
		printf("  the drawn reports' fixes:");
		for (int f = 0; f <= DIAG_FIX_NONE; f++)
			printf(" %s %d", diag_fix_names[f] + 9, count[f]);
		printf("\n");
	}
	if (!bad && c->size->n[0] == DIAG_RECORDED) {
		printf("  the recordings (H100), as you read them:\n");
		for (size_t i = 0; i < n; i++)
			printf("    %-22s %s-bound, %s = %.4g: %s\n",
			       diag_recordings[in[i].rec].name,
			       diag_bound_names[got[i].bound],
			       diag_metric_names[got[i].metric],
			       got[i].value, diag_fix_names[got[i].fix]);
	}
}

#define PASSES_SIZES                                                       \
	{ "gelu", { PASS_GELU } }, { "bias_gelu", { PASS_BIAS_GELU } },     \
	{ "add_rmsnorm", { PASS_ADD_RMSNORM } },                            \
	{ "softmax", { PASS_SOFTMAX } }, { "hand-made", { PASS_IN_PLACE } }, \
	{ "worked", { PASS_WORKED } }, { "random", { PASS_RANDOM } }

static const struct wb_exercise exercises[] = {
	{
		.name = "gelu",
		.title = "tanh GeLU, fused from nine elementwise kernels",
		.kind = WB_SPEED,
		.sizes = { GELU_SIZES },
		/* 64M floats, 512 MiB moved: bytes dominate. 256K floats,
		 * 2 MiB: launches dominate (README, section 4). The speedup
		 * is the geometric mean of the two shapes'. */
		.bench = { { "n=64M", { 64u << 20 } },
			   { "n=256K", { 256u << 10 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (n floats read, n
		 * written). The naive moves 21 passes of n floats (12 reads,
		 * 9 writes), a fused float4 kernel 2. Measured on an H100
		 * 80GB HBM3 (tests/gpu/calibrate.sh, 2026-11-25): the naive
		 * 2232.6 us, 8%; the fused kernel 94%: the top tier (80%)
		 * leaves a 15% margin. Fusing into three kernels (seven
		 * passes) would reach about 2/7 of the solution, near tier 1
		 * (33%); tier 2 (57%) lies between that and full fusion.
		 * With n=256K in the benchmark (issue 17), where the naive
		 * pays nine launches and the fused kernel one, the two
		 * shapes' mean on an H200 (2026-11-27, two runs): the naive
		 * 10%, the fused kernel 96% and 101%, the top tier 17%
		 * under; the tiers stand.
		 */
		.tiers = { { 0.33, 20 }, { 0.57, 40 }, { 0.80, 60 } },
		/* make profile: the lesson is the bytes moved against the
		 * task's minimum: every naive kernel runs near the DRAM's
		 * peak, together they move ten times too much. */
		.profile = WB_PROF_THROUGHPUT,
		/* The naive takes ~2 ms a call; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = gelu_setup,
		.run = gelu_run,
		.check = gelu_check,
		.traffic = gelu_traffic,
		.rules = { NO_LIBRARY_FUSION },
	},
	{
		.name = "bias_gelu",
		.title = "bias add and tanh GeLU, fused from ten kernels",
		.kind = WB_SPEED,
		.sizes = { BIAS_GELU_SIZES },
		/* As gelu's: 512 MiB, then 2 MiB where launches dominate. */
		.bench = { { "8192x8192", { 8192, 8192 } },
			   { "64x4096", { 64, 4096 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers, same runs: the naive moves 23 passes (the bias add's
		 * read and write, then gelu's 21), the fused kernel 2. The
		 * naive 2467.9 us, 7%; the fused kernel 93%: the top tier
		 * (80%) leaves a 14% margin. With 64x4096 in the benchmark
		 * (ten launches against one; at 64x4096 alone the naive
		 * 27.3 us, the fused kernel 4.3 us against 4.1 us), the mean
		 * on the H200: the naive 9.5%, the fused kernel 95% and
		 * 99%; the tiers stand.
		 */
		.tiers = { { 0.30, 20 }, { 0.56, 40 }, { 0.80, 60 } },
		/* make profile: as for gelu. */
		.profile = WB_PROF_THROUGHPUT,
		.timeout_s = 60,
		.setup = bias_gelu_setup,
		.run = bias_gelu_run,
		.check = bias_gelu_check,
		.traffic = bias_gelu_traffic,
		.rules = { NO_LIBRARY_FUSION },
	},
	{
		.name = "add_rmsnorm",
		.title = "residual add and RMSNorm, residual updated in place",
		.kind = WB_SPEED,
		.sizes = { ADD_RMSNORM_SIZES },
		/* One shape only: its naive is two kernels, so a small shape
		 * would teach what gelu's does with a speedup of 2 and squeeze
		 * the tiers below, already between the naive's 73% and the
		 * solution's 96% (README, section 4). */
		.bench = { { "16384x4096", { 16384, 4096 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers, same runs: the naive's RMSNorm is already good, so
		 * only the saved pass counts: 5 passes (add: read x and
		 * residual, write residual; norm: read residual, write y)
		 * against 4, so the naive can reach at most 80% of the speed
		 * of light on any GPU. On an H200 (2026-11-28, three runs,
		 * the speed of light one probe that reads and writes): the
		 * naive 70%, the fused kernel 99.3-99.7% (1.43x). Two tiers
		 * between, 80% and 90%, 12% apart where a rerun moves a
		 * share by 2% (knobs.h, WB_RUN_TO_RUN): the three it had,
		 * 80%, 83% and 86%, sat within a rerun's reach of each
		 * other. The top one leaves the solution a 10% margin;
		 * nothing is earned under 1.05x the naive (73%).
		 */
		.tiers = { { 0.80, 30 }, { 0.90, 60 } },
		/* make profile: bytes moved (five passes against four) and
		 * the occupancy of a row held in registers. */
		.profile = WB_PROF_THROUGHPUT | WB_PROF_OCCUPANCY,
		.timeout_s = 60,
		.setup = add_rmsnorm_setup,
		.run = add_rmsnorm_run,
		.check = add_rmsnorm_check,
		.traffic = add_rmsnorm_traffic,
		.rules = { NO_LIBRARY_FUSION },
	},
	{
		.name = "softmax",
		.title = "numerically stable row softmax in one pass",
		.kind = WB_SPEED,
		.sizes = { SOFTMAX_SIZES },
		/* As gelu's: 256 MiB, then 1 MiB in 256 rows (a block or a
		 * warp per row still fills the GPU) where launches dominate. */
		.bench = { { "16384x4096", { 16384, 4096 } },
			   { "256x1024", { 256, 1024 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers, same runs: the naive moves 5 passes (max: read x;
		 * exp and sum: read x, write y; divide: read and write y)
		 * with scalar loads; one kernel holding the row in registers
		 * moves 2. The naive 645.9 us, 27%; the fused kernel 98%:
		 * the top tier (81%) leaves a 21% margin and asks for reading
		 * x once. An online softmax that reads x twice moves 3
		 * passes: at the same bandwidth two thirds of that, just above
		 * tier 2 (61%). With 256x1024 in the benchmark (three
		 * launches against one; there the naive 13.8 us, the fused
		 * kernel 4.9 us against 4.2 us), the mean on the H200: the
		 * naive 25%, the fused kernel 92% both runs, the top tier 12%
		 * under; the tiers stand.
		 */
		.tiers = { { 0.39, 20 }, { 0.61, 40 }, { 0.81, 60 } },
		/* make profile: bytes moved, and registers and spills of a
		 * row held in registers. */
		.profile = WB_PROF_THROUGHPUT | WB_PROF_OCCUPANCY,
		.timeout_s = 60,
		.setup = softmax_setup,
		.run = softmax_run,
		.check = softmax_check,
		.traffic = softmax_traffic,
		.rules = { NO_LIBRARY_FUSION },
	},
	{
		.name = "passes",
		.title = "bytes an eager chain and its fusion move, predicted",
		.kind = WB_CORRECTNESS,
		.sizes = { PASSES_SIZES },
		/* Two rules in a few lines of host code, as sectors in lab
		 * 03: half an exercise. */
		.points_correct = 50,
		/* ~2,000 chains of host code, twins included; 60 s only
		 * stops hangs. */
		.timeout_s = 60,
		.setup = passes_setup,
		.run = passes_run,
		.check = passes_check,
	},
	{
		.name = "diagnose",
		.title = "what limits a profiled kernel, and the fix, read "
			 "from Nsight Compute",
		.kind = WB_CORRECTNESS,
		/* The recordings of tests/profile/ (diagnose_reports.h), in
		 * an order drawn from the seed; then 300 reports drawn
		 * around them, which a list of answers cannot pass. */
		.sizes = { { "recorded", { DIAG_RECORDED } },
			   { "drawn", { DIAG_DRAWN } } },
		/* A rule of a dozen lines and eight ratios, as passes:
		 * half an exercise. */
		.points_correct = 50,
		/* A few hundred reports of host code; 60 s stops hangs. */
		.timeout_s = 60,
		.setup = diagnose_setup,
		.run = diagnose_run,
		.check = diagnose_check,
	},
};

const struct wb_lab wb_lab = {
	.name = "07-fusion",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
