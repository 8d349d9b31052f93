/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 06 (RMSNorm): CPU references, input makers and the table of
 * knobs the grader reads. References first, then the hooks, then the table.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "rmsnorm.h"

/* One runner links one submission file: the other entry point is NULL. */
#pragma weak rmsnorm
#pragma weak rmsnorm_bf16

/* eps as in Llama-style models; small enough not to mask a wrong mean. */
#define RMS_EPS 1e-6f

/* ---- bfloat16 in plain C ---- */

static float bf16_to_float(bf16_bits b)
{
	uint32_t u = (uint32_t)b << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* Round to nearest even, as __float2bfloat16 does (inputs are finite). */
static bf16_bits float_to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	u += 0x7fffu + ((u >> 16) & 1u);
	return (bf16_bits)(u >> 16);
}

/* ---- CPU reference, in double precision ---- */

/* y = x / sqrt(mean(x^2) + eps) * w for one row; x, w as doubles. */
static void cpu_rmsnorm_row(const double *x, const double *w, double *y,
			    size_t h)
{
	double sum = 0, scale;

	for (size_t i = 0; i < h; i++)
		sum += x[i] * x[i];
	scale = 1.0 / sqrt(sum / (double)h + RMS_EPS);
	for (size_t i = 0; i < h; i++)
		y[i] = x[i] * scale * w[i];
}

/* ---- shared by both exercises ---- */

enum { X, W, Y };

/* x and w read, y written: 4 bytes a value, or 2 in bfloat16. */
static void rms_traffic32(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0] * s->n[1] + 4.0 * s->n[1];
	t->write = 4.0 * s->n[0] * s->n[1];
}

static void rms_traffic16(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 2.0 * s->n[0] * s->n[1] + 2.0 * s->n[1];
	t->write = 2.0 * s->n[0] * s->n[1];
}

/*
 * Compare rows against the reference, one row at a time so that the
 * double scratch stays small. get(i) reads the i-th value of buffer b.
 */
typedef double value_fn(const void *p, size_t i);

static double f32_at(const void *p, size_t i)
{
	return ((const float *)p)[i];
}

static double bf16_at(const void *p, size_t i)
{
	return bf16_to_float(((const bf16_bits *)p)[i]);
}

/*
 * The absolute part of a tolerance is scaled per row (wb_row_atol): the
 * rows of magnitude 1e-20 (outputs near 1e-17) are compared as closely as
 * ordinary ones. An ordinary row keeps most of atol (its largest |x| is at
 * least its rms, and w >= 0.5).
 */


/* What check_rows() compares with: how values are read, the tolerance. */
struct rows_check {
	value_fn *at;
	double atol, rtol;
};

/* Row r: the reference from x and w, then y against it. */
static void check_row(struct wb_ctx *c, struct wb_chunks *p, size_t r,
		      double *xr, const void *arg)
{
	const struct rows_check *rc = arg;
	size_t h = c->size->n[1];
	double *wr = xr + h, *want = wr + h;
	float *got = (float *)(want + h);

	for (size_t i = 0; i < h; i++) {
		wr[i] = rc->at(c->buf[W].host, i);
		xr[i] = rc->at(c->buf[X].host, r * h + i);
		got[i] = (float)rc->at(c->buf[Y].host, r * h + i);
	}
	cpu_rmsnorm_row(xr, wr, want, h);
	wb_chunk_f32(p, "y", got, want, h, wb_row_atol(want, h, rc->atol),
		     rc->rtol);
}

static void note_row(struct wb_ctx *c, size_t r, size_t rows)
{
	wb_fail(c, "  (row %zu of %zu; y indices above are within the row)", r,
		rows);
}

/* Row by row, on several threads (wb_check_chunks); each row's scratch
 * holds x, w and the reference in double, and y read as float. */
static void check_rows(struct wb_ctx *c, value_fn *at, double atol, double rtol)
{
	struct rows_check rc = { at, atol, rtol };
	size_t h = c->size->n[1];

	wb_check_chunks(c, c->size->n[0], 3 * h + (h + 1) / 2, check_row, &rc,
			note_row);
}

/*
 * Rows where eps matters. On rows of x in [-2, 2], mean(x^2) is ~1.3 and
 * eps = 1e-6 moves y by 4e-7 relative, far inside the tolerance: eps added
 * outside the square root, or left out, passes there. So some rows need
 * it, each made by scaling an ordinary row:
 *   zero   y = 0 exactly; a kernel that divides by the row's size (its
 *          rms, its largest |x|) without eps gets 0 / 0 = NaN;
 *   1e-4   mean(x^2) ~ 1.3e-8, 1% of eps: eps sets the scale, y ~ 0.1;
 *          eps outside the root makes y 8.6 times too large;
 *   1e-20  mean(x^2) ~ 1.3e-40, a float32 subnormal, next to nothing
 *          beside eps: y ~ 1e-17; eps outside the root, 1000 times too
 *          large (wb_row_atol() keeps such rows checked).
 * Sizes of SPECIAL_MIN_ROWS rows or more get 1 + rows / 256 of each kind
 * (one each up to 255 rows, 65 each at 16384, 257 at 65536), spread over
 * the rows by wb_rng_stripes(): in any warp or block of rows, and most
 * rows stay ordinary.
 */
