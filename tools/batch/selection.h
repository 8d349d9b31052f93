/* SPDX-License-Identifier: MIT */
/*
 * selection.h - what a run grades: the exercises a course file names, and
 * of the submissions, those of the manifest (a Slurm task: its chunk).
 * Floor 6 (batch.h): uses cli, slurm, sub and util.
 */
#ifndef BATCH_SELECTION_H
#define BATCH_SELECTION_H

#include <stddef.h>

#include "cli.h"

/*
 * A course file may name the labs and exercises it grades (grader/score/
 * course.h): into pairs, "lab/exercise" lines, as the grader reads them;
 * k->c.lab becomes the list of their labs. 0, or -1 said.
 */
int select_course(struct cli *k, char *pairs, size_t n);
/* With a manifest: its entries, in its order, and with --task that task's
 * chunk of them (*subs and *n replaced). 0, or -1. */
int select_subs(struct cli *k, struct bt_sub **subs, int *n);

#endif /* BATCH_SELECTION_H */
