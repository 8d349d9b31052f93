/* SPDX-License-Identifier: MIT */
/*
 * ex_fragments.c - lab 08's fragments: its check and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include "harness.h"
#include "tensor_cores.h"
#include "lab_hooks.h"

/* ---- fragments ---- */

/* One tile is a 16 x 16 a, a 16 x 8 b and a 16 x 8 c. */
#define FR_M 16
#define FR_K 16
#define FR_N 8

enum { F_A, F_B, F_C };

int lab08_fragments_setup(struct wb_ctx *c)
{
	size_t tiles = c->size->n[0];
	bf16_bits *a = wb_input(c, "a", tiles * FR_M * FR_K * sizeof(*a));
	bf16_bits *b = wb_input(c, "b", tiles * FR_K * FR_N * sizeof(*b));

	/* Random signed values: an element read from the wrong place, or a
	 * product left out, moves its result by ~0.3 on average. */
	for (size_t i = 0; i < tiles * FR_M * FR_K; i++)
		a[i] = lab08_float_to_bf16(
			(float)wb_rng_range(&c->rng, -1.0, 1.0));
	for (size_t i = 0; i < tiles * FR_K * FR_N; i++)
		b[i] = lab08_float_to_bf16(
			(float)wb_rng_range(&c->rng, -1.0, 1.0));
	wb_output(c, "c", tiles * FR_M * FR_N * sizeof(float));
	return 0;
}

/* Correctness only: the submission alone runs (no naive, no peer). */
int lab08_fragments_run(struct wb_ctx *c, enum wb_impl impl)
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
				s += lab08_bf16_to_double(a[i * FR_K + q]) *
				     lab08_bf16_to_double(b[q * FR_N + j]);
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

void lab08_fragments_check(struct wb_ctx *c)
{
	wb_check_chunks(c, c->size->n[0], FR_M * FR_N, fragments_tile, NULL,
			note_tile);
}

void lab08_fragments_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 2.0 * s->n[0] * (FR_M * FR_K + FR_K * FR_N);
	t->write = 4.0 * s->n[0] * FR_M * FR_N;
}
