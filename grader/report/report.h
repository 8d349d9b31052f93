/* SPDX-License-Identifier: MIT */
/*
 * report.h - what the terminal shows of a grading run (struct g_run,
 * grade.h): the table, make bench's times, the text of one exercise. The
 * files written from the same results are formats.h's.
 */
#ifndef GRADER_REPORT_H
#define GRADER_REPORT_H

#include <stdio.h>

#include "grade.h"

/* Totals over the rows. */
void g_totals(const struct g_run *run, double *points, double *max);

/* The terminal's table (grade) and make bench's times, from the results. */
void report_table(FILE *f, const struct g_run *run);
void report_bench(FILE *f, const struct g_run *run);

/* The text a student sees for one exercise (malloc'd; NULL if no memory). */
char *report_row_text(const struct g_row *row);
/* One line on the settings used: "course settings FILE (NAME)", or "the
 * labs' own settings". */
void report_settings_line(char *buf, size_t n, const struct g_run *run);

#endif /* GRADER_REPORT_H */
