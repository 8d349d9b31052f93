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
#pragma weak attention
#pragma weak peer_attention

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

/* ---- attention ---- */

/*
 * A size is { heads, seq, dim | flags }: heads counts the (batch, head)
 * pairs, dim is 64 or 128, and the flags say whether the mask is causal
 * and whether q and k are loud (up to AT_LOUD_AMP instead of AT_AMP).
 */
#define AT_CAUSAL 0x100
#define AT_LOUD 0x200
#define AT_DIM(s) ((int)((s)->n[2] & 0xff))

/*
 * q and k uniform in [-2, 2]: scores of standard deviation ~1.3 at both
 * head sizes (d products of variance 16/9, times 1/sqrt(d)), so each row's
 * softmax is peaked enough that a dropped key or key tile moves its output
 * (uniform in [-1, 1] the rows are nearly flat averages). Loud sizes: up
 * to 12, scores in the hundreds, where a softmax without its max
 * subtraction overflows float32's exp (above 88). v is in [-1, 1].
 */
#define AT_AMP 2.0
#define AT_LOUD_AMP 12.0

enum { A_Q, A_K, A_V, A_O };

static void at_fill(struct wb_ctx *c, bf16_bits *x, size_t n, double amp)
{
	for (size_t i = 0; i < n; i++)
		x[i] = float_to_bf16((float)wb_rng_range(&c->rng, -amp, amp));
}

static int attention_setup(struct wb_ctx *c)
{
	const struct wb_size *s = c->size;
	size_t n = s->n[0] * s->n[1] * (size_t)AT_DIM(s);
	double amp = s->n[2] & AT_LOUD ? AT_LOUD_AMP : AT_AMP;
	bf16_bits *q = wb_input_as(c, "q", n * 2, WB_FRESH_BF16);
	bf16_bits *k = wb_input_as(c, "k", n * 2, WB_FRESH_BF16);
	bf16_bits *v = wb_input_as(c, "v", n * 2, WB_FRESH_BF16);
	void *work;

	at_fill(c, q, n, amp);
	at_fill(c, k, n, amp);
	at_fill(c, v, n, 1.0);
	wb_output(c, "o", n * 2);
	/* The eager paths' scores, allocated here so no timed call does.
	 * The naive leaves its probabilities there: the harness poisons
	 * them before every student call, so no call computes o = P v from
	 * them (harness.h, wb_lab_scratch). */
	work = attn_work(ATTN_WORK_BYTES(s->n[0], s->n[1]));
	if (!work)
		return -1;
	wb_lab_scratch(c, work, ATTN_WORK_BYTES(s->n[0], s->n[1]));
	return 0;
}

static int attention_run(struct wb_ctx *c, enum wb_impl impl)
{
	const struct wb_size *s = c->size;
	int heads = (int)s->n[0], seq = (int)s->n[1], dim = AT_DIM(s);
	int causal = (s->n[2] & AT_CAUSAL) != 0;
	void (*eager)(const bf16_bits *, const bf16_bits *, const bf16_bits *,
		      bf16_bits *, int, int, int, int, void *);

	if (impl == WB_STUDENT) {
		if (!attention)
			return WB_MISSING;
		attention(wb_dev(c, A_Q), wb_dev(c, A_K), wb_dev(c, A_V),
			  wb_dev(c, A_O), heads, seq, dim, causal);
		return 0;
	}
	eager = impl == WB_NAIVE ? naive_attention : peer_attention;
	if (!eager)
		return WB_MISSING;
	eager(wb_dev(c, A_Q), wb_dev(c, A_K), wb_dev(c, A_V), wb_dev(c, A_O),
	      heads, seq, dim, causal, attn_work(ATTN_WORK_BYTES(heads, seq)));
	return 0;
}

