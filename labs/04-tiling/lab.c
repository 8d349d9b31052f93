/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 04 (shared-memory tiling): CPU references, input makers and
 * the table of knobs the grader reads. References first, then the hooks,
 * then the table. Each exercise's code is one section of its own, so an
 * exercise can be removed as a whole.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tiling.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak transpose
#pragma weak matmul
#pragma weak peer_transpose
#pragma weak peer_matmul

/* ---- CPU references, in double precision ---- */

/*
 * Row i of a b (a: m x k, b: k x n), into want[0..n-1], and the size of
 * its terms, mag[j] = sum_p |a[i][p]| |b[p][j]|, for the tolerance. Rows
 * of b are walked in order, so the loop streams b once per row.
 */
static void cpu_matmul_row(const float *a, const float *b, size_t k,
			   size_t n, size_t i, double *want, double *mag)
{
	memset(want, 0, n * sizeof(double));
	memset(mag, 0, n * sizeof(double));
	for (size_t p = 0; p < k; p++) {
		double x = a[i * k + p], ax = fabs(x);
		const float *br = b + p * n;

		for (size_t j = 0; j < n; j++) {
			want[j] += x * br[j];
			mag[j] += ax * fabs(br[j]);
		}
	}
}

/*
 * Column j of a b, into want[0..m-1] and mag[0..m-1]; bcol (k doubles) is
 * scratch for column j of b, gathered once so each dot product is a
 * contiguous walk.
 */
static void cpu_matmul_col(const float *a, const float *b, size_t m,
			   size_t k, size_t n, size_t j, double *bcol,
			   double *want, double *mag)
{
	for (size_t p = 0; p < k; p++)
		bcol[p] = b[p * n + j];
	for (size_t i = 0; i < m; i++) {
		const float *ar = a + i * k;
		double s = 0, t = 0;

		for (size_t p = 0; p < k; p++) {
			s += ar[p] * bcol[p];
			t += fabs(ar[p]) * fabs(bcol[p]);
		}
		want[i] = s;
		mag[i] = t;
	}
}

/* ---- shared by the exercises ---- */

static void fill_uniform(struct wb_ctx *c, float *x, size_t n, double lo,
			 double hi)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)wb_rng_range(&c->rng, lo, hi);
}

/* Scratch for a reference row or column; NULL (and a failure) if none. */
static double *ref_scratch(struct wb_ctx *c, size_t n)
{
	double *p = malloc(n * sizeof(double));

	if (!p)
		wb_fail(c, "the grader ran out of host memory for its "
			   "reference");
	return p;
}

/*
 * A tally of element checks on a matrix, for the checks that compare
 * elements one at a time with a tolerance of their own (matmul) or bit for
 * bit (transpose): how many were checked and wrong, and the first few
 * mismatches by row and column.
 */
struct tally {
	size_t n, bad, poisoned, nonfinite;
	int nshown;
	struct {
		size_t i, j;
		double got, want, tol;
	} shown[WB_MAX_SHOWN];
};

static void tally_bad(struct tally *t, size_t i, size_t j, float got,
		      double want, double tol)
{
	if (!isfinite(got))
		t->nonfinite++;
	if (wb_poisoned_words(&got, 1))
		t->poisoned++;
	if (t->nshown < WB_MAX_SHOWN) {
		t->shown[t->nshown].i = i;
		t->shown[t->nshown].j = j;
		t->shown[t->nshown].got = got;
		t->shown[t->nshown].want = want;
		t->shown[t->nshown].tol = tol;
		t->nshown++;
	}
	t->bad++;
}

/* Report a tally with wrong elements: the count, then the first few. */
static void tally_report(struct wb_ctx *c, const struct tally *t,
			 const char *what, const char *rule)
{
	if (!t->bad)
		return;
	wb_fail(c, "%zu of the %zu values of %s checked are wrong (%s)%s%s",
		t->bad, t->n, what, rule,
		t->poisoned == t->n ? ": none was written" :
		t->poisoned ? ": some never written (still poison)" : "",
		t->nonfinite && t->poisoned != t->n ?
			", NaN or inf among them" : "");
	for (int s = 0; s < t->nshown; s++) {
		if (t->shown[s].tol > 0)
			wb_fail(c, "  %s[%zu][%zu] = %.9g, expected %.9g "
				   "(within %.3g)", what, t->shown[s].i,
				t->shown[s].j, t->shown[s].got,
				t->shown[s].want, t->shown[s].tol);
		else
			wb_fail(c, "  %s[%zu][%zu] = %.9g, expected %.9g", what,
				t->shown[s].i, t->shown[s].j, t->shown[s].got,
				t->shown[s].want);
	}
}

