/* SPDX-License-Identifier: MIT */
/*
 * runfile.h - a grading run written down whole, and read back (runfile.c).
 *
 * make grade writes report.run beside results.tsv: every field of the run
 * that report.html shows (the device, the seed, the GPU's condition, each
 * exercise's spec, verdict, timings, details), one "key<TAB>value" line
 * each, tabs, newlines and backslashes escaped as \t, \n and \\. A line
 * "row" starts each exercise. make report reads it back to draw the same
 * page again, with no GPU (grader/report/render.c).
 *
 * It also reads a results.tsv, or a calibration's all.tsv (a source
 * column first), for runs recorded before report.run existed: what that
 * file lacks (the device's name and fp32 peak, the details) the page says
 * it lacks; the copy bandwidth is the rows' GB/s over their %copy.
 */
#ifndef GRADER_RUNFILE_H
#define GRADER_RUNFILE_H

#include <stdio.h>

#include "grade.h"

#define RUNFILE_MAGIC "# cuda-workbook report data 1"

/* A run read back, and the memory its strings and rows live in. */
struct runfile {
	struct g_run run;
	char source[256];
	char course[512];
	char course_name[256];
	char *course_changes;  /* malloc'd, or NULL */
	char notes[2048];      /* a results.tsv's comment lines, as written */
	char from[64];         /* "report data" or "results.tsv" */
};

/* The run as report.run's lines. */
void runfile_print(FILE *f, const struct g_run *run);
/* formats.h's writer: report.run, whole or not at all. */
int runfile_write(const char *path, const struct g_run *run);

/*
 * Read path (report.run, results.tsv, or an all.tsv; which, from its
 * first line) into rf. source: with an all.tsv, whose rows to take (NULL:
 * the first row's source). 0, or -1 with the reason in err.
 */
int runfile_read(const char *path, const char *source, struct runfile *rf,
		 char *err, size_t n);
/* Parse text (NUL-terminated) the same way. */
int runfile_parse(char *text, const char *source, struct runfile *rf,
		  char *err, size_t n);
void runfile_free(struct runfile *rf);

/* Write fn's output to path.tmp, then rename it over path. */
int report_write_atomic(const char *path,
			void (*fn)(FILE *, const struct g_run *),
			const struct g_run *run);
#endif /* GRADER_RUNFILE_H */
