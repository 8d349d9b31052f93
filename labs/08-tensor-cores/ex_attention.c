/* SPDX-License-Identifier: MIT */
/*
 * ex_attention.c - lab 08's attention: its CPU reference, its tolerance
 * and its hooks for the table in lab.c. A file per exercise keeps lab.c
 * the table alone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tensor_cores.h"
#include "lab_hooks.h"

/* ---- attention ---- */

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
		x[i] = lab08_float_to_bf16(
			(float)wb_rng_range(&c->rng, -amp, amp));
}

int lab08_attention_setup(struct wb_ctx *c)
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

int lab08_attention_run(struct wb_ctx *c, enum wb_impl impl)
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
			double x = lab08_bf16_to_double(q[d]) *
				   lab08_bf16_to_double(kh[j * dim + d]);

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
			double x = lab08_bf16_to_double(vh[j * dim + d]);

			want[d] += sc[j] * x;
			mag[d] += sc[j] * fabs(x);
		}
	for (size_t d = 0; d < dim; d++) {
		want[d] /= sum;
		mag[d] /= sum;
		got[d] = (float)lab08_bf16_to_double(o[d]);
	}
	rho = 2.0 * (double)(dim + 4) * AT_U32 * big + AT_EXP_ERR;
	wb_chunk_f32(p, "o", got, want, dim,
		     (AT_U16 + 2 * rho + (double)(seq + 2) * AT_U32) *
		     lab08_row_max(mag, dim), 2 * AT_U16);
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
		double y = lab08_bf16_to_double(o[x]);

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

void lab08_attention_check(struct wb_ctx *c)
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
void lab08_attention_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	double heads = s->n[0], seq = s->n[1], dim = AT_DIM(s);
	double keys = s->n[2] & AT_CAUSAL ? (seq + 1) / 2 : seq;

	t->read = 3 * 2 * heads * seq * dim;
	t->write = 2 * heads * seq * dim;
	t->flops = 4 * heads * seq * keys * dim;
}
