/* SPDX-License-Identifier: MIT */
/*
 * row.h - one student's row of results: each exercise's verdict, points
 * and audit words, read from the grader's results.tsv and the student's
 * meta. The gradebook, the summary and the class page are made of rows.
 * Floor 1 (batch.h): uses lablist, tsv, util and files.
 */
#ifndef BATCH_ROW_H
#define BATCH_ROW_H

#include "batch.h"
#include "lablist.h"

struct bt_cell {
	char verdict[24];      /* the grader's verdict key */
	double points, max;
	char audit[96];        /* results.tsv's audit words; "-": none */
};

struct bt_row {
	char id[BT_ID_LEN];
	int graded;            /* students/<id> exists */
	int stale;             /* it does, graded under other rules: not
				* counted (a regrade is under way) */
	int sandboxed;
	long long submitted;   /* Unix time; 0 not known */
	double late_s;         /* past the deadline (0: on time, none) */
	double penalty;        /* percent of the points taken off */
	char late_note[64];    /* "" or e.g. "past the cutoff" */
	struct bt_cell cell[BT_MAX_EX];
	int have[BT_MAX_EX];
	double total, max;
};

/* One grader results.tsv into row (by the labs' order); -1 if unusable.
 * The verdicts are the grader's, as in the student's report. */
int bt_read_tsv(const char *text, const struct bt_labs *l,
		struct bt_row *row);
/* The student's finished folder into row (results.tsv and meta). */
int bt_read_student(const char *dir, const struct bt_labs *l,
		    struct bt_row *row);

#endif /* BATCH_ROW_H */
