/* SPDX-License-Identifier: MIT */
/*
 * test_lab08_attention.c - lab 08 attention's check, without a GPU: its
 * double-precision reference and derived tolerance pass a float32 kernel
 * that rounds as the fused one does (P to bf16 for P V, float sums, bf16
 * out), and fail the planted bugs of tests/broken/attention-* (a check
 * that cannot fail proves nothing). The lab's C files are included whole
 * (lab.c's table and the hooks it names); the harness functions they call
 * are stubbed here: one thread, buffers on the host.
 */
#include "unit.h"

#include "../../labs/08-tensor-cores/lab.c"
#include "../../labs/08-tensor-cores/lab_shared.c"
#include "../../labs/08-tensor-cores/ex_fragments.c"
#include "../../labs/08-tensor-cores/ex_hgemm.c"
#include "../../labs/08-tensor-cores/ex_attention.c"

/* ---- the harness, on the host ---- */

struct wb_chunks {
	int bad;
};

void wb_fail(struct wb_ctx *c, const char *fmt, ...)
{
	(void)fmt;
	c->failed = 1;
}

void *wb_input_as(struct wb_ctx *c, const char *name, size_t bytes,
		  enum wb_fresh fresh)
{
	struct wb_buf *b = &c->buf[c->nbuf++];

	(void)fresh;
	b->name = name;
	b->bytes = bytes;
	b->host = malloc(bytes);
	assert_non_null(b->host);
	return b->host;
}

void *wb_input(struct wb_ctx *c, const char *name, size_t bytes)
{
	return wb_input_as(c, name, bytes, WB_FRESH_NONE);
}

void *wb_output(struct wb_ctx *c, const char *name, size_t bytes)
{
	return wb_input_as(c, name, bytes, WB_FRESH_NONE);
}

double *wb_ref_scratch(struct wb_ctx *c, size_t n)
{
	(void)c;
	return malloc(n * sizeof(double));
}

void wb_chunk_f32(struct wb_chunks *p, const char *what, const float *got,
		  const double *want, size_t n, double atol, double rtol)
{
	(void)what;
	for (size_t i = 0; i < n; i++)
		p->bad |= !wb_close(got[i], want[i], atol, rtol);
}

void wb_check_chunks(struct wb_ctx *c, size_t nchunks, size_t scratch,
		     wb_chunk_fn *chunk, const void *arg,
		     wb_chunk_note_fn *note)
{
	double *s = malloc(scratch * sizeof(double));

	assert_non_null(s);
	for (size_t k = 0; k < nchunks && !c->failed; k++) {
		struct wb_chunks p = { 0 };

		chunk(c, &p, k, s, arg);
		if (p.bad) {
			c->failed = 1;
			note(c, k, nchunks);
		}
	}
	free(s);
}

/* Not called: the GPU's parts of the lab. */
void *attn_work(size_t bytes)
{
	return bytes ? (void *)1 : NULL;
}

void naive_attention(const bf16_bits *q, const bf16_bits *k,
		     const bf16_bits *v, bf16_bits *o, int heads, int seq,
		     int dim, int causal, void *work)
{
	(void)q, (void)k, (void)v, (void)o, (void)heads, (void)seq;
	(void)dim, (void)causal, (void)work;
}

void naive_hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
		 size_t k, size_t n)
{
	(void)a, (void)b, (void)c, (void)m, (void)k, (void)n;
}

const char *hg_ref(const bf16_bits *a, const bf16_bits *b, size_t m,
		   size_t k, size_t n, double *want, double *mag)
{
	(void)a, (void)b, (void)m, (void)k, (void)n, (void)want, (void)mag;
	return "not here";
}

/* ---- a fused kernel's arithmetic, on the host ---- */

enum bug { OK, NO_SCALE, CAUSAL_LATE, NO_MAX, LAST_TILE_DROPPED, NO_RESCALE };

#define TILE 64

struct shape {
	const bf16_bits *q, *k, *v;
	bf16_bits *o;
	int seq, dim, causal;
	enum bug bug;
};

static float ld(const bf16_bits *p, long i)
{
	return (float)lab08_bf16_to_double(p[i]);
}

