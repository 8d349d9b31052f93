/* SPDX-License-Identifier: MIT */
/*
 * sub.h - one submission: the entry in the submissions folder, the
 * student's id, what was taken from it and what was not (its notes), and
 * where the run has it (jobs.c, schedule.c).
 * Floor 1 (batch.h): uses batch.h's limits, lablist and util.
 */
#ifndef BATCH_SUB_H
#define BATCH_SUB_H

#include <sys/types.h>

#include "batch.h"
#include "lablist.h"

enum bt_kind { BT_DIR, BT_TAR, BT_ZIP };

struct bt_note {
	char path[256];
	char why[224];
};

struct bt_sub {
	char id[BT_ID_LEN];     /* the student: the entry's name, no suffix */
	char name[256];         /* the entry in the submissions folder */
	char path[BT_PATH];     /* its absolute path */
	enum bt_kind kind;

	/* collect */
	char from[BT_MAX_EX][256]; /* where each taken file came from; "" */
	int depth[BT_MAX_EX];
	int ntaken;
	struct bt_note *notes;  /* ignored entries */
	int nnotes, more_notes;
	char error[256];        /* the submission could not be read: why */
	unsigned long long fp;  /* the taken files, for resume */
	int exact;              /* the id is the entry's own name (no
				 * character replaced, no suffix added) */
	long long submitted;    /* when it arrived (Unix time; 0: not known) */
	char submitted_from[32]; /* how that is known: "arrival", "times" */

	/* scheduling (jobs.c, schedule.c) */
	int state;
	pid_t pid;
	int slot;               /* the GPU (or check slot) it holds */
	double t0, build_s, grade_s;
	int skipped;            /* graded by an earlier run */
};

/* Free what bt_list_subs() made, and each one's notes. */
void bt_free_subs(struct bt_sub *s, int n);
void bt_note(struct bt_sub *s, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Offer a candidate path (from a listing) for exercise i: keeps the
 * shallowest; the loser is noted. Returns 1 if it is now the one taken. */
int bt_offer(struct bt_sub *s, const struct bt_labs *l, int i,
	     const char *path, int depth);

#endif /* BATCH_SUB_H */
