/* SPDX-License-Identifier: MIT */
/*
 * book.h - the gradebook, rebuilt from the students' finished folders:
 * gradebook.csv, verdicts.csv, scores.csv and audit.tsv written here, and
 * summary.txt (summary.c) and class.html (classpage.c) with them.
 * Floor 5 (batch.h): uses conf, row, sub, late, summary, classpage, util
 * and files.
 */
#ifndef BATCH_BOOK_H
#define BATCH_BOOK_H

#include <stdio.h>

#include "conf.h"
#include "lablist.h"
#include "row.h"
#include "sub.h"

void bt_write_gradebook(FILE *f, const struct bt_labs *l,
			const struct bt_row *rows, int n, int verdicts);
/* scores.csv: student, score, max_score, percent, status. */
void bt_write_scores(FILE *f, const struct bt_row *rows, int n);
/* The same, for the gradebook: with_late adds submitted_at, late (hours)
 * and penalty (percent) columns; build_only leaves every score empty
 * (status "built only: no points"): nothing an import could take. */
void bt_write_scores_full(FILE *f, const struct bt_row *rows, int n,
			  int build_only, int with_late);
/* The gradebook's late columns for a row (with a deadline): ",..." */
void bt_late_columns(FILE *f, const struct bt_row *row);

/* audit.tsv: one line per exercise a person should look at (an audit
 * word, or a REJECTED or SUSPICIOUS verdict); returns how many. */
int bt_write_audit(FILE *f, const struct bt_labs *l,
		   const struct bt_row *rows, int n);

/* Rebuild gradebook.csv, verdicts.csv, scores.csv, summary.txt and
 * audit.tsv from students/. */
int bt_merge(const struct bt_conf *c, struct bt_sub *subs, int n, int quiet);

#endif /* BATCH_BOOK_H */
