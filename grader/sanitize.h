/* SPDX-License-Identifier: MIT */
/*
 * sanitize.h - compute-sanitizer in the grade (make grade SANITIZE=1).
 *
 * An exercise that passed is run once more, at its small sizes only
 * (runner --mode quick), under each of memcheck, racecheck and synccheck.
 * A finding turns the verdict into MEMCHECK, RACE or SYNC and costs the
 * exercise its points; the tool's first report is condensed to a few lines.
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

extern const struct san_tool san_tools[3];

/*
 * The first report in compute-sanitizer's output, without its "=========
 * " prefixes, banner, host backtrace and summary: at most SAN_LINES lines
 * into out. Returns the number of lines kept (0: nothing reported).
 */
int san_condense(const char *text, char out[][G_DETAIL_LEN], int max);

#endif /* GRADER_SANITIZE_H */
