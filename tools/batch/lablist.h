/* SPDX-License-Identifier: MIT */
/*
 * lablist.h - what students may hand in: the exercises of the labs (each
 * labs/<lab>/lab.mk's EXERCISES), and which of them a batch grades.
 * Floor 1 (batch.h): uses batch.h's limits, util and files.
 */
#ifndef BATCH_LABLIST_H
#define BATCH_LABLIST_H

#include "batch.h"

struct bt_exercise {
	char lab[BT_NAME_LEN];
	char name[BT_NAME_LEN];
	int selected; /* graded in this batch (LAB=) */
};

struct bt_labs {
	struct bt_exercise ex[BT_MAX_EX];
	int n;
};

/* Every labs/<lab>/lab.mk's EXERCISES, in lab order; selected by lab
 * (a list of "05-reduction" or "reduction" words, or NULL for all). -1
 * if no lab matches. */
int bt_read_labs(const char *labs_dir, const char *lab, struct bt_labs *l);
/* Select only the exercises of pairs, "lab/exercise" lines (what a
 * course file grades): 0, or -1 when none of them is here. */
int bt_select_exercises(struct bt_labs *l, const char *pairs);
/* Add one lab's EXERCISES line (the unit tests use this directly). */
int bt_add_lab(struct bt_labs *l, const char *lab, const char *exercises,
	       int selected);

#endif /* BATCH_LABLIST_H */