/* ---- transpose ---- */

enum { T_A, T_B };

static int transpose_setup(struct wb_ctx *c)
{
	size_t rows = c->size->n[0], cols = c->size->n[1];
	float *a = wb_input(c, "a", rows * cols * sizeof(float));

	/* Random values: an element moved to the wrong place is caught,
	 * and so is one rounded or summed on the way. */
	fill_uniform(c, a, rows * cols, -1.0, 1.0);
	wb_output(c, "b", rows * cols * sizeof(float));
	return 0;
}

typedef void transpose_fn(const float *, float *, size_t, size_t);

static int transpose_run(struct wb_ctx *c, enum wb_impl impl)
{
	transpose_fn *f = impl == WB_STUDENT ? transpose :
			  impl == WB_NAIVE   ? naive_transpose :
					       peer_transpose;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, T_A), wb_dev(c, T_B), c->size->n[0], c->size->n[1]);
	return 0;
}

/* Blocks of a this size are compared at a time, so the column walk over
 * b stays in the host's caches (8192 x 8192 takes ~0.2 s). */
#define TP_CHECK_BLOCK 64

/* Compare the block of a at rows r0.., columns c0.. with b, bit for bit. */
static void tp_check_block(struct tally *t, const float *a, const float *b,
			   size_t rows, size_t cols, size_t r0, size_t c0)
{
	size_t r1 = r0 + TP_CHECK_BLOCK < rows ? r0 + TP_CHECK_BLOCK : rows;
	size_t c1 = c0 + TP_CHECK_BLOCK < cols ? c0 + TP_CHECK_BLOCK : cols;

	for (size_t r = r0; r < r1; r++)
		for (size_t j = c0; j < c1; j++) {
			float want = a[r * cols + j], got = b[j * rows + r];

			t->n++;
			if (memcmp(&got, &want, sizeof(got)))
				tally_bad(t, j, r, got, want, 0);
		}
}

/* Exact: a transpose moves bits and computes nothing. */
static void transpose_check(struct wb_ctx *c)
{
	const float *a = c->buf[T_A].host, *b = c->buf[T_B].host;
	size_t rows = c->size->n[0], cols = c->size->n[1];
	struct tally t = { 0 };

	for (size_t r0 = 0; r0 < rows; r0 += TP_CHECK_BLOCK)
		for (size_t c0 = 0; c0 < cols; c0 += TP_CHECK_BLOCK)
			tp_check_block(&t, a, b, rows, cols, r0, c0);
	tally_report(c, &t, "b", "b[c][r] must equal a[r][c] exactly");
}

static double transpose_bytes(const struct wb_size *s)
{
	return 8.0 * s->n[0] * s->n[1];
}

/* ---- matmul ---- */

enum { M_A, M_B, M_C };

static int matmul_setup(struct wb_ctx *c)
{
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];
	float *a = wb_input(c, "a", m * k * sizeof(float));
	float *b = wb_input(c, "b", k * n * sizeof(float));

	/* Signed values: the terms of a dot product cancel, so a term
	 * dropped or counted twice stands out against the tolerance. */
	fill_uniform(c, a, m * k, -1.0, 1.0);
	fill_uniform(c, b, k * n, -1.0, 1.0);
	wb_output(c, "c", m * n * sizeof(float));
	return 0;
}

typedef void matmul_fn(const float *, const float *, float *, size_t,
		       size_t, size_t);

static int matmul_run(struct wb_ctx *c, enum wb_impl impl)
{
	matmul_fn *f = impl == WB_STUDENT ? matmul :
		       impl == WB_NAIVE   ? naive_matmul :
					    peer_matmul;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, M_A), wb_dev(c, M_B), wb_dev(c, M_C), c->size->n[0],
	  c->size->n[1], c->size->n[2]);
	return 0;
}

