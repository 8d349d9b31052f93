/* SPDX-License-Identifier: MIT */
/*
 * lab_hooks.h - lab 01's private declarations: the weak references to the
 * students' entry points, what the table (lab.c) and the exercise files
 * share, and the hooks each ex_*.c defines for the table (named lab01_*, so
 * that nothing of a submission's can take their place). Lab code only: it
 * is not in lab.mk's HEADERS, so no submission can include it
 * (grader/build.sh).
 */
#ifndef LAB01_HOOKS_H
#define LAB01_HOOKS_H

#include "harness.h"
#include "warps.h"

/* One runner links one submission file: the other entry points are NULL. */
#pragma weak thread_map
#pragma weak branch
#pragma weak trip_count
#pragma weak blocks_per_sm
#pragma weak branch_eff
#pragma weak spills

/* The most mismatches shown per size: enough to see a pattern. */
#define SHOW_MAX 6

/* The first SHOW_MAX mismatches of an output, and how many there were. */
struct u32_cmp {
	size_t bad, unwritten;
	int shown;
	size_t index[SHOW_MAX];
	unsigned int got[SHOW_MAX], want[SHOW_MAX];
};

/* What a stretch-by-stretch check shares with its threads. */
struct u32_job {
	const unsigned int *in, *out;
	const unsigned char *cnt;   /* trip_count */
	size_t n;
	struct u32_cmp *part;       /* one per stretch */
};

/* trip_count: how the counts are drawn (a size's n[1]). */
enum { TRIP_SKEWED, TRIP_ALL_HEAVY, TRIP_ANY_BYTE };

/* The number of elements of an array (branch_eff, spills). */
#define BE_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* branch_eff: the groups, by size index (n[0]). */
enum { BE_LAB, BE_WORKED, BE_RANDOM };

/* spills: the groups, by size index (n[0]). */
enum { SP_LAB, SP_WORKED, SP_RANDOM };

/* What each file defines for the others: the table's hooks, and the
 * helpers the exercises share. */

/* lab_shared.c */
void lab01_u32_note(struct u32_cmp *m, size_t i, unsigned int got,
		    unsigned int want);
void lab01_u32_report(struct wb_ctx *c, const struct u32_cmp *m,
		      const char *what, size_t n, const char *(*why)(size_t));
int lab01_u32_stretches(struct wb_ctx *c, struct u32_job *j, wb_task_fn *fn,
			struct u32_cmp *m);
void lab01_u32_bounds(const struct u32_job *j, size_t k, size_t *lo,
		      size_t *hi);

/* ex_thread_map.c */
int lab01_thread_map_setup(struct wb_ctx *c);
int lab01_thread_map_run(struct wb_ctx *c, enum wb_impl impl);
void lab01_thread_map_check(struct wb_ctx *c);

/* ex_branch.c */
int lab01_branch_setup(struct wb_ctx *c);
int lab01_branch_run(struct wb_ctx *c, enum wb_impl impl);
void lab01_branch_check(struct wb_ctx *c);
void lab01_branch_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_trip_count.c */
int lab01_trip_count_setup(struct wb_ctx *c);
int lab01_trip_count_run(struct wb_ctx *c, enum wb_impl impl);
void lab01_trip_count_check(struct wb_ctx *c);
void lab01_trip_count_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_occupancy.c */
int lab01_occupancy_setup(struct wb_ctx *c);
int lab01_occupancy_run(struct wb_ctx *c, enum wb_impl impl);
void lab01_occupancy_check(struct wb_ctx *c);

/* ex_branch_eff.c */
int lab01_branch_eff_setup(struct wb_ctx *c);
int lab01_branch_eff_run(struct wb_ctx *c, enum wb_impl impl);
void lab01_branch_eff_check(struct wb_ctx *c);

/* ex_spills.c */
int lab01_spills_setup(struct wb_ctx *c);
int lab01_spills_run(struct wb_ctx *c, enum wb_impl impl);
void lab01_spills_check(struct wb_ctx *c);

#endif /* LAB01_HOOKS_H */
