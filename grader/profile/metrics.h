/* SPDX-License-Identifier: MIT */
/*
 * metrics.h - the Nsight Compute metrics the grader asks for (metrics.c).
 *
 * One table, indexed by enum prof_metric (profile.h): each metric's ncu
 * name, the unit its values are kept in, and how it combines over the
 * kernels of one call. Running ncu (ncu.c) asks for these names, reading
 * its CSV (ncu_csv.c) finds them among the columns, and combining kernels
 * (profile_derive.c) follows their rule.
 */
#ifndef GRADER_METRICS_H
#define GRADER_METRICS_H

#include "profile.h"

/* How a metric combines over the kernels of one call. */
enum metric_agg {
	AGG_SUM,  /* a count: add */
	AGG_TIME, /* a rate, a ratio, a percentage: weight by duration */
	AGG_MAIN, /* a launch figure: take the longest kernel's */
};

/* What the units row of ncu's CSV may scale, and to what. */
enum metric_unit {
	UNIT_NONE,  /* nothing to scale */
	UNIT_TIME,  /* to nanoseconds */
	UNIT_BYTES, /* to bytes */
};

/* The warp stall reasons asked for, in the order of ncu's names: reason i
 * is metric M_STALL_FIRST + i. */
extern const char *const metric_stall_names[PROF_NSTALLS];

/* m's ncu name ("dram__bytes_read.sum"); NULL when m is not a metric. */
const char *metric_name(int m);

/* The metric whose ncu name is exactly name, or -1. */
int metric_index(const char *name);

/* How metric m (0 <= m < PROF_NMETRICS) combines over kernels. */
enum metric_agg metric_agg(int m);

/* The unit metric m (0 <= m < PROF_NMETRICS) is kept in. */
enum metric_unit metric_unit(int m);

#endif /* GRADER_METRICS_H */