/*
 * Tolerance: |c[i][j] - ref| <= 5e-6 * sum_p |a[i][p]| |b[p][j]|, per
 * element. The bound is relative to the size of the terms, not of the
 * result: the terms have random signs and cancel, so c[i][j] is ~sqrt(k)
 * times smaller than the terms' sum and a relative tolerance on it would
 * sit below honest rounding. A float32 dot product in any order (one
 * accumulator, a tree, split over tiles, with or without FMA) errs by a
 * few 1e-8 of that sum whatever k (at most ~2e-7 over 16M elements), 25x
 * inside. A dropped or repeated term is on average 1/k of the sum (2.4e-4
 * at k = 4096, 50x outside; 97% of terms are outside alone). TF32 (10-bit
 * mantissas) errs by ~8e-6 of the sum at k = 4096 and by more at smaller
 * k: it fails, as it must; lower precisions fail by far.
 */
#define MM_RTOL 5e-6

/* Products up to this many multiply-adds are checked element by element
 * (~0.2 s on one host core); larger ones by sampled rows and columns. */
#define MM_FULL_MACS (1u << 27)

/* Sampled check: this many full rows and as many full columns, the first
 * and the last (the corners and the ragged edges) among them. At 4096^3
 * that is 80K elements, 0.5% of c (~0.5 s a check). */
#define MM_SAMPLE_LINES 10

static void mm_judge(struct tally *t, size_t i, size_t j, float got,
		     double want, double mag)
{
	double tol = MM_RTOL * mag;

	t->n++;
	if (!wb_close(got, want, tol, 0))
		tally_bad(t, i, j, got, want, tol);
}

/* Pick up to MM_SAMPLE_LINES distinct indices below n: 0, n - 1, then
 * random ones. Returns how many. */
static int mm_pick(struct wb_ctx *c, size_t n, size_t *idx)
{
	int k = 0;

	for (int tries = 0; k < MM_SAMPLE_LINES && tries < 4 * MM_SAMPLE_LINES;
	     tries++) {
		size_t x = tries == 0 ? 0 : tries == 1 ? n - 1 :
			   (size_t)wb_rng_below(&c->rng, n);
		int dup = 0;

		for (int s = 0; s < k; s++)
			dup |= idx[s] == x;
		if (!dup)
			idx[k++] = x;
	}
	return k;
}

static int mm_in(const size_t *idx, int k, size_t x)
{
	for (int s = 0; s < k; s++)
		if (idx[s] == x)
			return 1;
	return 0;
}

static void matmul_check(struct wb_ctx *c)
{
	const float *a = c->buf[M_A].host, *b = c->buf[M_B].host;
	const float *got = c->buf[M_C].host;
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];
	size_t len = (m > n ? m : n), rows[MM_SAMPLE_LINES],
	       cols[MM_SAMPLE_LINES];
	double *want = ref_scratch(c, 2 * len + k), *mag, *bcol;
	struct tally t = { 0 };
	int nr, nc;

	if (!want)
		return;
	mag = want + len;
	bcol = mag + len;
	if ((double)m * k * n <= MM_FULL_MACS) {
		for (size_t i = 0; i < m; i++) {
			cpu_matmul_row(a, b, k, n, i, want, mag);
			for (size_t j = 0; j < n; j++)
				mm_judge(&t, i, j, got[i * n + j], want[j],
					 mag[j]);
		}
		goto report;
	}
	nr = mm_pick(c, m, rows);
	nc = mm_pick(c, n, cols);
	for (int s = 0; s < nr; s++) {
		cpu_matmul_row(a, b, k, n, rows[s], want, mag);
		for (size_t j = 0; j < n; j++)
			mm_judge(&t, rows[s], j, got[rows[s] * n + j], want[j],
				 mag[j]);
	}
	for (int s = 0; s < nc; s++) {
		cpu_matmul_col(a, b, m, k, n, cols[s], bcol, want, mag);
		for (size_t i = 0; i < m; i++)
			if (!mm_in(rows, nr, i))
				mm_judge(&t, i, cols[s], got[i * n + cols[s]],
					 want[i], mag[i]);
	}
report:
	tally_report(c, &t, "c", "tolerance 5e-6 x sum_p |a[i][p] b[p][j]|");
	free(want);
}

/* 2 m n k: one multiply and one add per term. The report shows TFLOP/s
 * from it, and the peer's share when it is timed. */
