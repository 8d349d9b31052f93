/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 03 (memory coalescing): CPU references, input makers and the
 * table of knobs the grader reads. References first, then the hooks, then
 * the table.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "coalescing.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak matvec
#pragma weak mean_dim0
#pragma weak grayscale
#pragma weak peer_matvec

/* mean_dim0's reference is built this many outputs at a time (8 MiB of
 * doubles), so it never needs an array of the whole output in double. */
#define CHECK_CHUNK ((size_t)1 << 20)

/* At most this many wrong values are listed, as wb_check_f32 does. */
#define SHOWN 5

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

/*
 * want[0..len-1] = the mean over dimension 0 of outputs j0 .. j0 + len - 1
 * (flat indices into [l][m]): slice by slice, so the host reads in order.
 */
static void cpu_mean_chunk(const float *in, size_t k, size_t lm, size_t j0,
			   size_t len, double *want)
{
	for (size_t j = 0; j < len; j++)
		want[j] = 0;
	for (size_t p = 0; p < k; p++) {
		const float *s = in + p * lm + j0;

		for (size_t j = 0; j < len; j++)
			want[j] += s[j];
	}
	for (size_t j = 0; j < len; j++)
		want[j] /= (double)k;
}

/* ---- shared by the exercises ---- */

/* Uniform random bytes, eight from each draw. */
static void fill_bytes(struct wb_ctx *c, unsigned char *b, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t v = wb_rng_u64(&c->rng);

		memcpy(b + i, &v, 8);
	}
	if (i < n) {
		uint64_t v = wb_rng_u64(&c->rng);

		memcpy(b + i, &v, n - i);
	}
}

/* A float that still holds the poison (all bytes 0xff): never written. */
static int is_poison(float v)
{
	uint32_t u;

	memcpy(&u, &v, sizeof(u));
	return u == 0xffffffffu;
}

/* ---- matvec ---- */

enum { MV_A, MV_X, MV_Y };

static int matvec_setup(struct wb_ctx *c)
{
	size_t m = c->size->n[0], n = c->size->n[1];
	float *a = wb_input_as(c, "a", m * n * sizeof(float), WB_FRESH_F32);
	float *x = wb_input_as(c, "x", n * sizeof(float), WB_FRESH_F32);

	/* Signed entries: y[r] is a sum that mostly cancels, small next to
	 * sum |a x|, so a dropped or repeated term stands out (MV_RTOL). */
	wb_rng_fill_uniform(&c->rng, a, m * n, -1.0, 1.0);
	wb_rng_fill_uniform(&c->rng, x, n, -1.0, 1.0);
	wb_output(c, "y", m * sizeof(float));
	return 0;
}

typedef void matvec_fn(const float *, const float *, float *, size_t,
		       size_t);

static int matvec_run(struct wb_ctx *c, enum wb_impl impl)
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

static void matvec_check(struct wb_ctx *c)
{
	const float *a = c->buf[MV_A].host, *x = c->buf[MV_X].host;
	const float *y = c->buf[MV_Y].host;
	size_t m = c->size->n[0], n = c->size->n[1];
	size_t bad = 0, unwritten = 0, shown[SHOWN];
	double want[SHOWN], tol[SHOWN];

	for (size_t r = 0; r < m; r++) {
		double abs_sum, w = cpu_dot(a + r * n, x, n, &abs_sum);

		if (fabs((double)y[r] - w) <= MV_RTOL * abs_sum)
			continue; /* false for NaN: it is counted below */
		unwritten += is_poison(y[r]);
		if (bad < SHOWN) {
			shown[bad] = r;
			want[bad] = w;
			tol[bad] = MV_RTOL * abs_sum;
		}
		bad++;
	}
	if (!bad)
		return;
	wb_fail(c, "%zu of %zu values of y wrong (tolerance %.0e x sum_j "
		   "|a[r][j] x[j]|)%s", bad, m, MV_RTOL,
		unwritten == m ? ": none was written" :
		unwritten ? ": some never written (still poison)" : "");
	for (size_t i = 0; i < bad && i < SHOWN; i++)
		wb_fail(c, "  y[%zu] = %.9g, expected %.9g (tolerance %.3g)",
			shown[i], y[shown[i]], want[i], tol[i]);
}

/* a (m x n) and x (n) read, y (m) written. */
static void matvec_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * ((double)s->n[0] * s->n[1] + s->n[1]);
	t->write = 4.0 * s->n[0];
}

/* ---- mean_dim0 ---- */

enum { MD_IN, MD_OUT };

