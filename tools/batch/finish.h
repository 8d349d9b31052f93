/* SPDX-License-Identifier: MIT */
/*
 * finish.h - a student whose grading has ended: the finished folder
 * published whole (students/<id>/), or, when there are no results, what
 * there is kept in failed/<id>/ for a person to read.
 * Floor 4 (batch.h): uses conf, sub, row, late, collect, board, json,
 * util, files and grader/proc.h.
 */
#ifndef BATCH_FINISH_H
#define BATCH_FINISH_H

#include "conf.h"
#include "sub.h"

/* A student's results folder, whole: the grader's results, told what was
 * taken (and how late it came), report.txt, the logs, meta; 0 when
 * published. */
int bt_finish(const struct bt_conf *c, struct bt_sub *s);
/* Keep what there is of a submission whose grading did not finish, and
 * why, in failed/<id>/. */
void bt_keep_failure(const struct bt_conf *c, struct bt_sub *s,
		     const char *why);

#endif /* BATCH_FINISH_H */