static double matmul_flops(const struct wb_size *s)
{
	return 2.0 * s->n[0] * s->n[1] * s->n[2];
}

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * transpose sizes (rows x cols): one element; a single row and a single
 * column (b is then a column or a row); 31 x 33, 33 x 31 and 63 x 65,
 * around the 32- and 64-wide tiles; 32 x 32 and 64 x 64, whole tiles
 * only; 127 x 129 and 257 x 1023, partial tiles on both edges; 4097 x 3
 * and 3 x 4097, tall and flat; 2047 x 2053, primes-ish, a 16 MiB pair
 * whose tiles mostly are full. Only 32 x 32 and 64 x 64 divide into tiles.
 * Benchmark: 8192 x 8192, 256 MiB each way, four times an H200's L2.
 */
#define TRANSPOSE_SIZES                                                    \
	{ "1x1", { 1, 1 } }, { "1x33", { 1, 33 } }, { "33x1", { 33, 1 } },  \
	{ "31x33", { 31, 33 } }, { "32x32", { 32, 32 } },                   \
	{ "33x31", { 33, 31 } }, { "64x64", { 64, 64 } },                   \
	{ "63x65", { 63, 65 } }, { "127x129", { 127, 129 } },               \
	{ "257x1023", { 257, 1023 } }, { "4097x3", { 4097, 3 } },           \
	{ "3x4097", { 3, 4097 } }, { "2047x2053", { 2047, 2053 } }

/*
 * matmul sizes (m x k x n): one element; k = 1 (a rank-1 product) and
 * k = 3 (shorter than one float4, and than any k-tile); vectors (m = 1,
 * n = 1); 31 x 33 x 35 and 33 x 31 x 29 around a warp and a tile; 64^3
 * and 128^3, whole tiles only; 129 x 8 x 127 (k one 8-deep tile, n odd),
 * 65 x 33 x 128 (k odd, n aligned) and 130 x 64 x 132 (k and n multiples
 * of 4, so float4 paths run, but m and n end mid-tile); 255 x 1000 x 257;
 * then 1000 x 1001 x 999 and 1024^3, checked by sampled rows and columns.
 * Benchmark: 4096^3 (64 MiB per matrix, 137 GFLOP): compute-bound, far
 * from any cache, and the size cuBLAS is usually quoted at.
 */
#define MATMUL_SIZES                                                       \
	{ "1x1x1", { 1, 1, 1 } }, { "2x1x7", { 2, 1, 7 } },                  \
	{ "7x3x5", { 7, 3, 5 } }, { "1x515x257", { 1, 515, 257 } },          \
	{ "257x515x1", { 257, 515, 1 } }, { "31x33x35", { 31, 33, 35 } },    \
	{ "33x31x29", { 33, 31, 29 } }, { "64x64x64", { 64, 64, 64 } },      \
	{ "128x128x128", { 128, 128, 128 } },                               \
	{ "129x8x127", { 129, 8, 127 } }, { "65x33x128", { 65, 33, 128 } },  \
	{ "130x64x132", { 130, 64, 132 } },                                 \
	{ "255x1000x257", { 255, 1000, 257 } },                             \
	{ "1000x1001x999", { 1000, 1001, 999 } },                           \
	{ "1024x1024x1024", { 1024, 1024, 1024 } }

/*
 * Technique rules (docs/adding-a-lab.md): tiles in shared memory are the
 * lesson of both exercises; matmul is float32 on the CUDA cores, with no
 * library GEMM and no tensor cores (tiling.h, the contract).
 */
#define MUST_SHARED                                                        \
	{ WB_MUST, WB_PTX, ".shared", "shared memory (__shared__ tiles)",  \
	  "Staging tiles in shared memory is what this lab teaches." }
#define NO_LIBRARY_TILING                                                  \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library call (cuBLAS, CUB's Device*, Thrust)",                  \
	  "The kernel is the exercise; cublasSgeam and cublasSgemm are "     \
	  "make bench's comparison only." }
#define NO_TENSOR_CORES                                                    \
	{ WB_MUST_NOT, WB_PTX, "mma.sync|wmma.|wgmma.|tf32",                \
	  "tensor-core or TF32 instructions (mma, wmma, wgmma, tf32)",       \
	  "The exercise is a float32 GEMM on the CUDA cores; tensor cores "  \
	  "and TF32 would change both the arithmetic and the comparison." }

