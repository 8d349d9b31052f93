/* SPDX-License-Identifier: MIT */
/*
 * schedule.h - grading the submissions: builds on the CPUs, gradings on
 * the GPUs, one finished folder per student. Floor 5 (batch.h): uses
 * jobs, finish, conf, sub, row, process, util, files and
 * grader/gpulock.h.
 */
#ifndef BATCH_SCHEDULE_H
#define BATCH_SCHEDULE_H

#include "conf.h"
#include "sub.h"

/* Grade subs[0..n-1] (those not skipped); 0 all finished, 1 some failed,
 * 130 interrupted. */
int bt_schedule(struct bt_conf *c, struct bt_sub *subs, int n);
/* Was s graded in this run? */
int bt_sub_done(const struct bt_sub *s);

#endif /* BATCH_SCHEDULE_H */