/*
 * Tolerance, per output o = sum_j p_j v_j / sum_j p_j (row i, column d).
 * Let a = sum_j P_j |v_j| (P the exact probabilities: |o| <= a), u =
 * 2^-24 float32's unit roundoff, 2^-8 bfloat16's (8 significant bits):
 *
 *  1. o is rounded to bf16 once: at most 2^-8 |o|.
 *  2. P is rounded to bf16 for the tensor-core product P V (the solution
 *     and the cuBLAS peer both do): each p_j moves by at most 2^-8 p_j,
 *     the numerator by at most 2^-8 a. A kernel may also sum the rounded
 *     p_j for the denominator: at most another 2^-8 |o|.
 *  3. The scores in float32: each product of two bf16 is exact; the
 *     dim-term sum, the scale and the shift into log2 units (or the
 *     subtraction of the max) add at most (dim + 4) u A, A = scale max_j
 *     sum_d |q_d k_jd|. A score and the max both err, and exp (expf,
 *     exp2f, ex2.approx: a few ulps) adds 2^-21: each p_j is off by a
 *     relative rho = 2 (dim + 4) u A + 2^-21, numerator and denominator
 *     alike: 2 rho a.
 *  4. The float32 sums of P V and of the denominator: (seq + 2) u a,
 *     2.4e-4 a at seq 4096, far below item 2; there to make it a bound.
 *
 *     tol = 2^-7 |o| + (2^-8 + 2 rho + (seq + 2) u) a
 *
 * compared as rtol 2^-7 and, per row, atol (2^-8 + 2 rho + (seq + 2) u)
 * times the row's largest a (a of one column is within a few times of
 * another's for all but the shortest rows). That is 0.4% to 1.2% of a;
 * with v in [-1, 1], a is a weighted average of |v|, ~0.5. What it
 * catches (tests/broken/attention-*): a missing 1/sqrt(dim) moves outputs
 * by tenths; a causal mask one key late moves row i by ~|v - o| / (i + 2),
 * a third at row 0; a dropped key tile removes a quarter or more of a
 * short row's weight; no max subtraction overflows at the loud sizes'
 * scores, and inf or NaN always fails.
 */
#define AT_U32 (1.0 / 16777216.0)	/* 2^-24 */
#define AT_U16 (1.0 / 256.0)		/* 2^-8 */
#define AT_EXP_ERR (1.0 / 2097152.0)	/* 2^-21 */

/*
 * Sizes with up to this many score multiply-adds (heads x seq x seq x
 * dim) are checked on every row; larger ones (the benchmark's, 3.4e10
 * of them, minutes on a host core) on AT_SAMPLE_ROWS rows of every head,
 * and every output against the bound |o| <= max |v| = 1 a convex
 * combination of v obeys (which also finds any output left unwritten).
 */
#define AT_HOST_MACS (1u << 28)

/* Rows checked per head at the large sizes: the first, the last and 14
 * at random, different at each check (~0.3 G multiply-adds in all at
 * the benchmark). */
#define AT_SAMPLE_ROWS 16

/* Rows to check: NULL for all of them, else AT_SAMPLE_ROWS per head. */
struct at_rows {
	const size_t *row;
};

/*
 * One row r (of heads x seq), in double: want[d] and the tolerance's a,
 * into scratch (seq scores, dim wants, dim a's, then dim floats of the
 * output), and its comparison.
 */
static void attention_row(struct wb_ctx *c, struct wb_chunks *p, size_t k,
			  double *scratch, const void *arg)
{
	const struct at_rows *rows = arg;
	const struct wb_size *sz = c->size;
	size_t seq = sz->n[1], dim = (size_t)AT_DIM(sz);
	size_t r = rows->row ? rows->row[k] : k, i = r % seq;
	size_t n = sz->n[2] & AT_CAUSAL ? i + 1 : seq;	/* keys j < n */
	const bf16_bits *q = (const bf16_bits *)c->buf[A_Q].host + r * dim;
	const bf16_bits *kh = (const bf16_bits *)c->buf[A_K].host +
			      (r - i) * dim;
	const bf16_bits *vh = (const bf16_bits *)c->buf[A_V].host +
			      (r - i) * dim;
	const bf16_bits *o = (const bf16_bits *)c->buf[A_O].host + r * dim;
	double *sc = scratch, *want = scratch + seq, *mag = want + dim;
	float *got = (float *)(mag + dim);
	double scale = 1.0 / sqrt((double)dim), mx = -INFINITY, big = 0;
	double sum = 0, rho;

	for (size_t j = 0; j < n; j++) {
		double t = 0, ta = 0;

		for (size_t d = 0; d < dim; d++) {
			double x = bf16_to_double(q[d]) *
				   bf16_to_double(kh[j * dim + d]);

			t += x;
			ta += fabs(x);
		}
		sc[j] = t * scale;
		mx = fmax(mx, sc[j]);
		big = fmax(big, ta * scale);
	}
	for (size_t j = 0; j < n; j++) {
		sc[j] = exp(sc[j] - mx);
		sum += sc[j];
	}
	memset(want, 0, 2 * dim * sizeof(double));
	for (size_t j = 0; j < n; j++)
		for (size_t d = 0; d < dim; d++) {
			double x = bf16_to_double(vh[j * dim + d]);

			want[d] += sc[j] * x;
			mag[d] += sc[j] * fabs(x);
		}
	for (size_t d = 0; d < dim; d++) {
		want[d] /= sum;
		mag[d] /= sum;
		got[d] = (float)bf16_to_double(o[d]);
	}
	rho = 2.0 * (double)(dim + 4) * AT_U32 * big + AT_EXP_ERR;
	wb_chunk_f32(p, "o", got, want, dim,
		     (AT_U16 + 2 * rho + (double)(seq + 2) * AT_U32) *
		     row_max(mag, dim), 2 * AT_U16);
}

