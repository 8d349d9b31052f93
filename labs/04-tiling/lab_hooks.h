/* SPDX-License-Identifier: MIT */
/*
 * lab_hooks.h - lab 04's private declarations: the weak references to the
 * students' entry points, what the table (lab.c) and the exercise files
 * share, and the hooks each ex_*.c defines for the table (named lab04_*, so
 * that nothing of a submission's can take their place). Lab code only: it
 * is not in lab.mk's HEADERS, so no submission can include it
 * (grader/build.sh).
 */
#ifndef LAB04_HOOKS_H
#define LAB04_HOOKS_H

#include "harness.h"
#include "tiling.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak transpose
#pragma weak matmul
#pragma weak roofline
#pragma weak peak
#pragma weak constant_passes
#pragma weak peer_transpose
#pragma weak peer_matmul

/*
 * A tally of element checks on a matrix, for the checks that compare
 * elements one at a time with a tolerance of their own (matmul) or bit for
 * bit (transpose): how many were checked and wrong, and the first few
 * mismatches by row and column.
 */
struct tally {
	size_t n, bad, poisoned, nonfinite;
	int nshown;
	struct {
		size_t i, j;
		double got, want, tol;
	} shown[WB_MAX_SHOWN];
};

/* roofline: the groups, by size index (n[0]). */
enum { ROOF_LAB, ROOF_EDGES, ROOF_WORKED, ROOF_RANDOM };

/* peak: the groups, by size index (n[0]). */
enum { PEAK_LAB, PEAK_WORKED, PEAK_RANDOM };

/* constant: the groups, by size index (n[0]). */
enum { CONST_LAB, CONST_WORKED, CONST_RANDOM };

/* What each file defines for the others: the table's hooks, and the
 * helpers the exercises share. */

/* lab_shared.c */
void lab04_tally_bad(struct tally *t, size_t i, size_t j, float got,
		     double want, double tol);
void lab04_tally_merge(struct tally *into, const struct tally *from);
void lab04_tally_report(struct wb_ctx *c, const struct tally *t,
			const char *what, const char *rule);

/* ex_transpose.c */
int lab04_transpose_setup(struct wb_ctx *c);
int lab04_transpose_run(struct wb_ctx *c, enum wb_impl impl);
void lab04_transpose_check(struct wb_ctx *c);
void lab04_transpose_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_matmul.c */
int lab04_matmul_setup(struct wb_ctx *c);
int lab04_matmul_run(struct wb_ctx *c, enum wb_impl impl);
void lab04_matmul_check(struct wb_ctx *c);
void lab04_matmul_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_roofline.c */
int lab04_roofline_setup(struct wb_ctx *c);
int lab04_roofline_run(struct wb_ctx *c, enum wb_impl impl);
void lab04_roofline_check(struct wb_ctx *c);
int lab04_peak_setup(struct wb_ctx *c);
int lab04_peak_run(struct wb_ctx *c, enum wb_impl impl);
void lab04_peak_check(struct wb_ctx *c);

/* ex_constant.c */
int lab04_constant_setup(struct wb_ctx *c);
int lab04_constant_run(struct wb_ctx *c, enum wb_impl impl);
void lab04_constant_check(struct wb_ctx *c);

#endif /* LAB04_HOOKS_H */
