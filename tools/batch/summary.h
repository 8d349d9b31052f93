/* SPDX-License-Identifier: MIT */
/*
 * summary.h - summary.txt, the class at a glance. Floor 4 (batch.h): uses
 * lablist, row, util and common/stats.h.
 */
#ifndef BATCH_SUMMARY_H
#define BATCH_SUMMARY_H

#include <stdio.h>

#include "lablist.h"
#include "row.h"

/* built_only: no points were given (a build-only batch). */
void bt_write_summary(FILE *f, const struct bt_labs *l,
		      const struct bt_row *rows, int n, const char *title,
		      int built_only);

#endif /* BATCH_SUMMARY_H */
