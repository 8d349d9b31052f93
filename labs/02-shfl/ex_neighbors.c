/* SPDX-License-Identifier: MIT */
/*
 * ex_neighbors.c - lab 02's neighbors: its CPU reference and its hooks
 * for the table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <string.h>

#include "harness.h"
#include "shfl.h"
#include "lab_hooks.h"

/* ---- neighbors ---- */

enum { N_OUT };

static size_t nb_threads(const struct wb_size *s)
{
	return s->n[0] * s->n[1] * s->n[2];
}

int lab02_neighbors_setup(struct wb_ctx *c)
{
	size_t bytes = nb_threads(c->size) * SHFL_SEG * NEIGHBORS_COORDS *
		       sizeof(int);

	wb_output(c, "out", bytes);
	return 0;
}

int lab02_neighbors_run(struct wb_ctx *c, enum wb_impl impl)
{
	const struct wb_size *s = c->size;

	/* Correctness only: there is no naive and no peer to call. */
	if (impl != WB_STUDENT || !neighbors)
		return WB_MISSING;
	neighbors(wb_dev(c, N_OUT), (unsigned int)s->n[0],
		  (unsigned int)s->n[1], (unsigned int)s->n[2]);
	return 0;
}

/* The expected (x, y, z) of thread u of a bx x by block, or -1s past nt. */
static void nb_coords(size_t u, size_t nt, size_t bx, size_t by, int *want)
{
	if (u >= nt) {
		want[0] = want[1] = want[2] = -1;
		return;
	}
	want[0] = (int)(u % bx);
	want[1] = (int)(u / bx % by);
	want[2] = (int)(u / (bx * by));
}

/* Is the entry of thread t, lane j right? want gets what it should be. */
static int nb_entry_ok(const int *out, const struct wb_size *s, size_t t,
		       size_t j, int *want)
{
	nb_coords(t / SHFL_SEG * SHFL_SEG + j, nb_threads(s), s->n[0], s->n[1],
		  want);
	return !memcmp(out + (t * SHFL_SEG + j) * 3, want, 3 * sizeof(int));
}

/* Count the wrong (thread, lane) entries, then show the first few as
 * "thread (x,y,z), lane j: got (...), expected (...)". */
void lab02_neighbors_check(struct wb_ctx *c)
{
	const int *out = c->buf[N_OUT].host;
	const struct wb_size *s = c->size;
	size_t nt = nb_threads(s), bad = 0, unwritten = 0, shown = 0;
	int want[3], me[3];

	for (size_t t = 0; t < nt; t++)
		for (size_t j = 0; j < SHFL_SEG; j++) {
			const int *got = out + (t * SHFL_SEG + j) * 3;

			if (nb_entry_ok(out, s, t, j, want))
				continue;
			bad++;
			unwritten += got[0] == -1 && got[1] == -1 && got[2] == -1;
		}
	if (!bad)
		return;
	wb_fail(c, "%zu of %zu (thread, lane) entries wrong%s", bad,
		nt * SHFL_SEG,
		unwritten ? ", some still -1 (never written?)" : "");
	for (size_t t = 0; t < nt && shown < WB_MAX_SHOWN; t++)
		for (size_t j = 0; j < SHFL_SEG && shown < WB_MAX_SHOWN; j++) {
			const int *got = out + (t * SHFL_SEG + j) * 3;

			if (nb_entry_ok(out, s, t, j, want))
				continue;
			shown++;
			nb_coords(t, nt, s->n[0], s->n[1], me);
			wb_fail(c, "  thread (%d,%d,%d), lane %zu: got (%d,%d,%d), "
				   "expected (%d,%d,%d)%s", me[0], me[1], me[2], j,
				got[0], got[1], got[2], want[0], want[1], want[2],
				want[0] < 0 ? ": its warp has no such lane" : "");
		}
}