/* After a failed row: which head and query (indices are columns). */
static void attention_note(struct wb_ctx *c, size_t r)
{
	size_t seq = c->size->n[1];

	wb_fail(c, "  (head %zu, query %zu; the indices above are columns "
		   "of its output row)", r / seq, r % seq);
}

/* The rows being checked (NULL: all), for the note, which gets no arg. */
static const size_t *at_sample;

static void note_all(struct wb_ctx *c, size_t k, size_t nchunks)
{
	(void)nchunks;
	attention_note(c, at_sample ? at_sample[k] : k);
}

/* Every output is finite and within max |v| = 1 (a convex combination of
 * v; 2^-7 over for its rounding). Returns 0, or -1 (reported). */
static int attention_bounded(struct wb_ctx *c)
{
	const struct wb_size *s = c->size;
	size_t n = s->n[0] * s->n[1] * (size_t)AT_DIM(s);
	const bf16_bits *o = c->buf[A_O].host;

	for (size_t x = 0; x < n; x++) {
		double y = bf16_to_double(o[x]);

		if (fabs(y) <= 1.0 + 2 * AT_U16)
			continue;
		wb_fail(c, "o[%zu] = %g: every output is a weighted average "
			   "of v, within [-1, 1] (head %zu, query %zu)", x, y,
			   x / AT_DIM(s) / s->n[1],
			   x / AT_DIM(s) % s->n[1]);
		return -1;
	}
	return 0;
}

static void attention_check(struct wb_ctx *c)
{
	const struct wb_size *s = c->size;
	size_t heads = s->n[0], seq = s->n[1], dim = (size_t)AT_DIM(s);
	size_t scratch = seq + 3 * dim;
	struct at_rows rows = { NULL };
	size_t *pick;

	if ((double)heads * seq * seq * dim <= AT_HOST_MACS) {
		at_sample = NULL;
		wb_check_chunks(c, heads * seq, scratch, attention_row, &rows,
				note_all);
		return;
	}
	if (attention_bounded(c))
		return;
	pick = malloc(heads * AT_SAMPLE_ROWS * sizeof(*pick));
	if (!pick) {
		wb_fail(c, "grader error, not your code's: no host memory "
			   "for the rows to check");
		return;
	}
	for (size_t h = 0; h < heads; h++)
		for (size_t t = 0; t < AT_SAMPLE_ROWS; t++)
			pick[h * AT_SAMPLE_ROWS + t] = h * seq +
				(t == 0 ? 0 : t == 1 ? seq - 1 :
				 (size_t)wb_rng_below(&c->rng, seq));
	rows.row = pick;
	at_sample = pick;
	wb_check_chunks(c, heads * AT_SAMPLE_ROWS, scratch, attention_row,
			&rows, note_all);
	at_sample = NULL;
	free(pick);
}

/*
 * FLOPs: two products of 2 seq^2 dim each per head, 4 heads seq^2 dim;
 * causal counts only the kept scores, seq (seq + 1) / 2 of seq^2. On the
 * tensor cores (the table's .tensor_flops). Bytes: q, k and v read once,
 * o written once, bf16: the fused kernel's floor (the eager path adds 6
 * bytes a score, README section 9.1).
 */
