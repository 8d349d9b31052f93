/* SPDX-License-Identifier: MIT */
/*
 * report.h - what a grading run shows and writes: the human table, a
 * Gradescope results.json and a tab-separated file for scripts. The files
 * are written from the results, never from the table.
 */
#ifndef GRADER_REPORT_H
#define GRADER_REPORT_H

#include <stdio.h>

#include "grade.h"

struct g_device {
	char name[128];
	int cc;           /* 90 for compute capability 9.0 */
	int sms;
	double l2_mb;
	double mem_gb;
	char driver[32];
	double copy_gbps; /* measured this run: the bandwidth reference */
};

struct g_row {
	struct g_spec spec;
	struct g_result res;
};

enum g_mode { G_GRADE, G_BENCH, G_BUILD_ONLY };

struct g_run {
	const char *source;      /* what was graded: "labs", "solutions" */
	unsigned long long seed;
	enum g_mode mode;
	struct g_device dev;
	struct g_row *rows;
	int nrows;
};

/* Totals over the rows. */
void g_totals(const struct g_run *run, double *points, double *max);

void report_table(FILE *f, const struct g_run *run);
void report_bench(FILE *f, const struct g_run *run);
/* Each writes to a temporary file and renames it: never half a file. */
int report_json(const char *path, const struct g_run *run);
int report_tsv(const char *path, const struct g_run *run);

#endif /* GRADER_REPORT_H */
