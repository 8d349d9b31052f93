/* SPDX-License-Identifier: MIT */
/*
 * record.h - reading what runners say (record.c): a lab's `info --list`
 * table and an exercise's result record (common/result.h) with its raw
 * samples, and the details a result collects on the way.
 */
#ifndef GRADER_RECORD_H
#define GRADER_RECORD_H

#include "grade.h"
#include "../common/knobs.h"

/* The benchmark shapes and rounds a record may hold: harness.h's
 * WB_MAX_BENCH (harness.h is the runner's: it is not included here) and
 * the rounds a shape keeps at most. */
#define G_MAX_SHAPES 3
#define G_MAX_ROUNDS WB_MAX_SAMPLES

/* What each round of a shape times (result.h's "sample" columns). */
enum g_series { G_S_OTHER, G_S_NAIVE, G_S_IDEAL, G_SERIES };

/* One benchmark shape's rounds, raw, as its "shape" and "sample" lines
 * give them (result.h). */
struct g_shape {
	char label[G_NAME_LEN];
	int rounds;             /* what the "shape" line declares */
	int n;                  /* "sample" lines read */
	char who[8];            /* G_S_OTHER's series: student, peer or - */
	double small;           /* 1: a small shape (knobs.h,
				 * WB_LAUNCH_BYTES), whose stated intervals
				 * widen more; 0: not */
	double mhz_min, mhz_med, mhz_max;
	double us[G_SERIES][G_MAX_ROUNDS];
};

/* A record's raw samples (large: not on the stack). */
struct g_samples {
	int nshapes;
	int bad;                /* a line out of order or beyond the limits */
	char why[160];          /* the first such line, in words */
	struct g_shape shape[G_MAX_SHAPES];
};

/* Parse `info --list` output; returns the number of specs, -1 if garbled. */
int g_parse_list(const char *text, const char *lab, struct g_spec *out,
		 int max);
/* Parse a result channel record into r (verdict, details, timings); its
 * "shape" and "sample" lines are passed over. */
void g_parse_record(const char *text, struct g_result *r);
/* The same, with the raw samples into smp (its lines out of order or
 * beyond the limits are noted in smp->bad, for g_measure() to judge). */
void g_parse_record_samples(const char *text, struct g_result *r,
			    struct g_samples *smp);
/* Append a detail line (printf format) to r. */
void g_detail(struct g_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Put a detail line before the others (the last one goes when r has
 * G_MAX_DETAILS): what decided the verdict comes first. */
void g_detail_first(struct g_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* GRADER_RECORD_H */