static void attention_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	double heads = s->n[0], seq = s->n[1], dim = AT_DIM(s);
	double keys = s->n[2] & AT_CAUSAL ? (seq + 1) / 2 : seq;

	t->read = 3 * 2 * heads * seq * dim;
	t->write = 2 * heads * seq * dim;
	t->flops = 4 * heads * seq * keys * dim;
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
	{ "1x8x8", { 1, 8, 8 } }, { "2x16x8", { 2, 16, 8 } },               \
	{ "1x512x256", { 1, 512, 256 } }, { "300x8x8", { 300, 8, 8 } },     \
	{ "31x40x24", { 31, 40, 24 } }, { "33x24x40", { 33, 24, 40 } },     \
	{ "7x8x264", { 7, 8, 264 } }, { "64x64x64", { 64, 64, 64 } },       \
	{ "128x128x128", { 128, 128, 128 } },                               \
	{ "129x72x136", { 129, 72, 136 } }, { "65x32x128", { 65, 32, 128 } }, \
	{ "17x4096x8", { 17, 4096, 8 } },                                   \
	{ "255x1000x264", { 255, 1000, 264 } },                             \
	{ "1000x1000x1000", { 1000, 1000, 1000 } },                         \
	{ "1024x1024x1024", { 1024, 1024, 1024 } }

/*
 * attention sizes (heads x seq x dim, then the flags): seq 1 (one key);
 * 31 and 33, either side of a warp and inside one 64-key tile; 64, one
 * whole tile; 100, two partial tiles; 257, five tiles, the last with one
 * key; 384, several query and key tiles (the pipeline, causal skipping);
 * 1000, 16 tiles; 4096 on one head, checked on sampled rows as the
 * benchmark is. Each causal and not, both head sizes; loud inputs (up to
 * 12) where a softmax without its max subtraction overflows.
 */
#define ATTENTION_SIZES                                                    \
	{ "1x1x64", { 1, 1, 64 } },                                         \
	{ "1x1x128-causal", { 1, 1, 128 | AT_CAUSAL } },                    \
	{ "2x31x64", { 2, 31, 64 } },                                       \
	{ "2x31x64-causal", { 2, 31, 64 | AT_CAUSAL } },                    \
	{ "2x33x128", { 2, 33, 128 } },                                     \
	{ "2x33x128-causal", { 2, 33, 128 | AT_CAUSAL } },                  \
	{ "1x64x128-causal", { 1, 64, 128 | AT_CAUSAL } },                  \
	{ "3x100x64", { 3, 100, 64 } },                                     \
	{ "3x100x64-causal", { 3, 100, 64 | AT_CAUSAL } },                  \
	{ "1x257x128", { 1, 257, 128 } },                                   \
	{ "1x257x128-causal", { 1, 257, 128 | AT_CAUSAL } },                \
	{ "4x384x64-causal", { 4, 384, 64 | AT_CAUSAL } },                  \
	{ "4x384x128", { 4, 384, 128 } },                                   \
	{ "2x100x64-loud", { 2, 100, 64 | AT_LOUD } },                      \
	{ "2x100x64-causal-loud", { 2, 100, 64 | AT_CAUSAL | AT_LOUD } },   \
	{ "1x200x128-causal-loud", { 1, 200, 128 | AT_CAUSAL | AT_LOUD } }, \
	{ "2x1000x128-causal", { 2, 1000, 128 | AT_CAUSAL } },              \
	{ "1x1000x64", { 1, 1000, 64 } },                                   \
	{ "1x4096x64-causal", { 1, 4096, 64 | AT_CAUSAL } }

/*
 * Benchmark: 16 heads of 4096 queries and keys, causal at both head sizes
 * (language models' attention is causal) and full at 128, combined by
 * geometric mean. The eager paths' scores are 1.5 GiB there (6 bytes a
 * score), what an 8 GiB card still holds, and the naive takes 45 to 90
 * ms a call (H200), so a grade stays well under a minute; 4096 is long
 * enough that the score matrix, not q, k, v, is the eager path's traffic.
 */
#define ATTENTION_BENCH                                                    \
	{ "16x4096x64-causal", { 16, 4096, 64 | AT_CAUSAL } },              \
	{ "16x4096x128-causal", { 16, 4096, 128 | AT_CAUSAL } },            \
	{ "16x4096x128", { 16, 4096, 128 } }

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

