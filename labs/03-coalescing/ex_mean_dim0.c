/* SPDX-License-Identifier: MIT */
/*
 * ex_mean_dim0.c - lab 03's mean_dim0: its CPU reference and its hooks for
 * the table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include "harness.h"
#include "coalescing.h"
#include "lab_hooks.h"

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

/* ---- mean_dim0 ---- */

enum { MD_IN, MD_OUT };

int lab03_mean_setup(struct wb_ctx *c)
{
	size_t k = c->size->n[0], l = c->size->n[1], m = c->size->n[2];
	float *in = wb_input_as(c, "in", k * l * m * sizeof(float),
				WB_FRESH_F32);

	/* Signed values: each mean is small next to the terms, so a term
	 * dropped, repeated or taken from the wrong slice shows. */
	wb_fill_uniform(c, in, k * l * m, -1.0, 1.0);
	wb_output(c, "out", l * m * sizeof(float));
	return 0;
}

typedef void mean_fn(const float *, float *, size_t, size_t, size_t);

int lab03_mean_run(struct wb_ctx *c, enum wb_impl impl)
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

/* Outputs [k CHECK_CHUNK, (k + 1) CHECK_CHUNK) (wb_check_chunks). */
static void mean_chunk(struct wb_ctx *c, struct wb_chunks *p, size_t q,
		       double *want, const void *arg)
{
	const float *in = c->buf[MD_IN].host, *out = c->buf[MD_OUT].host;
	size_t k = c->size->n[0], lm = c->size->n[1] * c->size->n[2];
	size_t j0 = q * CHECK_CHUNK;
	size_t len = lm - j0 < CHECK_CHUNK ? lm - j0 : CHECK_CHUNK;

	(void)arg;
	cpu_mean_chunk(in, k, lm, j0, len, want);
	wb_chunk_f32(p, "out", out + j0, want, len, MEAN_ATOL, MEAN_RTOL);
}

static void mean_note(struct wb_ctx *c, size_t q, size_t nchunks)
{
	(void)nchunks;
	wb_fail(c, "  (out[i][j] is element i * m + j, m = %zu)",
		c->size->n[2]);
	if (q)
		wb_fail(c, "  (the indices above count from element %zu)",
			q * CHECK_CHUNK);
}

/* Chunk by chunk of the output, on several threads, so the double
 * reference stays small. */
void lab03_mean_check(struct wb_ctx *c)
{
	size_t lm = c->size->n[1] * c->size->n[2];

	wb_check_chunks(c, wb_ceil_div(lm, CHECK_CHUNK),
			lm < CHECK_CHUNK ? lm : CHECK_CHUNK, mean_chunk, NULL,
			mean_note);
}

/* in (k x l x m) read, out (l x m) written. */
void lab03_mean_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0] * s->n[1] * s->n[2];
	t->write = 4.0 * s->n[1] * s->n[2];
}
