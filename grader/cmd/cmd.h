/* SPDX-License-Identifier: MIT */
/*
 * cmd.h - the grader's commands (main.c's table) and what they share:
 * the options, the state of one run, and the start every command but
 * the probe makes (cmd_start.c).
 *
 * May use: every room (the commands are the top of the house); nothing
 * includes this but main.c and the cmd_*.c files.
 */
#ifndef GRADER_CMD_H
#define GRADER_CMD_H

#include "course.h"
#include "formats.h"
#include "gpustate.h"
#include "grade.h"

#define CMD_MAX_ROWS 256
#define CMD_PATH 1024

struct options {
	const char *labs_dir;
	const char *build_dir;
	const char *source;
	const char *lab;
	const char *ex;
	const char *devinfo;
	const char *sanitizer; /* compute-sanitizer's path as given, or NULL */
	int sanitize_all;      /* --sanitizer (SANITIZE=1): every exercise */
	char sanitizer_at[CMD_PATH]; /* where it is, found at the start */
	const char *sanitizer_found; /* sanitizer_at, or NULL: none found */
	unsigned long long seed;
	int have_seed;
	double timeout_cap; /* 0: each exercise's own timeout */
	enum g_mode mode;
	const char *course;    /* per-course settings file (course.h) */
	int check_course;      /* 1: check it and say what it grades and
				* changes; 2: print the labs it grades,
				* 3: its lab/exercise pairs */
	struct report_outputs out; /* the files to write (formats.h) */
	const char *propose;   /* calibration all.tsv: propose tiers, grade nothing */
	const char *score;     /* a recording's all.tsv: its tiers, nothing graded */
	const char *ncu;       /* Nsight Compute: profile (PROFILE=1, profile) */
	int profile_only;      /* make profile: profile, grade nothing */
	const char *with;      /* make profile's extra columns: naive,solution */
	const char *sol_build; /* where the solutions' runners are */
	const char *profile_tsv;
	int shape;             /* which benchmark shape to profile */
	const char *size;      /* --size: one size alone, untimed (SIZE=) */
	const char *reference_dir; /* where references are kept (reference.h) */
	int no_lockdown;       /* LOCKDOWN=0: runners without seccomp, to
				* diagnose a runtime the filter breaks */
	const char *calibrations; /* folder of calibrations per GPU model */
	char calib_path[CMD_PATH]; /* the one for this GPU, if found */
	const char *history;   /* each root's history file's name (history.h) */
	const char *solutions_run; /* their report.run, for report.html */
	const char *probe_only; /* --probe-only FILE: probe the GPU, write
				 * devinfo's lines there, grade nothing */
	const char *probe_file; /* --probe-file FILE: such a probe, used
				 * instead of probing again if fresh */
};

/* One run of the grader: its options and what the start found. */
struct cmd_state {
	struct options o;
	struct g_run run;
	struct g_row rows[CMD_MAX_ROWS];
	struct course course;
	struct gpu_state gpu;
};

/* The start every command but the probe makes: the course file, the seed,
 * the GPU (its lock and probe, unless nothing will run), the calibration
 * for its model. 0, or the exit status (2) with the reason said. */
int cmd_start(struct cmd_state *st);

/* The rows the run grades (labs.h) with the course's changes: 0, or 2. */
int cmd_rows(struct cmd_state *st);

/* The heading: what is graded, on which GPU, its measured rates. */
void cmd_header(const struct cmd_state *st);

/* The commands (main.c's table): each returns the grader's exit status. */
int cmd_probe(struct cmd_state *st);
int cmd_course(struct cmd_state *st);
int cmd_propose(struct cmd_state *st);
int cmd_score(struct cmd_state *st);
int cmd_profile(struct cmd_state *st);
int cmd_grade(struct cmd_state *st);

#endif /* GRADER_CMD_H */
