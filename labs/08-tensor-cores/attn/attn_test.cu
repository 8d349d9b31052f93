/* SPDX-License-Identifier: MIT */
/*
 * attn_test.cu - standalone check and benchmark of lab 08's attention.
 *
 *   attn_test [seed]        check, then time
 *   ATTN_CHECK_ONLY=1       check only
 *   ATTN_BENCH_SEQ=n        benchmark sequence length (default 4096)
 *   ATTN_NO_NAIVE=1         do not time the naive (it takes seconds)
 *   ATTN_IMPL=name          check and time only fused, naive or cublas
 *                           (for compute-sanitizer runs of one of them)
 *
 * Check: the fused kernel (attention.h: attention), the naive eager path
 * and the cuBLAS eager path at awkward sizes, causal and not, against the
 * double-precision CPU reference with the tolerance derived in
 * attention_ref.c. Outputs are poisoned (bf16 NaN) before each call; the
 * fused kernel gets work = NULL, since it must not need scratch.
 *
 * Benchmark: batch 4, heads 16, seq 4096, dim 64 and 128, causal and not;
 * 2 warm-up calls, then 10 timed with CUDA events, the L2 flushed before
 * each; the median. FLOPs: 4 b h s^2 d (two products of 2 s^2 d each per
 * head), half of that with causal. The outputs are spot-checked (32 rows
 * against the CPU reference) so a fast wrong kernel cannot pass unseen.
 *
 * Exit status: 0 all checked outputs right, 1 some wrong, 77 no GPU of
 * compute capability >= 8.0 (skipped).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cuda_runtime.h>

#include "workbook.h"
#include "attention.h"
#include "attention_ref.h"

#define REPS 10
#define WARMUP 2
#define SPOT_ROWS 32
#define FLUSH_BYTES (256u << 20)	/* over any L2 so far (H100: 50 MiB) */

typedef void (*attn_fn)(const bf16_bits *, const bf16_bits *,
			const bf16_bits *, bf16_bits *, int, int, int, int,
			int, void *);

struct impl {
	const char *name;
	attn_fn fn;
	int needs_work;
};

static const struct impl impls[] = {
	{ "fused", attention, 0 },
	{ "naive", naive_attention, 1 },
	{ "cublas", peer_attention, 1 },
};

#define NIMPL ((int)(sizeof(impls) / sizeof(impls[0])))

struct shape {
	int batch, heads, seq, dim, causal;
	double amp;	/* inputs uniform in [-amp, amp] */
};

/*
 * Sizes: seq 1 (one key), 31 and 33 (either side of a warp, inside one
 * tile), 100 (two partial tiles), 257 (five tiles, the last with one key),
 * 384 (several query and key tiles: the pipeline and causal skipping);
 * both head sizes; inputs up to 12, where scores reach hundreds and a
 * softmax without its max subtraction overflows.
 */
static const struct shape checks[] = {
	{ 1, 1, 1, 64, 0, 1.0 },    { 1, 1, 1, 64, 1, 1.0 },
	{ 1, 2, 31, 64, 0, 1.0 },   { 1, 2, 31, 64, 1, 1.0 },
	{ 2, 1, 33, 128, 0, 1.0 },  { 2, 1, 33, 128, 1, 1.0 },
	{ 1, 3, 100, 64, 0, 1.0 },  { 1, 3, 100, 64, 1, 1.0 },
	{ 1, 1, 257, 128, 0, 1.0 }, { 1, 1, 257, 128, 1, 1.0 },
	{ 2, 2, 384, 64, 1, 1.0 },  { 2, 2, 384, 128, 0, 1.0 },
	{ 1, 2, 100, 64, 0, 12.0 }, { 1, 2, 100, 64, 1, 12.0 },
	{ 1, 1, 200, 128, 1, 12.0 },
};

#define NCHECKS ((int)(sizeof(checks) / sizeof(checks[0])))

static uint64_t rng_state;

/* splitmix64: one 64-bit state, good enough for test inputs. */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill(uint16_t *x, size_t n, double amp)
{
	for (size_t i = 0; i < n; i++) {
		double u = (double)(rng_next() >> 11) / 9007199254740992.0;

		x[i] = double_to_bf16((2.0 * u - 1.0) * amp);
	}
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p) {
		fprintf(stderr, "attn_test: out of host memory (%zu bytes)\n", n);
		exit(2);
	}
	return p;
}

/* Host and device copies of one problem's inputs and output. */
struct bufs {
	uint16_t *q, *k, *v, *o;		/* host */
	bf16_bits *dq, *dk, *dv, *dout;		/* device */
	size_t n;				/* elements of each */
};

static void bufs_alloc(struct bufs *b, size_t n)
{
	b->n = n;
	b->q = (uint16_t *)xmalloc(n * 2);
	b->k = (uint16_t *)xmalloc(n * 2);
	b->v = (uint16_t *)xmalloc(n * 2);
	b->o = (uint16_t *)xmalloc(n * 2);
	CUDA_CHECK(cudaMalloc((void **)&b->dq, n * 2));
	CUDA_CHECK(cudaMalloc((void **)&b->dk, n * 2));
	CUDA_CHECK(cudaMalloc((void **)&b->dv, n * 2));
	CUDA_CHECK(cudaMalloc((void **)&b->dout, n * 2));
}

