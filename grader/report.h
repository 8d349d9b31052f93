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
	double read_gbps, write_gbps; /* the probes, this run (devinfo) */
	double clock_mhz; /* the highest SM clock, from the device */
	double dram_gbps; /* the DRAM's peak from NVML (gpustate.c); 0: unknown */
	double fp32_tflops; /* the CUDA cores' fp32 peak: NVML's clock, else
			     * the device's own (devinfo); 0: unknown */
};

struct g_row {
	struct g_spec spec;
	struct g_result res;
	int course_changed;      /* the course settings changed this spec */
};

enum g_mode { G_GRADE, G_BENCH, G_BUILD_ONLY };

struct g_run {
	const char *source;      /* what was graded: "labs", "solutions" */
	unsigned long long seed;
	enum g_mode mode;
	struct g_device dev;
	struct g_row *rows;
	int nrows;
	const char *course;      /* course settings file (grader/course.h), or NULL */
	int calibration;         /* ... found by itself: this GPU model's
				  * calibration (make calibrate) */
	const char *course_name; /* its "course = ..." line, or NULL */
	const char *course_changes; /* what it changed, a line each; NULL: nothing */
	char condition[1024];    /* the GPU at the start and end, and warnings
				  * (gpustate.c); lines, or empty */
};

/* Totals over the rows. */
void g_totals(const struct g_run *run, double *points, double *max);

void report_table(FILE *f, const struct g_run *run);
void report_bench(FILE *f, const struct g_run *run);
/* Each writes to a temporary file and renames it: never half a file. */
int report_json(const char *path, const struct g_run *run);
int report_tsv(const char *path, const struct g_run *run);

/* For the other formats (grader/formats.c). */
/* Write fn's output to path.tmp, then rename it over path. */
int report_write_atomic(const char *path,
			void (*fn)(FILE *, const struct g_run *),
			const struct g_run *run);
/* s as a JSON string literal, invalid UTF-8 replaced. */
void report_json_str(FILE *f, const char *s);
/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
int report_utf8_len(const unsigned char *s);
/* The text a student sees for one exercise (malloc'd; NULL if no memory). */
char *report_row_text(const struct g_row *row);
/* One line on the settings used: "course settings FILE (NAME)" or NULL. */
void report_settings_line(char *buf, size_t n, const struct g_run *run);

#endif /* GRADER_REPORT_H */