#define NO_LIBRARY_ATTENTION                                               \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a library call (cuBLAS, cuDNN, CUB)",                             \
	  "The fused kernel is the exercise; cuBLAS's eager path is the "    \
	  "ideal the tiers are shares of." }

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
		 * Tiers: shares of the roofline, its FLOPs at the tensor
		 * cores' peak, which a probe measures in the same rounds
		 * (wgmma on a Hopper GPU, mma.sync before it: common/probe.cu,
		 * peak_sm90.cu), or its bytes at the DRAM's rate if longer.
		 * cublasGemmEx is shown beside it, a peer, not the limit.
		 * Five tiers, one for each step that buys time. Measured on
		 * an H200 (tests/gpu/calibrate.sh, 2026-11-28; the wgmma peak
		 * 906 TFLOP/s; cuBLAS's first quartile 180 us, 84%): the
		 * naive (CUDA cores) 0.9%; 1-wmma 3.0% (tier 1, 1.7%: the
		 * tensor cores at all, fragments straight from global
		 * memory); 2-mma-sync 7.3% (tier 2, 4.6%: shared tiles,
		 * ldmatrix and mma.sync by hand); 3-cp-async 10.8% (tier 3,
		 * 8.6%: the pipeline hides the loads; the unpadded rows'
		 * bank conflicts remain); 4-swizzle 28% (tier 4, 18%: the
		 * conflicts gone), steps 5 to 7 27% to 34%; the solution,
		 * step 8, 45% (tier 5, 39%: the copies' arithmetic done once,
		 * so the tensor cores stop waiting behind it). Each boundary
		 * sits 13% or more from every step. mma.sync itself reaches
		 * about two thirds of wgmma's rate on a Hopper GPU: the top
		 * tier is within reach of it, and a wgmma kernel goes past.
		 */
		.tiers = { { 0.017, 12 }, { 0.046, 24 }, { 0.086, 36 },
			   { 0.18, 48 }, { 0.39, 60 } },
		.ideal = WB_IDEAL_ROOF,
		/* bf16 mma.sync, ldmatrix and cp.async: sm_80 on. */
		.min_cc = 80,
		/* Its FLOPs run on tensor cores: the SUSPICIOUS ceiling is
		 * their peak (grader/score/plausible.c). */
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
	{
		.name = "attention",
		.title = "fused attention forward: softmax(q k^T / sqrt(d)) v",
		.kind = WB_SPEED,
		.sizes = { ATTENTION_SIZES },
		.bench = { ATTENTION_BENCH },
		/* Correct code earns 40; speed the other 60, as hgemm. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the roofline, its FLOPs (4 heads seq^2
		 * dim, half of it causal) at the tensor cores' peak measured
		 * in the same rounds, as hgemm's. The eager path on cuBLAS
		 * (peers.cu) is shown beside it, a peer: a share of it moved
		 * with the GPU's DRAM bandwidth (the same kernel read 365% on
		 * an H200 and 453% on an H100). Measured on an H200
		 * (tests/gpu/calibrate.sh, 2026-11-28; the wgmma peak 835 to
		 * 907 TFLOP/s by shape): the naive 0.02%; step 2-mma-sync
		 * 3.6%, 3-cp-async 4.1% (tier 1, 2.5%: the tensor cores, and
		 * the score matrix kept on chip); 4-causal-skip 5.5% (tier
		 * 2, 4.8%: the masked tiles skipped); the previous solution
		 * (swizzled tiles, P kept in registers, 64 query rows a
		 * block) 20.6% (tier 3, 18%: the README's design reaches it);
		 * the solution (128 rows a block, 32 a warp, so each K and V
		 * fragment feeds two products) 32%, 276 TFLOP/s, 3.9x the
		 * eager path on cuBLAS.
		 */
		.tiers = { { 0.025, 20 }, { 0.048, 40 }, { 0.18, 60 } },
		.ideal = WB_IDEAL_ROOF,
		/* bf16 mma.sync, ldmatrix and cp.async: sm_80 on. */
		.min_cc = 80,
		/* Both products run on the tensor cores. */
		.tensor_flops = 1,
		/* make profile: ldmatrix's bank conflicts (the swizzle), the
		 * stalls of the pipeline, occupancy against shared memory and
		 * registers, and DRAM bytes (the eager path's score matrix). */
		.profile = WB_PROF_SHARED | WB_PROF_OCCUPANCY | WB_PROF_STALLS |
			   WB_PROF_THROUGHPUT,
		/* The naive takes 45 to 90 ms a call at the benchmark (H200),
		 * ~15 rounds a shape, and each check there samples 256 rows
		 * (~0.3 s on one core); 180 s only stops hangs. */
		.timeout_s = 180,
		.setup = attention_setup,
		.run = attention_run,
		.check = attention_check,
		.traffic = attention_traffic,
		.rules = { MUST_TENSOR_CORES, NO_LIBRARY_ATTENTION },
	},
};

const struct wb_lab wb_lab = {
	.name = "08-tensor-cores",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