static int mean_setup(struct wb_ctx *c)
{
	size_t k = c->size->n[0], l = c->size->n[1], m = c->size->n[2];
	float *in = wb_input_as(c, "in", k * l * m * sizeof(float),
				WB_FRESH_F32);

	/* Signed values: each mean is small next to the terms, so a term
	 * dropped, repeated or taken from the wrong slice shows. */
	wb_rng_fill_uniform(&c->rng, in, k * l * m, -1.0, 1.0);
	wb_output(c, "out", l * m * sizeof(float));
	return 0;
}

typedef void mean_fn(const float *, float *, size_t, size_t, size_t);

static int mean_run(struct wb_ctx *c, enum wb_impl impl)
{
	mean_fn *f = impl == WB_STUDENT ? mean_dim0 :
		     impl == WB_NAIVE   ? naive_mean_dim0 : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, MD_IN), wb_dev(c, MD_OUT), c->size->n[0], c->size->n[1],
	  c->size->n[2]);
	return 0;
}

/*
 * Tolerance: |out - ref| <= 1e-6 + 1e-5 |ref|. The inputs lie in [-1, 1),
 * so a float32 sum of k of them in any order, divided by k (or multiplied
 * by a rounded 1/k), errs by a few 1e-8; one term dropped or doubled
 * moves the mean by |x| / k, about 5e-4 even at k = 1000.
 */
#define MEAN_ATOL 1e-6
#define MEAN_RTOL 1e-5

/* Chunk by chunk of the output, so the double reference stays small. */
static void mean_check(struct wb_ctx *c)
{
	const float *in = c->buf[MD_IN].host, *out = c->buf[MD_OUT].host;
	size_t k = c->size->n[0], l = c->size->n[1], m = c->size->n[2];
	size_t lm = l * m;
	double *want = wb_ref_scratch(c, lm < CHECK_CHUNK ? lm : CHECK_CHUNK);

	for (size_t j0 = 0; want && j0 < lm && !c->failed; j0 += CHECK_CHUNK) {
		size_t len = lm - j0 < CHECK_CHUNK ? lm - j0 : CHECK_CHUNK;

		cpu_mean_chunk(in, k, lm, j0, len, want);
		wb_check_f32(c, "out", out + j0, want, len, MEAN_ATOL,
			     MEAN_RTOL);
		if (c->failed)
			wb_fail(c, "  (out[i][j] is element i * m + j, "
				   "m = %zu)", m);
		if (c->failed && j0)
			wb_fail(c, "  (the indices above count from element "
				   "%zu)", j0);
	}
	free(want);
}

/* in (k x l x m) read, out (l x m) written. */
static void mean_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0] * s->n[1] * s->n[2];
	t->write = 4.0 * s->n[1] * s->n[2];
}

/* ---- grayscale ---- */

enum { G_RGB, G_GRAY };

static int gray_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0] * c->size->n[1];
	unsigned char *rgb = wb_input_as(c, "rgb", 3 * n, WB_FRESH_BYTES);

	/* Independent random channels: a swapped channel, a pixel read at
	 * the wrong offset or a rounding other than the exact formula gives
	 * a different gray value for most pixels. */
	fill_bytes(c, rgb, 3 * n);
	wb_output(c, "gray", n);
	return 0;
}

typedef void gray_fn(const unsigned char *, unsigned char *, size_t,
		     size_t);

static int gray_run(struct wb_ctx *c, enum wb_impl impl)
{
	gray_fn *f = impl == WB_STUDENT ? grayscale :
		     impl == WB_NAIVE   ? naive_grayscale : NULL;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, G_RGB), wb_dev(c, G_GRAY), c->size->n[0], c->size->n[1]);
	return 0;
}

/* The exact gray value of pixel p. */
static unsigned int gray_ref(const unsigned char *rgb, size_t p)
{
	return GRAY_OF(rgb[3 * p], rgb[3 * p + 1], rgb[3 * p + 2]);
}

/*
 * Exact: the formula is integer arithmetic, so every pixel must equal
 * GRAY_OF(R, G, B). An unwritten pixel holds the poison byte, 255, which
 * is the true value only for pixels within a few steps of white.
 */
static void gray_check(struct wb_ctx *c)
{
	const unsigned char *rgb = c->buf[G_RGB].host;
	const unsigned char *gray = c->buf[G_GRAY].host;
	size_t w = c->size->n[1], n = c->size->n[0] * w;
	size_t bad = 0, poison = 0, shown[SHOWN];

	for (size_t p = 0; p < n; p++) {
		if (gray[p] == gray_ref(rgb, p))
			continue;
		poison += gray[p] == WB_POISON_BYTE;
		if (bad < SHOWN)
			shown[bad] = p;
		bad++;
	}
	if (!bad)
		return;
	wb_fail(c, "%zu of %zu pixels of gray wrong (must match exactly)%s",
		bad, n, poison == n ? ": none was written" :
		poison ? ": some hold 255, the poison (never written?)" : "");
	for (size_t i = 0; i < bad && i < SHOWN; i++) {
		size_t p = shown[i];

		wb_fail(c, "  gray[%zu] (row %zu, column %zu) = %u, expected "
			   "%u from R, G, B = %u, %u, %u", p, p / w, p % w,
			(unsigned int)gray[p], gray_ref(rgb, p),
			(unsigned int)rgb[3 * p], (unsigned int)rgb[3 * p + 1],
			(unsigned int)rgb[3 * p + 2]);
	}
}

