/* SPDX-License-Identifier: MIT */
/*
 * lab_hooks.h - lab 02's private declarations: the weak references to the
 * students' entry points, what the table (lab.c) and the exercise files
 * share, and the hooks each ex_*.c defines for the table (named lab02_*, so
 * that nothing of a submission's can take their place). Lab code only: it
 * is not in lab.mk's HEADERS, so no submission can include it
 * (grader/build.sh).
 */
#ifndef LAB02_HOOKS_H
#define LAB02_HOOKS_H

#include "harness.h"
#include "shfl.h"

/* One runner links one submission file: the other entry points are NULL,
 * and so are the peers if PEER_SRCS is emptied. */
#pragma weak neighbors
#pragma weak segment_sum
#pragma weak segment_scan
#pragma weak filter
#pragma weak lockstep_matvec
#pragma weak peer_segment_sum
#pragma weak peer_segment_scan
#pragma weak peer_filter

/* How many of the inputs a size keeps: n[1] picks the threshold. */
enum { KEEP_HALF, KEEP_SPARSE, KEEP_ALL, KEEP_NONE };

/* What each file defines for the others: the table's hooks, and the
 * helpers the exercises share. */

/* ex_neighbors.c */
int lab02_neighbors_setup(struct wb_ctx *c);
int lab02_neighbors_run(struct wb_ctx *c, enum wb_impl impl);
void lab02_neighbors_check(struct wb_ctx *c);

/* ex_segments.c */
int lab02_segment_sum_setup(struct wb_ctx *c);
int lab02_segment_sum_run(struct wb_ctx *c, enum wb_impl impl);
void lab02_segment_sum_check(struct wb_ctx *c);
void lab02_segment_sum_traffic(const struct wb_size *s, struct wb_traffic *t);
int lab02_segment_scan_setup(struct wb_ctx *c);
int lab02_segment_scan_run(struct wb_ctx *c, enum wb_impl impl);
void lab02_segment_scan_check(struct wb_ctx *c);
void lab02_segment_scan_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_filter.c */
int lab02_filter_setup(struct wb_ctx *c);
int lab02_filter_run(struct wb_ctx *c, enum wb_impl impl);
void lab02_filter_check(struct wb_ctx *c);
void lab02_filter_traffic(const struct wb_size *s, struct wb_traffic *t);

/* ex_lockstep.c */
int lab02_lockstep_setup(struct wb_ctx *c);
int lab02_lockstep_run(struct wb_ctx *c, enum wb_impl impl);
void lab02_lockstep_check(struct wb_ctx *c);

#endif /* LAB02_HOOKS_H */
