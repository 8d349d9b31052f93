/* SPDX-License-Identifier: MIT */
/*
 * sanitize.h - compute-sanitizer in the grade (make grade SANITIZE=1, and
 * always for the exercises whose table asks for it).
 *
 * An exercise that passed is run once more, at its small sizes only
 * (runner --mode quick), under each of memcheck, racecheck and synccheck
 * (SANITIZE=1), or under the tools its table's .sanitize names (every
 * grade). A finding turns the verdict into MEMCHECK, RACE or SYNC and costs
 * the exercise its points; the tool's first report is condensed to a few
 * lines. A tool the table requires that cannot vouch for the exercise (no
 * compute-sanitizer; it did not finish or failed; the exercise did not
 * pass under it) is GRADER ERROR: a grade that could not look for the race
 * the exercise is about awards nothing.
 */
#ifndef GRADER_SANITIZE_H
#define GRADER_SANITIZE_H

#include "grade.h"

/* The exit status asked of compute-sanitizer when it finds something. */
#define SAN_FOUND_EXIT 86

/* Lines of a finding kept for the report. */
#define SAN_LINES 4

struct san_tool {
	const char *name;      /* memcheck, racecheck, synccheck */
	enum wb_verdict verdict;
};

/* In this order: bit i of a plan (and of a table's .sanitize, harness.h's
 * WB_SAN_MEMCHECK, _RACECHECK, _SYNCCHECK) is san_tools[i]. */
extern const struct san_tool san_tools[3];
#define SAN_ALL 7u

/*
 * The first report in compute-sanitizer's output, without its "=========
 * " prefixes, banner, host backtrace and summary: at most SAN_LINES lines
 * into out. Returns the number of lines kept (0: nothing reported).
 */
int san_condense(const char *text, char out[][G_DETAIL_LEN], int max);

/* The tools (WB_SAN_* bits) to run on an exercise that passed: all three
 * when SANITIZE=1 asked (all), and always those its table requires. */
unsigned san_plan(int all, unsigned required);

/* One tool on one exercise: 0 clean, 1 found (verdict and report in r),
 * -1 it could not say, and why in r's details (it did not finish, it
 * failed, or the exercise did not pass under it). */
typedef int san_run_fn(const struct san_tool *t, struct g_result *r,
		       void *arg);

/*
 * Run the tools of plan (san_plan()) in order with run(), stopping at the
 * first finding. path is compute-sanitizer (NULL: not found, said as
 * shown_path). A required tool that cannot run makes the verdict GRADER
 * ERROR; an optional one is said to be not checked. The details say what
 * ran. Returns the verdict it leaves.
 */
enum wb_verdict san_run_plan(unsigned plan, unsigned required,
			     const char *path, const char *shown_path,
			     san_run_fn *run, void *arg, struct g_result *r);

/*
 * A tool that found nothing (exit status 0): did the exercise PASS under
 * it, by its result record at res? 0 if so; -1 if not (WRONG or CRASH at
 * the small sizes, or no complete record), with why in r's details: the
 * tool could not vouch for it.
 */
int san_record_passed(const struct san_tool *t, const char *res,
		      struct g_result *r);

/* Build-only mode: say that a grade will run the required tools, and
 * whether compute-sanitizer (path, or NULL) is there to run them. */
void san_note_required(unsigned required, const char *path,
		       struct g_result *r);

/*
 * Where compute-sanitizer is: given, if it is a path (has a '/'); else
 * <cuda_home>/bin, then every folder of path_env (a PATH), the first
 * executable found, copied to buf. NULL when none is (given, cuda_home and
 * path_env may be NULL).
 */
const char *san_locate(const char *given, const char *cuda_home,
		       const char *path_env, char *buf, size_t n);

#endif /* GRADER_SANITIZE_H */