/* Three bytes read and one written per pixel. */
static void gray_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 3.0 * s->n[0] * s->n[1];
	t->write = 1.0 * s->n[0] * s->n[1];
}

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * matvec sizes (m x n): one element; a single row and a single column;
 * 31 x 33 and 33 x 31 around a warp, rows not 16-byte aligned; 3 x 4096
 * (aligned, few rows); 5 x 4097 and 17 x 4099, long rows whose starts
 * fall on every alignment mod 16 bytes (a float4 load there faults);
 * 257 x 1000 (aligned, not a multiple of a warp's float4 sweep); many
 * short rows (1000 x 3, 65537 x 5: shorter than a warp); one long prime
 * row pair (2 x 100003); 4097 x 64, tall with rows of half a sweep.
 * Benchmark: 16384 x 8192, 512 MiB of matrix, over 8x an H200's L2.
 */
#define MATVEC_SIZES                                                       \
	{ "1x1", { 1, 1 } }, { "1x7", { 1, 7 } }, { "7x1", { 7, 1 } },      \
	{ "31x33", { 31, 33 } }, { "33x31", { 33, 31 } },                   \
	{ "3x4096", { 3, 4096 } }, { "5x4097", { 5, 4097 } },               \
	{ "17x4099", { 17, 4099 } }, { "257x1000", { 257, 1000 } },         \
	{ "1000x3", { 1000, 3 } }, { "65537x5", { 65537, 5 } },             \
	{ "2x100003", { 2, 100003 } }, { "4097x64", { 4097, 64 } }

/*
 * mean_dim0 sizes (k x l x m): one element; k = 1 (the mean is a copy);
 * one output of 64 terms; small odd shapes; l >> m and l << m, where
 * confusing the roles of i and j shows; k = 1000 (a long loop over
 * dimension 0); l = 70001, more than a grid's 65535 in y or z, so a
 * launch that puts i on blockIdx.y fails; one long prime row; 13 x 64 x
 * 4096 (slices 16-byte aligned: a float4 path) and 3 x 1023 x 1025
 * (l * m odd: every slice after the first is misaligned).
 * Benchmark: the seed's 64 x 1024 x 1024, 256 MiB, 4x an H200's L2.
 */
#define MEAN_SIZES                                                         \
	{ "1x1x1", { 1, 1, 1 } }, { "1x31x33", { 1, 31, 33 } },             \
	{ "64x1x1", { 64, 1, 1 } }, { "3x5x7", { 3, 5, 7 } },               \
	{ "7x33x31", { 7, 33, 31 } }, { "5x1000x3", { 5, 1000, 3 } },       \
	{ "4x3x1000", { 4, 3, 1000 } }, { "1000x3x5", { 1000, 3, 5 } },     \
	{ "2x70001x3", { 2, 70001, 3 } },                                   \
	{ "2x1x1000003", { 2, 1, 1000003 } },                               \
	{ "13x64x4096", { 13, 64, 4096 } },                                 \
	{ "3x1023x1025", { 3, 1023, 1025 } }

/*
 * grayscale sizes (height x width): fewer pixels than one 16-pixel group
 * (1, 15), exactly one (16) and one more (17); small odd images; full HD
 * 1080 x 1920 (a multiple of 16); a long prime row. The pixel counts
 * leave remainders 0, 1, 3, 7, 13 and 15 mod 16 (and odd remainders mod
 * 4), so a 4- or 16-pixel group needs its tail.
 * Benchmark: 8192 x 8192, 64M pixels: 192 MiB in, 64 MiB out.
 */
#define GRAY_SIZES                                                         \
	{ "1x1", { 1, 1 } }, { "1x15", { 1, 15 } }, { "1x16", { 1, 16 } },  \
	{ "1x17", { 1, 17 } }, { "3x5", { 3, 5 } },                         \
	{ "31x33", { 31, 33 } }, { "33x31", { 33, 31 } },                   \
	{ "479x643", { 479, 643 } }, { "17x4099", { 17, 4099 } },           \
	{ "1080x1920", { 1080, 1920 } }, { "1x1000003", { 1, 1000003 } },   \
	{ "7x65537", { 7, 65537 } }

/*
 * Technique rules (docs/adding-a-lab.md): the access pattern of your own
 * kernel is the lesson; a library call has its own.
 */
#define NO_LIBRARY_COALESCING                                              \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library call (cuBLAS, CUB's Device*, Thrust)",                  \
	  "Coalescing your own kernel's loads is the exercise; cublasSgemv " \
	  "is make bench's comparison only." }

