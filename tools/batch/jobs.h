/* SPDX-License-Identifier: MIT */
/*
 * jobs.h - a submission's two commands, its build and its grading, and
 * the states they take it through. Floor 5 (batch.h): uses conf, sub,
 * sandbox, process, args and util.
 */
#ifndef BATCH_JOBS_H
#define BATCH_JOBS_H

#include "conf.h"
#include "sub.h"

/* Where a submission is (struct bt_sub's state). */
enum bt_state { BT_QUEUED, BT_BUILDING, BT_BUILT, BT_GRADING, BT_DONE,
		BT_FAILED };

/* Start s's build (make runners, in its sandbox): 0, or -1 if it could
 * not start. */
int bt_start_build(const struct bt_conf *c, struct bt_sub *s);
/* Start s's grading (the grader, in its sandbox) on slot: a GPU, or with
 * --build-only a CPU. 0, or -1 if it could not start. */
int bt_start_grade(const struct bt_conf *c, struct bt_sub *s, int slot);

#endif /* BATCH_JOBS_H */