#define SPECIAL_MIN_ROWS 4

static const double special_scale[] = { 0, 1e-4, 1e-20 };
#define SPECIAL_KINDS (sizeof(special_scale) / sizeof(special_scale[0]))

/* Scale one row of h values by s (0: zeros). */
typedef void scale_fn(void *row, size_t h, double s);

static void scale_f32(void *row, size_t h, double s)
{
	float *x = row;

	for (size_t i = 0; i < h; i++)
		x[i] = s == 0 ? 0.0f : (float)(s * x[i]);
}

static void scale_bf16(void *row, size_t h, double s)
{
	bf16_bits *x = row;

	for (size_t i = 0; i < h; i++)
		x[i] = float_to_bf16(s == 0 ? 0.0f :
				     (float)(s * bf16_to_float(x[i])));
}

/* The rows of x being planted: elem bytes a value, h values a row. */
struct special_rows {
	char *x;
	size_t elem, h;
	scale_fn *scale;
};

static void plant_row(void *arg, size_t row, size_t kind)
{
	struct special_rows *p = arg;

	p->scale(p->x + row * p->h * p->elem, p->h, special_scale[kind]);
}

/* Turn some of the rows of x into special rows. */
static void plant_special_rows(struct wb_ctx *c, void *x, size_t elem,
			       size_t rows, size_t h, scale_fn *scale)
{
	struct special_rows p = { x, elem, h, scale };

	if (rows >= SPECIAL_MIN_ROWS)
		wb_rng_stripes(&c->rng, rows, SPECIAL_KINDS, plant_row, &p);
}

/* ---- rmsnorm (float32) ---- */

static int rms32_setup(struct wb_ctx *c)
{
	size_t rows = c->size->n[0], h = c->size->n[1];
	float *x = wb_input_as(c, "x", rows * h * sizeof(float), WB_FRESH_F32);
	float *w = wb_input_as(c, "w", h * sizeof(float), WB_FRESH_F32);

	wb_fill_uniform(c, x, rows * h, -2.0, 2.0);
	wb_fill_uniform(c, w, h, 0.5, 1.5);
	plant_special_rows(c, x, sizeof(*x), rows, h, scale_f32);
	wb_output(c, "y", rows * h * sizeof(float));
	return 0;
}

typedef void rms32_fn(const float *, const float *, float *, size_t, size_t,
		      float);

static int rms32_run(struct wb_ctx *c, enum wb_impl impl)
{
	rms32_fn *f = impl == WB_STUDENT ? rmsnorm :
		      impl == WB_NAIVE   ? naive_rmsnorm : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, X), wb_dev(c, W), wb_dev(c, Y), c->size->n[0],
	  c->size->n[1], RMS_EPS);
	return 0;
}

/*
 * Tolerance: |y - ref| <= 1e-5 + 1e-4 |ref|, the 1e-5 scaled down on rows
 * whose outputs are small (row_atol). The float sum of up to 16384
 * squares errs by ~sqrt(h) x 2^-24 relative in practice (one thread per
 * row, summing in order, is the worst here, ~1e-5); rsqrtf adds 2 ulp.
 * Relative errors do not grow on the 1e-4 and 1e-20 rows: their squares'
 * sum is far below eps, and where it is subnormal (1e-40) or flushed to
 * zero its error vanishes beside eps.
 */
static void rms32_check(struct wb_ctx *c)
{
	check_rows(c, f32_at, 1e-5, 1e-4);
}

/* ---- rmsnorm_bf16 ---- */

static int rms16_setup(struct wb_ctx *c)
{
	size_t rows = c->size->n[0], h = c->size->n[1];
	bf16_bits *x = wb_input_as(c, "x", rows * h * sizeof(bf16_bits),
				   WB_FRESH_BF16);
	bf16_bits *w = wb_input_as(c, "w", h * sizeof(bf16_bits),
				   WB_FRESH_BF16);

	for (size_t i = 0; i < rows * h; i++)
		x[i] = float_to_bf16((float)wb_rng_range(&c->rng, -2.0, 2.0));
	for (size_t i = 0; i < h; i++)
		w[i] = float_to_bf16((float)wb_rng_range(&c->rng, 0.5, 1.5));
	plant_special_rows(c, x, sizeof(*x), rows, h, scale_bf16);
	wb_output(c, "y", rows * h * sizeof(bf16_bits));
	return 0;
}

typedef void rms16_fn(const bf16_bits *, const bf16_bits *, bf16_bits *,
		      size_t, size_t, float);

static int rms16_run(struct wb_ctx *c, enum wb_impl impl)
{
	rms16_fn *f = impl == WB_STUDENT ? rmsnorm_bf16 :
		      impl == WB_NAIVE   ? naive_rmsnorm_bf16 : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, X), wb_dev(c, W), wb_dev(c, Y), c->size->n[0],
	  c->size->n[1], RMS_EPS);
	return 0;
}

