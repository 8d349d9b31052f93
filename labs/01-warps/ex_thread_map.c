/* SPDX-License-Identifier: MIT */
/*
 * ex_thread_map.c - lab 01's thread_map: its CPU reference and its hooks
 * for the table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include "harness.h"
#include "warps.h"
#include "lab_hooks.h"

/* ---- thread_map ---- */

/* A launch shape: <<<grid, block>>>. */
struct tm_shape {
	unsigned int grid[3], block[3];
};

/*
 * The shapes, by size index (n[0]); the size labels repeat them. Blocks
 * of 1, 27, 31, 33, 80 (the README's 40x2: three warps, the last half
 * empty), 105, 255 and 1000 threads end in a partial warp; 64, 96 and
 * 1024 do not. Each dimension is the fastest-moving one somewhere (1x1x64
 * has only z), grids are 2-D and 3-D (1x1x5 has only z), and 66000 blocks
 * in x exceed what y and z may hold (65535). 65x31x2 blocks of 17x3x5 is
 * a million threads.
 */
static const struct tm_shape tm_shapes[] = {
	{ { 1, 1, 1 }, { 1, 1, 1 } },
	{ { 2, 3, 1 }, { 33, 1, 1 } },
	{ { 3, 2, 1 }, { 40, 2, 1 } },
	{ { 2, 2, 2 }, { 7, 5, 3 } },
	{ { 4, 5, 6 }, { 3, 3, 3 } },
	{ { 7, 2, 1 }, { 31, 1, 1 } },
	{ { 3, 1, 2 }, { 1, 1, 64 } },
	{ { 1, 9, 1 }, { 2, 64, 1 } },
	{ { 1, 1, 5 }, { 96, 1, 1 } },
	{ { 5, 3, 1 }, { 32, 32, 1 } },
	{ { 3, 2, 2 }, { 16, 16, 4 } },
	{ { 2, 3, 2 }, { 10, 10, 10 } },
	{ { 65, 31, 2 }, { 17, 3, 5 } },
	{ { 66000, 2, 1 }, { 2, 2, 1 } },
};

static size_t tm_block_threads(const struct tm_shape *s)
{
	return (size_t)s->block[0] * s->block[1] * s->block[2];
}

static size_t tm_threads(const struct tm_shape *s)
{
	return (size_t)s->grid[0] * s->grid[1] * s->grid[2] *
	       tm_block_threads(s);
}

/* The record that the definition in warps.h puts at global index g. */
static void cpu_thread_rec(const struct tm_shape *s, size_t g,
			   struct thread_rec *r)
{
	size_t per_block = tm_block_threads(s);
	size_t b = g / per_block, t = g % per_block;
	size_t gx = s->grid[0], gy = s->grid[1];
	size_t bx = s->block[0], by = s->block[1];

	r->block[0] = (unsigned int)(b % gx);
	r->block[1] = (unsigned int)(b / gx % gy);
	r->block[2] = (unsigned int)(b / (gx * gy));
	r->thread[0] = (unsigned int)(t % bx);
	r->thread[1] = (unsigned int)(t / bx % by);
	r->thread[2] = (unsigned int)(t / (bx * by));
	r->warp = (unsigned int)(t / 32);
	r->lane = (unsigned int)(t % 32);
}

static int rec_equal(const struct thread_rec *a, const struct thread_rec *b)
{
	for (int k = 0; k < 3; k++)
		if (a->block[k] != b->block[k] || a->thread[k] != b->thread[k])
			return 0;
	return a->warp == b->warp && a->lane == b->lane;
}

static int rec_poisoned(const struct thread_rec *r)
{
	const unsigned int *w = (const unsigned int *)r;

	for (size_t k = 0; k < sizeof(*r) / sizeof(*w); k++)
		if (w[k] != 0xffffffffu)
			return 0;
	return 1;
}

enum { TM_OUT };

static const struct tm_shape *tm_shape_of(const struct wb_ctx *c)
{
	return &tm_shapes[c->size->n[0]];
}

int lab01_thread_map_setup(struct wb_ctx *c)
{
	wb_output(c, "out",
		  tm_threads(tm_shape_of(c)) * sizeof(struct thread_rec));
	return 0;
}

int lab01_thread_map_run(struct wb_ctx *c, enum wb_impl impl)
{
	const struct tm_shape *s = tm_shape_of(c);
	dim3 grid = { s->grid[0], s->grid[1], s->grid[2] };
	dim3 block = { s->block[0], s->block[1], s->block[2] };

	if (impl != WB_STUDENT || !thread_map)
		return WB_MISSING;
	thread_map(grid, block, wb_dev(c, TM_OUT));
	return 0;
}

static void show_rec(struct wb_ctx *c, size_t g, const struct thread_rec *got,
		     const struct thread_rec *want)
{
	if (rec_poisoned(got)) {
		wb_fail(c, "  out[%zu] never written; it belongs to block "
			   "(%u,%u,%u) thread (%u,%u,%u)", g, want->block[0],
			want->block[1], want->block[2], want->thread[0],
			want->thread[1], want->thread[2]);
		return;
	}
	wb_fail(c, "  out[%zu] = block (%u,%u,%u) thread (%u,%u,%u) warp %u "
		   "lane %u; expected block (%u,%u,%u) thread (%u,%u,%u) warp "
		   "%u lane %u", g, got->block[0], got->block[1], got->block[2],
		got->thread[0], got->thread[1], got->thread[2], got->warp,
		got->lane, want->block[0], want->block[1], want->block[2],
		want->thread[0], want->thread[1], want->thread[2], want->warp,
		want->lane);
}

void lab01_thread_map_check(struct wb_ctx *c)
{
	const struct tm_shape *s = tm_shape_of(c);
	const struct thread_rec *out = c->buf[TM_OUT].host;
	size_t n = tm_threads(s), bad = 0, unwritten = 0, first[SHOW_MAX];
	int shown = 0;

	for (size_t g = 0; g < n; g++) {
		struct thread_rec want;

		cpu_thread_rec(s, g, &want);
		if (rec_equal(&out[g], &want))
			continue;
		if (shown < SHOW_MAX)
			first[shown++] = g;
		bad++;
		unwritten += rec_poisoned(&out[g]);
	}
	if (!bad)
		return;
	wb_fail(c, "%zu of %zu records wrong%s", bad, n,
		unwritten == n ? ": none was written" :
		unwritten ? ", some never written" : "");
	for (int k = 0; k < shown; k++) {
		struct thread_rec want;

		cpu_thread_rec(s, first[k], &want);
		show_rec(c, first[k], &out[first[k]], &want);
	}
}
