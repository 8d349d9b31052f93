/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 08 (tensor cores): CPU references, input makers and the
 * table of knobs the grader reads. References first, then the hooks, then
 * the table. Each exercise's code is one section of its own, so an
 * exercise can be removed as a whole.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ref.h"
#include "tensor_cores.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak fragments
#pragma weak hgemm
#pragma weak peer_hgemm

/* ---- bfloat16 in plain C ---- */

static double bf16_to_double(bf16_bits b)
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
		double x = bf16_to_double(a[i * k + p]), ax = fabs(x);
		const bf16_bits *br = b + p * n;

		if (x == 0)
			continue;
		for (size_t j = 0; j < n; j++) {
			double y = bf16_to_double(br[j]);

			want[j] += x * y;
			mag[j] += ax * fabs(y);
		}
	}
}

/* ---- shared by the exercises ---- */

/* After a failed row: say which, since the indices reported are in it. */
static void note_row(struct wb_ctx *c, size_t r, size_t rows)
{
	wb_fail(c, "  (row %zu of %zu; the indices above are within the row)",
		r, rows);
}

static double row_max(const double *x, size_t n)
{
	double m = 0;

	for (size_t j = 0; j < n; j++)
		m = x[j] > m ? x[j] : m;
	return m;
}

/* ---- fragments ---- */

/* One tile is a 16 x 16 a, a 16 x 8 b and a 16 x 8 c. */
#define FR_M 16
#define FR_K 16
#define FR_N 8

enum { F_A, F_B, F_C };

static int fragments_setup(struct wb_ctx *c)
{
	size_t tiles = c->size->n[0];
	bf16_bits *a = wb_input(c, "a", tiles * FR_M * FR_K * sizeof(*a));
	bf16_bits *b = wb_input(c, "b", tiles * FR_K * FR_N * sizeof(*b));

	/* Random signed values: an element read from the wrong place, or a
	 * product left out, moves its result by ~0.3 on average. */
	for (size_t i = 0; i < tiles * FR_M * FR_K; i++)
		a[i] = float_to_bf16((float)wb_rng_range(&c->rng, -1.0, 1.0));
	for (size_t i = 0; i < tiles * FR_K * FR_N; i++)
		b[i] = float_to_bf16((float)wb_rng_range(&c->rng, -1.0, 1.0));
	wb_output(c, "c", tiles * FR_M * FR_N * sizeof(float));
	return 0;
}

/* Correctness only: the submission alone runs (no naive, no peer). */
static int fragments_run(struct wb_ctx *c, enum wb_impl impl)
{
	if (impl != WB_STUDENT || !fragments)
		return WB_MISSING;
	fragments(wb_dev(c, F_A), wb_dev(c, F_B), wb_dev(c, F_C),
		  c->size->n[0]);
	return 0;
}

/*
 * Tolerance: 1e-4, absolute. Each of the 16 products is exact in float32
 * and at most 1 in size, so any float32 sum of them (or the tensor
 * cores', section 7 of the README) errs by well under 16 x 16 x 2^-24 =
 * 1.5e-5. A fragment register mapped to the wrong element, b read
 * untransposed, or half of k left out moves an element by ~0.3.
 */
#define FR_ATOL 1e-4

/* Tile t: c = a b, in double. */
static void fragments_tile(struct wb_ctx *c, struct wb_chunks *p, size_t t,
			   double *want, const void *arg)
{
	const bf16_bits *a = (const bf16_bits *)c->buf[F_A].host +
			     t * FR_M * FR_K;
	const bf16_bits *b = (const bf16_bits *)c->buf[F_B].host +
			     t * FR_K * FR_N;
	const float *got = (const float *)c->buf[F_C].host + t * FR_M * FR_N;

	(void)arg;
	for (int i = 0; i < FR_M; i++)
		for (int j = 0; j < FR_N; j++) {
			double s = 0;

			for (int q = 0; q < FR_K; q++)
				s += bf16_to_double(a[i * FR_K + q]) *
				     bf16_to_double(b[q * FR_N + j]);
			want[i * FR_N + j] = s;
		}
	wb_chunk_f32(p, "c", got, want, FR_M * FR_N, FR_ATOL, 0);
}

/* After a failed tile: say which (the indices are row * 8 + column). */
static void note_tile(struct wb_ctx *c, size_t t, size_t tiles)
{
	wb_fail(c, "  (tile %zu of %zu; an index above is row * 8 + column "
		   "within the tile)", t, tiles);
}

