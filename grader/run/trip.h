/* SPDX-License-Identifier: MIT */
/*
 * trip.h - one exercise's trip through the grader: an ordered table of
 * stages (trip.c), each of which may settle the verdict (through
 * settle.h, the verdict's one owner) and end the trip; the scoring stages
 * after it always run.
 *
 * May use: the base (grade.h, record.h, proc.h, settle.h) and every room
 * below run/: inspect/, score/, report/, profile/, and run/'s own
 * sanitize.h and reference.h. Nothing above: the commands (cmd/) call it.
 */
#ifndef GRADER_TRIP_H
#define GRADER_TRIP_H

#include "grade.h"

struct ncu_ctx;

/* What a trip needs of the run: the command's options, copied. */
struct trip_env {
	const char *build_dir;
	const char *reference_dir;   /* where references are kept, or NULL */
	unsigned long long seed;
	enum g_mode mode;
	const char *size;            /* SIZE=: one size, untimed; or NULL */
	int no_lockdown;             /* LOCKDOWN=0 */
	double timeout_cap;          /* 0: each exercise's own timeout */
	const char *sanitizer;       /* compute-sanitizer's path as given */
	const char *sanitizer_found; /* where it is; NULL: none found */
	int sanitize_all;            /* SANITIZE=1: every exercise */
	struct ncu_ctx *ncu;         /* Nsight Compute after a pass, or NULL */
};

/* Grade one exercise: row->res is written from scratch. */
void trip_run(const struct trip_env *e, const struct g_device *dev,
	      struct g_row *row);

/* The i-th stage's name, in order; NULL past the last. */
const char *trip_stage(int i);

#endif /* GRADER_TRIP_H */
