/* SPDX-License-Identifier: MIT */
/*
 * lab_shared.c - lab 03's helpers that several exercises share: the poison
 * test and the stretch-by-stretch checks (matvec, grayscale), declared in
 * lab_hooks.h.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "coalescing.h"
#include "lab_hooks.h"

/* ---- shared by the exercises ---- */

/* A float that still holds the poison (all bytes 0xff): never written. */
int lab03_is_poison(float v)
{
	uint32_t u;

	memcpy(&u, &v, sizeof(u));
	return u == 0xffffffffu;
}

void lab03_miss_note(struct misses *m, size_t at, int odd, double want,
		     double tol)
{
	if (m->shown < SHOWN) {
		m->at[m->shown] = at;
		m->want[m->shown] = want;
		m->tol[m->shown] = tol;
		m->shown++;
	}
	m->bad++;
	m->odd += odd;
}

/* [*lo, *hi): stretch k of j->n. */
void lab03_stretch_bounds(const struct stretch_job *j, size_t k, size_t *lo,
			  size_t *hi)
{
	*lo = k * STRETCH;
	*hi = *lo + wb_stretch_len(j->n, k, STRETCH);
}

/* fn on every stretch, merged into *m; -1 (the size failed) when the host
 * has no memory for the parts. */
int lab03_by_stretches(struct wb_ctx *c, size_t n, wb_task_fn *fn,
		       struct misses *m)
{
	struct stretch_job j = { .c = c, .n = n };
	size_t parts = wb_ceil_div(n, STRETCH);

	j.part = wb_ref_parts(c, parts, sizeof(*j.part));
	if (!j.part)
		return -1;
	wb_parallel_for(parts, fn, &j);
	for (size_t k = 0; k < parts; k++) {
		const struct misses *p = &j.part[k];

		for (int i = 0; i < p->shown; i++)
			lab03_miss_note(m, p->at[i], 0, p->want[i], p->tol[i]);
		m->bad += p->bad - p->shown;
		m->odd += p->odd;
	}
	free(j.part);
	return 0;
}