static void fragments_check(struct wb_ctx *c)
{
	wb_check_chunks(c, c->size->n[0], FR_M * FR_N, fragments_tile, NULL,
			note_tile);
}

static void fragments_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 2.0 * s->n[0] * (FR_M * FR_K + FR_K * FR_N);
	t->write = 4.0 * s->n[0] * FR_M * FR_N;
}

/* ---- hgemm ---- */

enum { H_A, H_B, H_C };

static int hgemm_setup(struct wb_ctx *c)
{
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];
	bf16_bits *a = wb_input_as(c, "a", m * k * sizeof(bf16_bits),
				   WB_FRESH_BF16);
	bf16_bits *b = wb_input_as(c, "b", k * n * sizeof(bf16_bits),
				   WB_FRESH_BF16);

	/* Signed values: the terms of a dot product cancel, so a term
	 * dropped or counted twice stands out against the tolerance. */
	for (size_t i = 0; i < m * k; i++)
		a[i] = float_to_bf16((float)wb_rng_range(&c->rng, -1.0, 1.0));
	for (size_t i = 0; i < k * n; i++)
		b[i] = float_to_bf16((float)wb_rng_range(&c->rng, -1.0, 1.0));
	wb_output(c, "c", m * n * sizeof(float));
	return 0;
}

typedef void hgemm_fn(const bf16_bits *, const bf16_bits *, float *, size_t,
		      size_t, size_t);

static int hgemm_run(struct wb_ctx *c, enum wb_impl impl)
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
	wb_chunk_f32(p, "c", got + i * n, want, n, HG_RTOL * row_max(mag, n),
		     0);
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

static void hgemm_check(struct wb_ctx *c)
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
static void hgemm_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	double m = s->n[0], k = s->n[1], n = s->n[2];

	t->read = 2 * (m * k + k * n);
	t->write = 4 * m * n;
	t->flops = 2 * m * n * k;
}

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * fragments sizes (tiles): one tile (one warp); 2; 31 and 33, around a
 * block of 32 warps if you launch one; 1000 and 100000, many blocks. Not
 * timed: the lesson is the layout.
 */
#define FRAGMENTS_SIZES                                                    \
	{ "1", { 1 } }, { "2", { 2 } }, { "31", { 31 } }, { "33", { 33 } }, \
	{ "1000", { 1000 } }, { "100000", { 100000 } }

/*
 * The warm-up's rules: the exercise is the fragment layout of
 * mma.sync.m16n8k16 and ldmatrix's, so both instructions are required
 * (WMMA hides the layout: its PTX is wmma.mma.sync m16n16k16).
 */
#define MUST_MMA_M16N8K16                                                  \
	{ WB_MUST, WB_PTX, "mma.sync.aligned.m16n8k16",                      \
	  "mma.sync.m16n8k16 (inline PTX)",                                  \
	  "The warm-up is this instruction's fragment layout; WMMA hides "   \
	  "it." }
#define MUST_LDMATRIX                                                      \
	{ WB_MUST, WB_PTX, "ldmatrix", "ldmatrix",                          \
	  "Loading fragments with ldmatrix (.trans for b) is the other "     \
	  "half of the lesson." }

/*
 * hgemm sizes (m x k x n; k and n multiples of 8, the contract): the
 * smallest product (one 8 x 8 block of b); k = 16, one mma's depth; a
 * single row (m = 1) and a tall thin one (m = 300, k = n = 8); 31 x 40 x
 * 24 and 33 x 24 x 40 around a warp's 16-row fragments and short of any
 * 32-deep k-tile; 7 x 8 x 264, n just past a 256-wide tile; 64^3 and
 * 128^3, whole tiles only; 129 x 72 x 136 (every extent one past a tile,
 * k 2.25 k-tiles) and 65 x 32 x 128 (m ragged, k and n whole);
 * 17 x 4096 x 8, a long k on a sliver; 255 x 1000 x 264; then 1000^3 and
 * 1024^3, checked against the GPU reference. Benchmark: 4096^3 (32 MiB
 * per input, 64 MiB of c, 137 GFLOP): compute-bound, and the size GEMMs
 * are usually quoted at.
 */
