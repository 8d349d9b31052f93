/* SPDX-License-Identifier: MIT */
/*
 * classpage.h - class.html beside the gradebook. Floor 4 (batch.h): uses
 * conf, row, tsv, board, util, files, common/stats.h and
 * grader/html_text.h.
 */
#ifndef BATCH_CLASSPAGE_H
#define BATCH_CLASSPAGE_H

#include "conf.h"
#include "row.h"

/* class.html in out: each exercise's verdict counts, points and speedups
 * over the class (classpage.c). 0, or -1. */
int bt_write_classpage(const struct bt_conf *c, const struct bt_row *rows,
		       int n, const char *title);

#endif /* BATCH_CLASSPAGE_H */