static const struct wb_exercise exercises[] = {
	{
		.name = "matvec",
		.title = "y = A x, A row-major float32",
		.kind = WB_SPEED,
		.sizes = { MATVEC_SIZES },
		.bench = { { "16384x8192", { 16384, 8192 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (a and x read once, y
		 * written). Measured on an H100 80GB HBM3 (tests/gpu/
		 * calibrate.sh, 2026-11-25): the naive, a thread per row,
		 * 1131.0 us, 16%. A warp per row with scalar loads (ladder
		 * 2-coalesced-scalar) 98%, the solution, the same with float4
		 * loads, 99%: on the H100 coalescing alone reaches the top
		 * tier (79%), which leaves the solution a 20% margin; float4
		 * barely helps. No step lies between: tier 1 (32%) lies
		 * clearly above the naive, tier 2 (56%) grades partial
		 * fixes. cublasSgemv took 197.4 us, the solution 178.0 us.
		 */
		.tiers = { { 0.32, 20 }, { 0.56, 40 }, { 0.79, 60 } },
		/* make profile: a thread per row reads 32 rows per warp load
		 * (sectors per request) from a grid of 64 blocks; a warp per
		 * row fixes both. */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_OCCUPANCY,
		/* The naive takes ~1.2 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = matvec_setup,
		.run = matvec_run,
		.check = matvec_check,
		.traffic = matvec_traffic,
		.rules = { NO_LIBRARY_COALESCING },
	},
	{
		.name = "mean_dim0",
		.title = "mean over dimension 0 of a [k][l][m] tensor",
		.kind = WB_SPEED,
		.sizes = { MEAN_SIZES },
		.bench = { { "64x1024x1024", { 64, 1024, 1024 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (in read once, out
		 * written). Measured on an H100 80GB HBM3 (tests/gpu/
		 * calibrate.sh, 2026-11-25): the naive, a thread per index i,
		 * 5331.6 us, 1.8%. Tier 1 (7%) rewards parallelism alone: a
		 * thread per output with i as the fast index (ladder
		 * 1-parallel-uncoalesced, still 32 sectors per request)
		 * 16%. With j fast, coalesced and scalar (ladder
		 * 2-coalesced-scalar) 102%, and the solution (float4, loads
		 * in flight) 105%: float4 only confirms the coalescing.
		 * Tier 2 (37%) lies between the two steps, so coalescing is
		 * what earns it; the top tier (78%) leaves a 23% margin.
		 */
		.tiers = { { 0.07, 20 }, { 0.37, 40 }, { 0.78, 60 } },
		/* make profile: the walk-through of docs/nsight-compute.md:
		 * a grid of 8 blocks, then lanes m floats apart (sectors per
		 * request, lg_throttle), then coalesced at DRAM speed. */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_OCCUPANCY | WB_PROF_STALLS,
		/* The naive takes ~9 ms a call, at most 6 s of samples;
		 * 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = mean_setup,
		.run = mean_run,
		.check = mean_check,
		.traffic = mean_traffic,
		.rules = { NO_LIBRARY_COALESCING },
	},
	{
		.name = "grayscale",
		.title = "RGB to gray, 8-bit, exact integer formula",
		.kind = WB_SPEED,
		.sizes = { GRAY_SIZES },
		.bench = { { "8192x8192", { 8192, 8192 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (three bytes read and
		 * one written per pixel). Measured on an H100 80GB HBM3
		 * (tests/gpu/calibrate.sh, 2026-11-25): the naive 191.2 us,
		 * 47% (coalesced, but three 1-byte loads per thread keep too
		 * few bytes in flight). 4 pixels per thread with 4-byte words
		 * (ladder 2-coalesced-scalar) 100%; the solution, 16 pixels
		 * per thread with 16-byte loads and stores, 106%. The top
		 * tier (82%) leaves the solution a 22% margin and is reached
		 * with 4-byte words already. Tier 1 (55%) lies clearly above
		 * the naive, tier 2 (69%) grades partial fixes.
		 */
		.tiers = { { 0.55, 20 }, { 0.69, 40 }, { 0.82, 60 } },
		/* make profile: coalesced but narrow, 1-byte loads (sectors
		 * per request at their ideal of 1), too few bytes in flight
		 * (DRAM throughput, stalls). */
		.profile = WB_PROF_COALESCING | WB_PROF_THROUGHPUT |
			   WB_PROF_STALLS,
		/* The naive takes ~0.2 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = gray_setup,
		.run = gray_run,
		.check = gray_check,
		.traffic = gray_traffic,
	},
};

const struct wb_lab wb_lab = {
	.name = "03-coalescing",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
