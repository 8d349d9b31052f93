/* SPDX-License-Identifier: MIT */
/*
 * course.h - per-course settings: one file that overrides the points, the
 * tiers and the time limit of any exercise, without editing lab code.
 *
 *     # CS 759, RTX 4090 runners
 *     course = CS 759 (spring)
 *     05-reduction/sum.tiers = 1.8:20 3.5:40 5.6:60
 *     05-reduction/sum.points_correct = 50
 *     reduction/argmax.timeout_s = 120        # short lab names work too
 *
 * A star in place of the lab or of the exercise name matches all of them
 * (a star for both: every exercise).
 *
 * Three lines say what the course grades, for an assignment that spans
 * labs (each at most once; without them, every lab is graded):
 *
 *     assignment = hw3                      # names its Gradescope bundle
 *     labs = 05-reduction fusion            # every exercise of these labs
 *     exercises = 06-rmsnorm/rmsnorm        # and these exercises
 *
 * A lab or exercise is graded when labs or exercises names it.
 * Knobs: points_correct, points_speed, tiers ("speedup:points" pairs that
 * rise in both: fixed speedups over the naive, the same on every GPU),
 * shares ("share:points" pairs: shares of the speed of light, as the labs'
 * own tiers and make calibrate's are; the grader makes them speedups for
 * the GPU at hand), timeout_s. Lines apply in file order, so a later line
 * overrides an earlier one. New tiers bring their own points_speed (the
 * top tier's points); a points_speed without tiers scales the lab's tier
 * points to it. Every name must exist (lab.mk), and every exercise the
 * file changes must still pass g_spec_validate(): otherwise the grader
 * refuses to grade, with the file, the line and the reason.
 */
#ifndef GRADER_COURSE_H
#define GRADER_COURSE_H

#include <stddef.h>
#include <stdio.h>

#include "grade.h"

#define COURSE_MAX_RULES 512
#define COURSE_PATH_LEN 512
#define COURSE_MAX_PICKS 64

enum course_knob {
	COURSE_POINTS_CORRECT,
	COURSE_POINTS_SPEED,
	COURSE_TIERS,   /* fixed speedups over the naive, on any GPU */
	COURSE_TIMEOUT,
	COURSE_SHARES,  /* shares of the speed of light (make calibrate) */
};

struct course_rule {
	int line;
	char lab[G_NAME_LEN];   /* "05-reduction", "reduction" or "*" */
	char ex[G_NAME_LEN];    /* an exercise, or "*" */
	enum course_knob knob;
	double value;           /* all knobs but tiers */
	struct g_tier tiers[G_MAX_TIERS];
	int ntiers;
};

/* One entry of "labs =" (ex "*") or "exercises =" (lab/ex). */
struct course_pick {
	char lab[G_NAME_LEN];
	char ex[G_NAME_LEN];
	int line;
};

struct course {
	char path[COURSE_PATH_LEN];
	char base[COURSE_PATH_LEN]; /* the file's name alone: what the
				     * reports say (never the instructor's
				     * folders) */
	char name[160];         /* "course = ..."; empty when not given */
	char assignment[G_NAME_LEN]; /* "assignment = ..."; "" if none */
	struct course_pick picks[COURSE_MAX_PICKS];
	int npicks;             /* 0: every lab */
	struct course_rule rules[COURSE_MAX_RULES];
	int nrules;
};

/* Parse a settings file's text; path is only used in messages. 0, or -1
 * with "path:line: why" in err. */
int course_parse(const char *text, const char *path, struct course *c,
		 char *err, size_t n);
/* Read and parse path. */
int course_load(const char *path, struct course *c, char *err, size_t n);
/* Every lab and exercise named must exist under labs_dir (its lab.mk). */
int course_check_names(const struct course *c, const char *labs_dir,
		       char *err, size_t n);
/* Does the course grade this lab (any of its exercises)? This exercise?
 * (Every one when it names none.) */
int course_grades_lab(const struct course *c, const char *lab);
int course_grades(const struct course *c, const char *lab, const char *ex);
/* Apply the rules to one spec; a line describing the change goes to note
 * ("" when nothing changed). 0, or -1 with the reason in err when the
 * result is not a valid spec. */
int course_apply(const struct course *c, struct g_spec *s, char *note,
		 size_t note_n, char *err, size_t n);
/* Apply to every row, mark the rows changed and fill run->course*
 * (run->course_changes is malloc'd, or NULL when nothing changed). */
int course_apply_run(const struct course *c, struct g_run *run, char *err,
		     size_t n);

#endif /* GRADER_COURSE_H */
