/* SPDX-License-Identifier: MIT */
/*
 * ex_transpose.c - lab 04's transpose: its check and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tiling.h"
#include "lab_hooks.h"

/* ---- transpose ---- */

enum { T_A, T_B };

int lab04_transpose_setup(struct wb_ctx *c)
{
	size_t rows = c->size->n[0], cols = c->size->n[1];
	float *a = wb_input_as(c, "a", rows * cols * sizeof(float),
			       WB_FRESH_F32);

	/* Random values: an element moved to the wrong place is caught,
	 * and so is one rounded or summed on the way. */
	wb_fill_uniform(c, a, rows * cols, -1.0, 1.0);
	wb_output(c, "b", rows * cols * sizeof(float));
	return 0;
}

typedef void transpose_fn(const float *, float *, size_t, size_t);

int lab04_transpose_run(struct wb_ctx *c, enum wb_impl impl)
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
				lab04_tally_bad(t, j, r, got, want, 0);
		}
}

/* What the threads of lab04_transpose_check() share: a tally per stripe of
 * TP_CHECK_BLOCK rows of a. */
struct tp_job {
	const float *a, *b;
	size_t rows, cols;
	struct tally *part;
};

static void tp_check_stripe(size_t k, void *arg)
{
	struct tp_job *j = arg;

	for (size_t c0 = 0; c0 < j->cols; c0 += TP_CHECK_BLOCK)
		tp_check_block(&j->part[k], j->a, j->b, j->rows, j->cols,
			       k * TP_CHECK_BLOCK, c0);
}

/* Exact: a transpose moves bits and computes nothing. Stripe by stripe on
 * several threads (wb_parallel_for), merged in order. */
void lab04_transpose_check(struct wb_ctx *c)
{
	struct tp_job j = {
		.a = c->buf[T_A].host, .b = c->buf[T_B].host,
		.rows = c->size->n[0], .cols = c->size->n[1],
	};
	size_t stripes = wb_ceil_div(j.rows, TP_CHECK_BLOCK);
	struct tally t = { 0 };

	j.part = wb_ref_parts(c, stripes, sizeof(*j.part));
	if (!j.part)
		return;
	wb_parallel_for(stripes, tp_check_stripe, &j);
	for (size_t k = 0; k < stripes; k++)
		lab04_tally_merge(&t, &j.part[k]);
	free(j.part);
	lab04_tally_report(c, &t, "b", "b[c][r] must equal a[r][c] exactly");
}

void lab04_transpose_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0] * s->n[1];
	t->write = 4.0 * s->n[0] * s->n[1];
}
