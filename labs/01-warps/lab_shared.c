/* SPDX-License-Identifier: MIT */
/*
 * lab_shared.c - lab 01's helpers that several exercises share: the
 * exact 32-bit comparisons, checked stretch by stretch (branch,
 * trip_count), declared in lab_hooks.h.
 */
#include <stdlib.h>

#include "harness.h"
#include "warps.h"
#include "lab_hooks.h"

/* ---- reporting 32-bit mismatches ---- */

void lab01_u32_note(struct u32_cmp *m, size_t i, unsigned int got,
		    unsigned int want)
{
	if (got == want)
		return;
	if (m->shown < SHOW_MAX) {
		m->index[m->shown] = i;
		m->got[m->shown] = got;
		m->want[m->shown] = want;
		m->shown++;
	}
	m->bad++;
	/* All four bytes still 0xff: the grader's poison, most likely. */
	m->unwritten += got == 0xffffffffu;
}

/* The summary, then the mismatches; why(i) says what element i is. */
void lab01_u32_report(struct wb_ctx *c, const struct u32_cmp *m,
		      const char *what, size_t n, const char *(*why)(size_t))
{
	if (!m->bad)
		return;
	wb_fail(c, "%zu of %zu values of %s wrong (must match exactly)%s",
		m->bad, n, what,
		m->unwritten == n ? ": none was written" :
		m->unwritten ? ": some never written (still poison)" : "");
	for (int k = 0; k < m->shown; k++)
		wb_fail(c, "  %s[%zu] = 0x%08x, expected 0x%08x%s", what,
			m->index[k], m->got[k], m->want[k],
			why ? why(m->index[k]) : "");
}

/* Add a later stretch's comparison to an earlier one's: in order, the
 * first mismatches shown are the ones a single pass would show. */
static void u32_merge(struct u32_cmp *into, const struct u32_cmp *from)
{
	for (int k = 0; k < from->shown && into->shown < SHOW_MAX; k++) {
		into->index[into->shown] = from->index[k];
		into->got[into->shown] = from->got[k];
		into->want[into->shown] = from->want[k];
		into->shown++;
	}
	into->bad += from->bad;
	into->unwritten += from->unwritten;
}

/*
 * The exact checks run stretch by stretch on several threads
 * (wb_parallel_for), each stretch into its own u32_cmp, merged in order.
 * A multiple of 4, as the CPU references take four elements at a time.
 */
#define U32_STRETCH ((size_t)1 << 18)

/* Run fn on every stretch of j->n elements, then merge into *m; 0, or -1
 * (the size failed) when the host has no memory for the parts. */
int lab01_u32_stretches(struct wb_ctx *c, struct u32_job *j, wb_task_fn *fn,
			struct u32_cmp *m)
{
	size_t parts = wb_ceil_div(j->n, U32_STRETCH);

	j->part = wb_ref_parts(c, parts, sizeof(*j->part));
	if (!j->part)
		return -1;
	wb_parallel_for(parts, fn, j);
	for (size_t k = 0; k < parts; k++)
		u32_merge(m, &j->part[k]);
	free(j->part);
	return 0;
}

/* Stretch k of a u32_job: [*lo, *hi). */
void lab01_u32_bounds(const struct u32_job *j, size_t k, size_t *lo,
		      size_t *hi)
{
	*lo = k * U32_STRETCH;
	*hi = j->n - *lo < U32_STRETCH ? j->n : *lo + U32_STRETCH;
}