/*
 * Tolerance: |y - ref| <= 1e-6 + 8e-3 |ref|, about one bf16 ulp (2^-7
 * relative at worst), the 1e-6 scaled per row as for rmsnorm. Float math
 * then one rounding to bf16 errs by half an ulp; summing the squares in
 * bf16 instead of float fails by far.
 */
static void rms16_check(struct wb_ctx *c)
{
	size_t n = c->size->n[0] * c->size->n[1], unwritten = 0;
	const bf16_bits *y = c->buf[Y].host;

	for (size_t i = 0; i < n; i++)
		unwritten += y[i] == 0xffffu;
	if (unwritten)
		wb_fail(c, "%zu of %zu values of y never written (still poison)",
			unwritten, n);
	else
		check_rows(c, bf16_at, 1e-6, 8e-3);
}

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * Technique rule (checked on the student's object, not on timings): the row
 * reduction is the exercise, so a device-wide library algorithm (CUB's
 * DeviceSegmentedReduce, Thrust) costs the performance points;
 * cub::BlockReduce and cub::WarpReduce stay allowed, as the README says.
 */
#define NO_LIBRARY_ROWS                                                    \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a device-wide library algorithm (CUB's Device*, Thrust, cuBLAS)", \
	  "The row reduction is the exercise: write its kernel (block-level " \
	  "CUB is fine)." }

/*
 * Sizes (rows x hidden): hidden in {1, 7, 768, 4095, 4096, 5120, 8192,
 * 16384} covers one element, odd lengths (no 16-byte loads: rows are not
 * 16-byte aligned), a small-model width, widths that are and are not
 * multiples of a 512-thread block's float4 stride; odd row counts catch a
 * grid that assumes rows come in pairs or blocks. The two benchmark shapes
 * are the issue's: a Llama-7B-like 4096 wide, and a 768-wide shape where a
 * block per row is too little work.
 */
#define RMS_SIZES                                                          \
	{ "1x1", { 1, 1 } }, { "31x1", { 31, 1 } }, { "3x7", { 3, 7 } },    \
	{ "129x33", { 129, 33 } }, { "33x768", { 33, 768 } },               \
	{ "1001x768", { 1001, 768 } }, { "17x4095", { 17, 4095 } },         \
	{ "5x4096", { 5, 4096 } }, { "9x5120", { 9, 5120 } },               \
	{ "3x8192", { 3, 8192 } }, { "7x16384", { 7, 16384 } }

#define RMS_BENCH                                                          \
	{ "16384x4096", { 16384, 4096 } }, { "65536x768", { 65536, 768 } }

static const struct wb_exercise exercises[] = {
	{
		.name = "rmsnorm",
		.title = "RMSNorm of float32 rows",
		.kind = WB_SPEED,
		.sizes = { RMS_SIZES },
		.bench = { RMS_BENCH },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (x and w read, y
		 * written), the geometric mean over the two shapes. Measured
		 * on an H100 80GB HBM3 (tests/gpu/calibrate.sh, 2026-11-25):
		 * the naive, a thread per row, 1480.2 us, 10%. A warp per row
		 * with scalar loads (ladder 1-warp-per-row) 61%; a block of
		 * four warps that each redo the row's sum (ladder
		 * 2-redundant-warps, the seed's first version) 66%: both tier
		 * 2 (52%). The solution (a block per long row and a warp per
		 * short one, float4 loads, short rows in registers) 99%: the
		 * top tier (81%) leaves an 18% margin. Tier 1 (31%) lies
		 * clearly above the naive.
		 */
		.tiers = { { 0.31, 20 }, { 0.52, 40 }, { 0.81, 60 } },
		/* make profile: a thread per row reads 32 rows per warp load
		 * (sectors per request) from a grid of a few blocks; a warp or
		 * block per row fixes both. */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_OCCUPANCY | WB_PROF_STALLS,
		/* The naive takes ~1.5 ms a call; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = rms32_setup,
		.run = rms32_run,
		.check = rms32_check,
		.traffic = rms_traffic32,
		.rules = { NO_LIBRARY_ROWS },
	},
	{
		.name = "rmsnorm_bf16",
		.title = "RMSNorm of bfloat16 rows, float32 inside",
		.kind = WB_SPEED,
		.sizes = { RMS_SIZES },
		.bench = { RMS_BENCH },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers, same runs (2 bytes a value): the naive 1346.5 us, 6%;
		 * a warp per row with 2-byte loads (ladder 1-warp-per-row)
		 * 49%, tier 2 (44%); the solution (16-byte loads of 8 values)
		 * 96%: the top tier (78%) leaves a 19% margin.
		 */
		.tiers = { { 0.25, 20 }, { 0.44, 40 }, { 0.78, 60 } },
		/* make profile: as for rmsnorm. */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_OCCUPANCY | WB_PROF_STALLS,
		.timeout_s = 60,
		.setup = rms16_setup,
		.run = rms16_run,
		.check = rms16_check,
		.traffic = rms_traffic16,
		.rules = { NO_LIBRARY_ROWS },
	},
};

const struct wb_lab wb_lab = {
	.name = "06-rmsnorm",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
