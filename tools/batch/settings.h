/* SPDX-License-Identifier: MIT */
/*
 * settings.h - the settings and the rules a folder's grades are made
 * under (its batch.conf, each student's meta), and resume: a student
 * graded before, from the same files under the same rules, is not graded
 * again. Floor 6 (batch.h): uses conf, sub, util and files.
 */
#ifndef BATCH_SETTINGS_H
#define BATCH_SETTINGS_H

#include "conf.h"
#include "sub.h"

/* c->rules: a fingerprint of the grader, the graded labs' own files, the
 * calibrations and the course file. */
void bt_rules_fingerprint(struct bt_conf *c);
/* The output folder's batch.conf: written if it is not there; else the
 * settings must be the same, and the rules too unless REGRADE=all (which
 * takes the new ones). 0, or -1 said. */
int bt_check_settings(const struct bt_conf *c);
/* --merge takes the mode, the lab and the rules from the grades' own
 * batch.conf. */
void bt_merge_settings(struct bt_conf *c);
/* REGRADE=all? */
int bt_regrade_all(const struct bt_conf *c);
/* Graded before, from the same files, under the same rules, and not
 * named in REGRADE=? */
int bt_done_before(const struct bt_conf *c, const struct bt_sub *s);

#endif /* BATCH_SETTINGS_H */