static const struct wb_exercise exercises[] = {
	{
		.name = "transpose",
		.title = "b = a^T through a shared-memory tile",
		.kind = WB_SPEED,
		.sizes = { TRANSPOSE_SIZES },
		.bench = { { "8192x8192", { 8192, 8192 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers, measured on an H100 80GB HBM3 (tests/gpu/
		 * calibrate.sh, 8192 x 8192): the naive, strided writes,
		 * 1283.1 us (418 GB/s). A 32 x 32 shared tile read down its
		 * columns with 32-way bank conflicts (ladder 1-shared-tile)
		 * 4.00x, 61% of copy: between tiers 2 (3.5x) and 3. The same
		 * tile padded to 32 x 33 (ladder 2-padded-tile) 6.37x, 98%
		 * of copy; the solution (a 64 x 65 tile, 16 elements per
		 * thread) 6.23x-6.42x, beside cublasSgeam at 101% of copy.
		 * The top tier, 5.4x, leaves the solution's slowest run a
		 * 15% margin, so padding is what earns it; tier 1 (2.0x)
		 * lies clearly above the naive. (H200 planning: unpadded
		 * 3.37x, padded 6.85x.)
		 */
		.tiers = { { 2.0, 20 }, { 3.5, 40 }, { 5.4, 60 } },
		/* make profile: the naive's strided stores (sectors per
		 * request), then the tile's bank conflicts until it is
		 * padded, and DRAM throughput near copy at the end. */
		.profile = WB_PROF_COALESCING | WB_PROF_SHARED |
			   WB_PROF_THROUGHPUT,
		/* The naive takes ~1 ms a call; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = transpose_setup,
		.run = transpose_run,
		.check = transpose_check,
		.bytes = transpose_bytes,
		.rules = { MUST_SHARED, NO_LIBRARY_TILING },
	},
	{
		.name = "matmul",
		.title = "c = a b in float32, no tensor cores",
		.kind = WB_SPEED,
		.sizes = { MATMUL_SIZES },
		.bench = { { "4096^3", { 4096, 4096, 4096 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers, measured on an H100 80GB HBM3 (4096^3): the naive
		 * 44.54 ms, 3.09 TFLOP/s. 16 x 16 shared tiles (ladder
		 * 1-shared-tile) 2.63x, in tier 1 (2.0x): tiling alone. A
		 * 64 x 64 block with a 4 x 4 register tile per thread
		 * (ladder 3-register-tile) 7.51x, in tier 2 (6.0x): register
		 * blocking. The solution (128 x 128 blocks, 8 x 8 per
		 * thread, float4 loads, double buffering) 14.20x-14.34x,
		 * 43.92 TFLOP/s against cublasSgemm's 49.34 (fp32, pedantic)
		 * in the same run, 89% of cuBLAS; the top tier, 12.3x,
		 * leaves its slowest run a 15% margin. (H200 planning, with
		 * a naive of 25.2 ms: 16 x 16 tiles 1.48x, 4 x 4 register
		 * tile 3.30x, cublasSgemm 9.40x; if that naive time holds,
		 * the top tier is out of reach there: recheck on an H200.)
		 */
		.tiers = { { 2.0, 20 }, { 6.0, 40 }, { 12.3, 60 } },
		/* make profile: compute-bound (SM throughput, the stalls);
		 * the tiles' bank conflicts, and the registers and shared
		 * memory a bigger tile costs in occupancy. */
		.profile = WB_PROF_SHARED | WB_PROF_OCCUPANCY | WB_PROF_STALLS |
			   WB_PROF_THROUGHPUT,
		/* The naive takes ~25 ms a call and the sampled checks
		 * ~0.5 s each; 120 s only stops hangs. */
		.timeout_s = 120,
		/* cuBLAS is timed in the same run, so the report gives the
		 * TFLOP/s as a share of it (not scored). */
		.peer_in_grade = 1,
		.setup = matmul_setup,
		.run = matmul_run,
		.check = matmul_check,
		/* Compute-bound: no byte count; the report shows TFLOP/s. */
		.flops = matmul_flops,
		.rules = { MUST_SHARED, NO_LIBRARY_TILING, NO_TENSOR_CORES },
	},
};

const struct wb_lab wb_lab = {
	.name = "04-tiling",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