#define HGEMM_SIZES                                                        \
	{ "1x8x8", { 1, 8, 8 } }, { "2x16x8", { 2, 16, 8 } },                \
	{ "1x512x256", { 1, 512, 256 } }, { "300x8x8", { 300, 8, 8 } },      \
	{ "31x40x24", { 31, 40, 24 } }, { "33x24x40", { 33, 24, 40 } },      \
	{ "7x8x264", { 7, 8, 264 } }, { "64x64x64", { 64, 64, 64 } },        \
	{ "128x128x128", { 128, 128, 128 } },                               \
	{ "129x72x136", { 129, 72, 136 } }, { "65x32x128", { 65, 32, 128 } },\
	{ "17x4096x8", { 17, 4096, 8 } },                                   \
	{ "255x1000x264", { 255, 1000, 264 } },                             \
	{ "1000x1000x1000", { 1000, 1000, 1000 } },                         \
	{ "1024x1024x1024", { 1024, 1024, 1024 } }

/*
 * Technique rules (docs/adding-a-lab.md): the tensor cores are the lesson,
 * so the file must use their instructions (wmma's PTX is wmma.mma.sync,
 * mma.sync's and wgmma's are their own); the GEMM is the exercise, so no
 * library.
 */
#define MUST_TENSOR_CORES                                                  \
	{ WB_MUST, WB_PTX, "mma.sync|wmma.|wgmma.",                         \
	  "tensor-core instructions (mma.sync, wmma or wgmma)",              \
	  "The tensor cores are this lab's subject: a float32 GEMM on the "  \
	  "CUDA cores is lab 04's." }
#define NO_LIBRARY_GEMM                                                    \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library call (cuBLAS, cuBLASLt, CUTLASS's device GEMMs)",       \
	  "The kernel is the exercise; cublasGemmEx is the ideal the "       \
	  "tiers are shares of, and make bench's comparison." }

static const struct wb_exercise exercises[] = {
	{
		.name = "fragments",
		.title = "one mma.sync per tile: fragments and ldmatrix",
		.kind = WB_CORRECTNESS,
		.sizes = { FRAGMENTS_SIZES },
		/* A warm-up: a third of hgemm's correctness points. */
		.points_correct = 20,
		.points_speed = 0,
		/* bf16 mma.sync and ldmatrix: sm_80 on. */
		.min_cc = 80,
		/* 100000 tiles are 9.6 MB; 60 s only stops hangs. */
		.timeout_s = 60,
		.setup = fragments_setup,
		.run = fragments_run,
		.check = fragments_check,
		.traffic = fragments_traffic,
		.rules = { MUST_MMA_M16N8K16, MUST_LDMATRIX },
	},
	{
		.name = "hgemm",
		.title = "c = a b, bf16 in, fp32 out, on tensor cores",
		.kind = WB_SPEED,
		.sizes = { HGEMM_SIZES },
		.bench = { { "4096^3", { 4096, 4096, 4096 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of cublasGemmEx's time (bf16 in, fp32
		 * compute, tensor cores), which the grader times in its
		 * reference run without the student's code. PROVISIONAL,
		 * until tests/gpu/lab08.sh calibrates them on an H100: the
		 * ladder is expected at about 10% (1-wmma: fragments
		 * straight from global memory), 25% (2-mma-sync: shared
		 * tiles, ldmatrix, mma.sync), 40% (3-cp-async: a 4-stage
		 * cp.async pipeline, padded rows) and 55% (4-swizzle and the
		 * solution: XOR-swizzled rows), and the naive (CUDA cores)
		 * at about 1%. mma.sync reaches about two thirds of the
		 * H100's tensor peak at best; cuBLAS uses wgmma (README).
		 */
		.tiers = { { 0.07, 15 }, { 0.18, 30 }, { 0.32, 45 },
			   { 0.45, 60 } },
		.ideal = WB_IDEAL_PEER,
		/* bf16 mma.sync, ldmatrix and cp.async: sm_80 on. */
		.min_cc = 80,
		/* Its FLOPs run on tensor cores: the SUSPICIOUS ceiling is
		 * their peak (grader/plausible.c). */
		.tensor_flops = 1,
		/* make profile: the tiles' bank conflicts (ldmatrix on
		 * unswizzled rows), the stalls of a pipeline that waits on
		 * its loads, and occupancy against registers and shared
		 * memory. */
		.profile = WB_PROF_SHARED | WB_PROF_OCCUPANCY | WB_PROF_STALLS |
			   WB_PROF_THROUGHPUT,
		/* The naive takes ~15 ms a call, and each check of the
		 * benchmark compares every element against the GPU
		 * reference (~0.3 s); 120 s only stops hangs. */
		.timeout_s = 120,
		.setup = hgemm_setup,
		.run = hgemm_run,
		.check = hgemm_check,
		.traffic = hgemm_traffic,
		.rules = { MUST_TENSOR_CORES, NO_LIBRARY_GEMM },
	},
};

const struct wb_lab wb_lab = {
	.name = "08-tensor-cores",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