static void bufs_free(struct bufs *b)
{
	free(b->q), free(b->k), free(b->v), free(b->o);
	CUDA_CHECK(cudaFree(b->dq));
	CUDA_CHECK(cudaFree(b->dk));
	CUDA_CHECK(cudaFree(b->dv));
	CUDA_CHECK(cudaFree(b->dout));
}

static void bufs_fill(struct bufs *b, double amp)
{
	fill(b->q, b->n, amp);
	fill(b->k, b->n, amp);
	fill(b->v, b->n, 1.0);	/* v's size only scales o */
	CUDA_CHECK(cudaMemcpy(b->dq, b->q, b->n * 2, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(b->dk, b->k, b->n * 2, cudaMemcpyHostToDevice));
	CUDA_CHECK(cudaMemcpy(b->dv, b->v, b->n * 2, cudaMemcpyHostToDevice));
}

/* Run one implementation on a poisoned output and copy the output back. */
static void run_once(const struct impl *im, const struct bufs *b,
		     const struct shape *s, void *work)
{
	CUDA_CHECK(cudaMemset(b->dout, 0xff, b->n * 2));	/* bf16 NaN */
	im->fn(b->dq, b->dk, b->dv, b->dout, s->batch, s->heads, s->seq,
	       s->dim, s->causal, im->needs_work ? work : NULL);
	CUDA_CHECK(cudaGetLastError());
	CUDA_CHECK(cudaDeviceSynchronize());
	CUDA_CHECK(cudaMemcpy(b->o, b->dout, b->n * 2, cudaMemcpyDeviceToHost));
}

static void print_shape(const struct shape *s)
{
	printf("%dx%dx%dx%d %s%s", s->batch, s->heads, s->seq, s->dim,
	       s->causal ? "causal" : "full", s->amp > 1.0 ? " large" : "");
}

/* Is implementation i selected (ATTN_IMPL unset, or naming it)? */
static int selected(int i)
{
	const char *only = getenv("ATTN_IMPL");

	return !only || !strcmp(only, impls[i].name);
}

/* Every shape of checks[], every implementation; returns the failures. */
static int check_all(void)
{
	int fails = 0;

	for (int c = 0; c < NCHECKS; c++) {
		const struct shape *s = &checks[c];
		size_t n = (size_t)s->batch * s->heads * s->seq * s->dim;
		double *ref = (double *)xmalloc(n * sizeof(double));
		double *tol = (double *)xmalloc(n * sizeof(double));
		void *work;
		struct bufs b;

		bufs_alloc(&b, n);
		bufs_fill(&b, s->amp);
		CUDA_CHECK(cudaMalloc(&work, ATTN_WORK_BYTES(s->batch,
							     s->heads, s->seq)));
		attention_ref(b.q, b.k, b.v, s->batch, s->heads, s->seq,
			      s->dim, s->causal, ref, tol);
		for (int i = 0; i < NIMPL; i++) {
			long bad;

			if (!selected(i))
				continue;
			run_once(&impls[i], &b, s, work);
			printf("check %-7s ", impls[i].name);
			print_shape(s);
			printf(":\n");
			bad = attention_check(b.o, ref, tol, s->batch, s->heads,
					      s->seq, s->dim, 8);
			printf("    %s\n", bad ? "FAIL" : "ok");
			fails += bad != 0;
		}
		CUDA_CHECK(cudaFree(work));
		bufs_free(&b);
		free(ref), free(tol);
	}
	return fails;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

/* Median ms of REPS calls after WARMUP, the L2 flushed before each. */
static float time_impl(const struct impl *im, const struct bufs *b,
		       const struct shape *s, void *work, void *flush)
{
	cudaEvent_t t0, t1;
	float ms[REPS];

	CUDA_CHECK(cudaEventCreate(&t0));
	CUDA_CHECK(cudaEventCreate(&t1));
	for (int r = 0; r < WARMUP + REPS; r++) {
		CUDA_CHECK(cudaMemsetAsync(flush, r, FLUSH_BYTES));
		CUDA_CHECK(cudaEventRecord(t0));
		im->fn(b->dq, b->dk, b->dv, b->dout, s->batch, s->heads,
		       s->seq, s->dim, s->causal, work);
		CUDA_CHECK(cudaEventRecord(t1));
		CUDA_CHECK(cudaEventSynchronize(t1));
		if (r >= WARMUP)
			CUDA_CHECK(cudaEventElapsedTime(&ms[r - WARMUP], t0,
							t1));
	}
	CUDA_CHECK(cudaEventDestroy(t0));
	CUDA_CHECK(cudaEventDestroy(t1));
	qsort(ms, REPS, sizeof(float), cmp_float);
	return (ms[REPS / 2 - 1] + ms[REPS / 2]) / 2;
}

/* SPOT_ROWS rows spread over the problem against the CPU reference. */
static long spot_check(const struct bufs *b, const struct shape *s)
{
	long rows = (long)s->batch * s->heads * s->seq, bad = 0;
	double *ref = (double *)xmalloc(b->n * sizeof(double));
	double *tol = (double *)xmalloc(b->n * sizeof(double));
	uint16_t *o = (uint16_t *)xmalloc(b->n * 2);

	/* Untouched entries compare equal: ref = 0, tol = 1, o = +0. */
	for (size_t x = 0; x < b->n; x++)
		ref[x] = 0.0, tol[x] = 1.0;
	memset(o, 0, b->n * 2);
	for (int r = 0; r < SPOT_ROWS; r++) {
		long row = (long)(rng_next() % (uint64_t)rows);

		if (r == 0)
			row = rows - 1;	/* the last row sees every key */
		attention_ref_row(b->q, b->k, b->v, s->seq, s->dim, s->causal,
				  row, ref, tol);
		memcpy(o + row * s->dim, b->o + row * s->dim, s->dim * 2);
	}
	bad = attention_check(o, ref, tol, s->batch, s->heads, s->seq, s->dim,
			      8);
	free(ref), free(tol), free(o);
	return bad;
}

static int bench_all(void)
{
	int seq = getenv("ATTN_BENCH_SEQ") ? atoi(getenv("ATTN_BENCH_SEQ"))
					   : 4096;
	int no_naive = getenv("ATTN_NO_NAIVE") != NULL, fails = 0;
	struct shape s = { 4, 16, seq, 128, 0, 1.0 };
	size_t wbytes = ATTN_WORK_BYTES(s.batch, s.heads, seq);
	void *work = NULL, *flush;
	size_t freeb, totalb;
	struct bufs b;

	bufs_alloc(&b, (size_t)s.batch * s.heads * seq * 128);
	CUDA_CHECK(cudaMalloc(&flush, FLUSH_BYTES));
	CUDA_CHECK(cudaMemGetInfo(&freeb, &totalb));
	if (wbytes + (64u << 20) < freeb)
		CUDA_CHECK(cudaMalloc(&work, wbytes));
	else
		printf("bench: %zu MiB of scratch do not fit; eager paths "
		       "skipped\n", wbytes >> 20);
	printf("\nbench: batch %d, heads %d, seq %d; median of %d after %d "
	       "warm-up, L2 flushed\n", s.batch, s.heads, seq, REPS, WARMUP);
	printf("%-24s %-7s %10s %9s %9s\n", "shape", "impl", "ms", "TFLOP/s",
	       "fused x");
	for (int dim = 64; dim <= 128; dim *= 2) {
		for (int causal = 0; causal <= 1; causal++) {
			double flops;
			float tf = 0.0f;

			s.dim = dim, s.causal = causal;
			b.n = (size_t)s.batch * s.heads * seq * dim;
			flops = 4.0 * s.batch * s.heads * (double)seq * seq *
				dim / (causal ? 2 : 1);
			bufs_fill(&b, 1.0);
			for (int i = 0; i < NIMPL; i++) {
				const struct impl *im = &impls[i];
				float ms;
				long bad;

				if (!selected(i))
					continue;
				if (im->needs_work && (!work ||
				    (no_naive && im->fn == naive_attention)))
					continue;
				run_once(im, &b, &s, work);
				bad = spot_check(&b, &s);
				fails += bad != 0;
				ms = time_impl(im, &b, &s, work, flush);
				if (i == 0)
					tf = ms;
				/* fused x: fused's speedup over this path */
				printf("%4dx%dx%dx%-4d %-6s %-7s %10.3f %9.1f "
				       "%9.2f%s\n", s.batch, s.heads, seq, dim,
				       causal ? "causal" : "full", im->name, ms,
				       flops / ms / 1e9, tf > 0 ? ms / tf : 0.0,
				       bad ? "  WRONG" : "");
			}
		}
	}
	if (work)
		CUDA_CHECK(cudaFree(work));
	CUDA_CHECK(cudaFree(flush));
	bufs_free(&b);
	return fails;
}

int main(int argc, char **argv)
{
	uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0)
				 : (uint64_t)time(NULL);
	struct cudaDeviceProp prop;
	int dev, fails;

	if (cudaGetDevice(&dev) != cudaSuccess ||
	    cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
		printf("attn_test: no GPU; skipped\n");
		return 77;
	}
	printf("attn_test: %s (cc %d.%d), seed %llu (attn_test %llu "
	       "reproduces)\n", prop.name, prop.major, prop.minor,
	       (unsigned long long)seed, (unsigned long long)seed);
	if (prop.major < 8) {
		printf("attn_test: the fused kernel needs cc >= 8.0; skipped\n");
		return 77;
	}
	rng_state = seed;
	fails = check_all();
	printf("checks: %d failed\n", fails);
	if (!getenv("ATTN_CHECK_ONLY"))
		fails += bench_all();
	printf("%s\n", fails ? "FAIL" : "all outputs right");
	return fails ? 1 : 0;
}
