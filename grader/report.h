/* SPDX-License-Identifier: MIT */
/*
 * report.h - a grading run's results (struct g_run) and what the terminal
 * shows of them: the table, make bench's times, the text of one exercise.
 * The files written from the same results are formats.h's, included here
 * for every user of a run.
 */
#ifndef GRADER_REPORT_H
#define GRADER_REPORT_H

#include <stdio.h>

#include "formats.h"
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
	double launch_us;   /* an empty kernel queued behind others, this run
			     * (devinfo); 0: unknown */
	double launch_sync_us; /* one launched and waited for on the host */
};

struct g_row {
	struct g_spec spec;
	struct g_result res;
	int course_changed;      /* the course settings changed this spec */
	char history[512];       /* its attempts' history file (history.h), or "" */
	char hash[20];           /* its source file's hash, or "" */
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

/* The terminal's table (grade) and make bench's times, from the results. */
void report_table(FILE *f, const struct g_run *run);
void report_bench(FILE *f, const struct g_run *run);

/* The text a student sees for one exercise (malloc'd; NULL if no memory). */
char *report_row_text(const struct g_row *row);
/* One line on the settings used: "course settings FILE (NAME)", or "the
 * labs' own settings". */
void report_settings_line(char *buf, size_t n, const struct g_run *run);

#endif /* GRADER_REPORT_H */
