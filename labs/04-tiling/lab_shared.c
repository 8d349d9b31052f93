/* SPDX-License-Identifier: MIT */
/*
 * lab_shared.c - lab 04's helpers that several exercises share: the tally
 * of element checks on a matrix (transpose, matmul), declared in
 * lab_hooks.h.
 */
#include <math.h>

#include "harness.h"
#include "tiling.h"
#include "lab_hooks.h"

/* ---- shared by the exercises ---- */

void lab04_tally_bad(struct tally *t, size_t i, size_t j, float got,
		     double want, double tol)
{
	if (!isfinite(got))
		t->nonfinite++;
	if (wb_poisoned_words(&got, 1))
		t->poisoned++;
	if (t->nshown < WB_MAX_SHOWN) {
		t->shown[t->nshown].i = i;
		t->shown[t->nshown].j = j;
		t->shown[t->nshown].got = got;
		t->shown[t->nshown].want = want;
		t->shown[t->nshown].tol = tol;
		t->nshown++;
	}
	t->bad++;
}

/* Add a later tally to an earlier one: in order, the first few shown are
 * the ones one tally over both would show. */
void lab04_tally_merge(struct tally *into, const struct tally *from)
{
	for (int s = 0; s < from->nshown && into->nshown < WB_MAX_SHOWN; s++)
		into->shown[into->nshown++] = from->shown[s];
	into->n += from->n;
	into->bad += from->bad;
	into->poisoned += from->poisoned;
	into->nonfinite += from->nonfinite;
}

/* Report a tally with wrong elements: the count, then the first few. */
void lab04_tally_report(struct wb_ctx *c, const struct tally *t,
			const char *what, const char *rule)
{
	if (!t->bad)
		return;
	wb_fail(c, "%zu of the %zu values of %s checked are wrong (%s)%s%s",
		t->bad, t->n, what, rule,
		t->poisoned == t->n ? ": none was written" :
		t->poisoned ? ": some never written (still poison)" : "",
		t->nonfinite && t->poisoned != t->n ?
			", NaN or inf among them" : "");
	for (int s = 0; s < t->nshown; s++) {
		if (t->shown[s].tol > 0)
			wb_fail(c, "  %s[%zu][%zu] = %.9g, expected %.9g "
				   "(within %.3g)", what, t->shown[s].i,
				t->shown[s].j, t->shown[s].got,
				t->shown[s].want, t->shown[s].tol);
		else
			wb_fail(c, "  %s[%zu][%zu] = %.9g, expected %.9g", what,
				t->shown[s].i, t->shown[s].j, t->shown[s].got,
				t->shown[s].want);
	}
}
