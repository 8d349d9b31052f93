/* SPDX-License-Identifier: MIT */
/*
 * lab_check.c - what a lab's check() calls (harness.h): the comparisons
 * wb_check_f32() and wb_check_i64(), and wb_ref_scratch() for the double
 * reference.
 *
 * A comparison is made by check.c, fed to the diagnosis (diag.h) and, when
 * values are wrong, reported through wb_fail() with the first mismatches.
 * Host code with no CUDA: the unit tests include it whole
 * (tests/unit/test_lab_check.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "harness.h"
#include "integrity.h"

static void report_cmp(struct wb_ctx *c, const char *what,
		       const struct wb_cmp *r, const char *tol)
{
	wb_fail(c, "%zu of %zu values of %s wrong (%s)%s%s", r->bad, r->n,
		what, tol,
		r->poisoned == r->n ? ": none was written" :
		r->poisoned ? ": some never written (still poison)" : "",
		r->nonfinite && r->poisoned != r->n ? ", NaN or inf among them" :
						      "");
	for (size_t i = 0; i < r->nshown; i++)
		wb_fail(c, "  %s[%zu] = %.9g, expected %.9g", what,
			r->shown[i].index, r->shown[i].got, r->shown[i].want);
}

void wb_check_f32(struct wb_ctx *c, const char *what, const float *got,
		  const double *want, size_t n, double atol, double rtol)
{
	struct wb_cmp r;
	char tol[96];

	wb_cmp_f32(got, want, n, atol, rtol, &r);
	if (r.bad || wb_diag.rerun)
		wb_diag_cmp_f32(&wb_diag, got, want, n, atol, rtol);
	else
		wb_diag_cmp_ok(&wb_diag, n);
	if (!r.bad)
		return;
	snprintf(tol, sizeof(tol), "tolerance %.3g + %.3g x |expected|", atol,
		 rtol);
	report_cmp(c, what, &r, tol);
}

void wb_check_i64(struct wb_ctx *c, const char *what, const int64_t *got,
		  const int64_t *want, size_t n)
{
	struct wb_cmp r;

	wb_cmp_i64(got, want, n, &r);
	if (r.bad || wb_diag.rerun)
		wb_diag_cmp_i64(&wb_diag, got, want, n);
	else
		wb_diag_cmp_ok(&wb_diag, n);
	if (r.bad)
		report_cmp(c, what, &r, "must match exactly");
}

double *wb_ref_scratch(struct wb_ctx *c, size_t n)
{
	double *p = malloc(n * sizeof(double));

	if (!p)
		wb_fail(c, "the grader ran out of host memory for its "
			   "reference");
	return p;
}
