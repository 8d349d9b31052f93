/* SPDX-License-Identifier: MIT */
/*
 * calibrate.h - propose tiers for this GPU from measured speedups.
 *
 * make calibrate grades solutions/ several times, the naive code timed
 * against itself, and the ladder steps once (tools/calibrate.sh), all into
 * one all.tsv: "source" then the columns of results.tsv, where source is
 * "solutions", "naive" or "ladder/<step>". From it, each timed exercise
 * gets tiers as shares of the speed of light (the unit of the labs' own
 * tiers): the solution clears the top one with margin on every run, the
 * naive stays below the first, and the ladder steps are shown against
 * them. They are written as a calibration file, in the course settings
 * format (course.h), that make grade finds by itself on a GPU of the same
 * model (calibrations/<model>.conf), or that COURSE= takes as it is.
 */
#ifndef GRADER_CALIBRATE_H
#define GRADER_CALIBRATE_H

#include <stdio.h>

#include "grade.h"

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
	int share_runs;            /* passing runs that measured a share */
	double share_min, share_max; /* their shares of the speed of light */
	double naive_ideal;        /* naive / ideal: speedup / share, the
				    * largest over the solution runs */
	int naive_runs;
	double naive_min, naive_max;
	int nsteps;
	char step[CALIB_MAX_STEPS][G_NAME_LEN];
	double step_speedup[CALIB_MAX_STEPS]; /* 0: did not pass */
	double step_share[CALIB_MAX_STEPS];   /* 0: not measured */
};

/* Parse all.tsv text ('#' lines are comments) into out; the number of
 * exercises seen, or -1 if a line is garbled. */
int calib_parse(const char *text, struct calib_ex *out, int max);
/* The measurements of lab/name in ms[0..n), or NULL. */
const struct calib_ex *calib_find(const struct calib_ex *ms, int n,
				  const char *lab, const char *name);
/* Tiers for s from m: out is s with new tier shares (the lab's points).
 * 0, or -1 with the reason in why when none can be proposed. */
int calib_propose(const struct g_spec *s, const struct calib_ex *m,
		  struct g_spec *out, char *why, size_t n);
/* The course settings file for rows, from the measurements; returns how
 * many timed exercises got no proposal. */
int calib_write(FILE *f, const char *from, const struct g_row *rows,
		int nrows, const struct calib_ex *ms, int n);
/* Read tsv_path and write its proposal for rows to f: 0 every timed
 * exercise got tiers, 1 some did not, 2 the file could not be read. */
/*
 * Score a recording with the tiers of rows (the labs' tables, or a
 * course's): for each PASS row of all.tsv that measured a share, print
 * "source lab/exercise tier points" as rows' tiers would give it on that
 * GPU (its naive / ideal from speedup / share). 0, or 2 when the file
 * cannot be read. For tests: the tiers must keep each recorded step where
 * it belongs, on every GPU recorded.
 */
int calib_score(const char *tsv_path, const struct g_row *rows, int nrows,
		FILE *f);
int calib_run(const char *tsv_path, const struct g_row *rows, int nrows,
	      FILE *f);

#endif /* GRADER_CALIBRATE_H */
