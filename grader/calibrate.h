/* SPDX-License-Identifier: MIT */
/*
 * calibrate.h - propose tiers for this GPU from measured speedups.
 *
 * make calibrate grades solutions/ several times, the naive code timed
 * against itself, and the ladder steps once (tools/calibrate.sh), all into
 * one all.tsv: "source lab exercise verdict points max speedup ...", where
 * source is "solutions", "naive" or "ladder/<step>". From it, each timed
 * exercise gets tiers that the solution clears with margin on every run
 * and that the naive stays below, written as a course settings file
 * (course.h) that make grade COURSE=... takes as it is.
 */
#ifndef GRADER_CALIBRATE_H
#define GRADER_CALIBRATE_H

#include <stdio.h>

#include "grade.h"
#include "report.h"

/* The top tier sits this far under the slowest solution run: five runs of
 * the same code on one H200 spread by up to 5% (lab 05's sum: 7.99x to
 * 8.36x), and another board of the same model, or a busier day, by more. */
#define CALIB_TOP_MARGIN 0.15
/* The first tier sits this far above the fastest naive-vs-naive run (1.0x
 * when not measured): naive timed against itself lands within 1-2% of 1.0x,
 * and a code no faster than the naive must earn no speed points. */
#define CALIB_NAIVE_MARGIN 0.05
/* Solution runs that spread more than this are flagged: the GPU was busy
 * or throttling, and the tiers rest on a noisy minimum. */
#define CALIB_MAX_SPREAD 0.10

#define CALIB_MAX_STEPS 8

struct calib_ex {
	char lab[G_NAME_LEN];
	char name[G_NAME_LEN];
	int sol_runs, sol_failed;  /* solution rows; of them not PASS */
	double sol_min, sol_max;   /* speedups of the passing runs */
	int naive_runs;
	double naive_min, naive_max;
	int nsteps;
	char step[CALIB_MAX_STEPS][G_NAME_LEN];
	double step_speedup[CALIB_MAX_STEPS]; /* 0: did not pass */
};

/* Parse all.tsv text ('#' lines are comments) into out; the number of
 * exercises seen, or -1 if a line is garbled. */
int calib_parse(const char *text, struct calib_ex *out, int max);
/* The measurements of lab/name in ms[0..n), or NULL. */
const struct calib_ex *calib_find(const struct calib_ex *ms, int n,
				  const char *lab, const char *name);
/* Tiers for s from m: out is s with new tier speedups (the lab's points).
 * 0, or -1 with the reason in why when none can be proposed. */
int calib_propose(const struct g_spec *s, const struct calib_ex *m,
		  struct g_spec *out, char *why, size_t n);
/* The course settings file for rows, from the measurements; returns how
 * many timed exercises got no proposal. */
int calib_write(FILE *f, const char *from, const struct g_row *rows,
		int nrows, const struct calib_ex *ms, int n);
/* Read tsv_path and write its proposal for rows to f: 0 every timed
 * exercise got tiers, 1 some did not, 2 the file could not be read. */
int calib_run(const char *tsv_path, const struct g_row *rows, int nrows,
	      FILE *f);

#endif /* GRADER_CALIBRATE_H */