/* Tile t's scores for query row r (head offset h0), masked to -inf. */
static float tile_scores(const struct shape *s, long r, long h0, int t,
			 float *sc)
{
	int i = (int)(r - h0), late = s->bug == CAUSAL_LATE;
	float scale = s->bug == NO_SCALE ? 1.0f :
		      (float)(1.0 / sqrt((double)s->dim));
	float mx = -INFINITY;

	for (int jj = 0; jj < TILE; jj++) {
		int j = t * TILE + jj;
		float x = 0;

		sc[jj] = -INFINITY;
		if (j >= s->seq || (s->causal && j > i + late))
			continue;
		for (int d = 0; d < s->dim; d++)
			x += ld(s->q, r * s->dim + d) *
			     ld(s->k, (h0 + j) * s->dim + d);
		sc[jj] = x * scale;
		mx = fmaxf(mx, sc[jj]);
	}
	return mx;
}

/* One query row: the online softmax over 64-key tiles, P to bf16. */
static void fused_row(const struct shape *s, long r, float *acc)
{
	long h0 = r - r % s->seq;
	int tiles = (s->seq + TILE - 1) / TILE;
	float m = -INFINITY, l = 0, sc[TILE];

	if (s->bug == LAST_TILE_DROPPED && s->seq > TILE)
		tiles = s->seq / TILE;
	memset(acc, 0, s->dim * sizeof(*acc));
	for (int t = 0; t < tiles; t++) {
		float mn = fmaxf(m, tile_scores(s, r, h0, t, sc));
		float base = mn == -INFINITY || s->bug == NO_MAX ? 0 : mn;
		float al = s->bug == NO_MAX || s->bug == NO_RESCALE ? 1 :
			   expf(m - base);

		l *= al;
		for (int d = 0; d < s->dim; d++)
			acc[d] *= al;
		for (int jj = 0; jj < TILE; jj++) {
			float e = expf(sc[jj] - base);
			float p = (float)lab08_bf16_to_double(
				lab08_float_to_bf16(e));
			long j = h0 + t * TILE + jj;

			if (sc[jj] == -INFINITY)
				continue;
			l += e;
			for (int d = 0; d < s->dim; d++)
				acc[d] += p * ld(s->v, j * s->dim + d);
		}
		m = mn;
	}
	for (int d = 0; d < s->dim; d++)
		s->o[r * s->dim + d] = lab08_float_to_bf16(acc[d] / l);
}

/* Set up size z, run the host kernel with bug, check; 1 if it failed. */
static int check_fails(const struct wb_size *sz, enum bug bug)
{
	const struct wb_exercise *ex = &exercises[2];
	struct wb_ctx c;
	struct shape s;
	float acc[128];

	memset(&c, 0, sizeof(c));
	c.ex = ex;
	c.size = sz;
	wb_rng_seed(&c.rng, wb_seed_mix(1, sz->label));
	assert_int_equal(ex->setup(&c), 0);
	s = (struct shape){ c.buf[A_Q].host, c.buf[A_K].host, c.buf[A_V].host,
			    c.buf[A_O].host, (int)sz->n[1], AT_DIM(sz),
			    (sz->n[2] & AT_CAUSAL) != 0, bug };
	for (long r = 0; r < (long)(sz->n[0] * sz->n[1]); r++)
		fused_row(&s, r, acc);
	ex->check(&c);
	for (int b = 0; b < c.nbuf; b++)
		free(c.buf[b].host);
	return c.failed;
}

/* The checked sizes up to seq 1000 (4096 takes seconds here). */
static int short_size(const struct wb_size *sz)
{
	return sz->n[1] <= 1000;
}

static void correct_kernel_passes_every_size(void **state)
{
	const struct wb_exercise *ex = &exercises[2];

	(void)state;
	assert_string_equal(ex->name, "attention");
	for (int z = 0; ex->sizes[z].label; z++)
		if (short_size(&ex->sizes[z]) &&
		    check_fails(&ex->sizes[z], OK))
			fail_msg("a correct kernel fails at %s",
				 ex->sizes[z].label);
}

/* Each planted bug fails at least one size. */
static void bug_caught(enum bug bug, const char *name)
{
	const struct wb_exercise *ex = &exercises[2];

	for (int z = 0; ex->sizes[z].label; z++)
		if (short_size(&ex->sizes[z]) &&
		    check_fails(&ex->sizes[z], bug))
			return;
	fail_msg("%s passes every size", name);
}

static void bugs_are_caught(void **state)
{
	(void)state;
	bug_caught(NO_SCALE, "no 1/sqrt(dim)");
	bug_caught(CAUSAL_LATE, "a causal mask one key late");
	bug_caught(NO_MAX, "no max subtraction");
	bug_caught(LAST_TILE_DROPPED, "the last partial tile dropped");
	bug_caught(NO_RESCALE, "no rescale by 2^(m - m')");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(correct_kernel_passes_every_size),
		cmocka_unit_test(bugs_are_caught),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
