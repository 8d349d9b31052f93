/* SPDX-License-Identifier: MIT */
/*
 * book.c - the gradebook and the class summary, rebuilt from the
 * students' finished folders (students/<id>/results.tsv and meta), never
 * kept up to date by hand: a run, an interrupted run, the Slurm merge
 * step and `batch --merge` all write the same files from the same source.
 *
 *   gradebook.csv   student, points per exercise, total, max, status
 *   verdicts.csv    student, verdict per exercise (the grader's, as in the
 *                   student's report: COMPILE_ERROR for a file not handed
 *                   in), status
 *   summary.txt     totals' distribution, points and verdicts per
 *                   exercise, the most common verdicts other than PASS
 *   scores.csv      student, score, max_score, percent, status: one
 *                   score per student, for a platform's grade import
 *   audit.tsv       for a person to read: each exercise whose results.tsv
 *                   has audit words (the grader's last column, e.g.
 *                   inline-ptx,streams; "-" or absent in older runs: none)
 *                   or whose verdict is REJECTED or SUSPICIOUS
 *
 * A submission graded without a sandbox (SANDBOX=off) says UNSANDBOXED in
 * the gradebook's status column and in the summary.
 *
 * Floor 5 (batch.h): uses conf, row (each student's, read back), sub,
 * late (the penalties), summary, classpage, util and files.
 */
#include "book.h"
#include "classpage.h"
#include "files.h"
#include "late.h"
#include "summary.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the gradebook ------------------------------------------------------ */

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A row's status word. */
static const char *status(const struct bt_row *row)
{
	if (row->stale)
		return "not graded (graded under other rules: REGRADE=all)";
	return !row->graded ? "not graded" :
	       row->sandboxed ? "graded" : "graded UNSANDBOXED";
}

static int with_late;   /* the course has a deadline: late columns */

void bt_late_columns(FILE *f, const struct bt_row *row)
{
	char when[64];

	bt_fmt_time(when, sizeof(when), row->submitted);
	if (!row->graded) {
		fputs(",,,", f);
		return;
	}
	fprintf(f, ",%s,%.2f,%g", when, row->late_s / 3600, row->penalty);
}

void bt_write_gradebook(FILE *f, const struct bt_labs *l,
			const struct bt_row *rows, int n, int verdicts)
{
	fputs("student", f);
	for (int i = 0; i < l->n; i++)
		if (l->ex[i].selected)
			fprintf(f, ",%s/%s", l->ex[i].lab, l->ex[i].name);
	fputs(verdicts ? ",status" : ",total,max,status", f);
	fputs(with_late ? ",submitted_at,late_hours,penalty_percent\n" : "\n", f);
	for (int r = 0; r < n; r++) {
		const struct bt_row *row = &rows[r];

		csv_field(f, row->id);
		for (int i = 0; i < l->n; i++) {
			if (!l->ex[i].selected)
				continue;
			fputc(',', f);
			if (!row->graded || !row->have[i])
				continue;
			if (verdicts)
				fputs(row->cell[i].verdict, f);
			else
				fprintf(f, "%g", row->cell[i].points);
		}
		if (!verdicts && row->graded)
			fprintf(f, ",%g,%g", row->total, row->max);
		else if (!verdicts)
			fputs(",,", f);
		fprintf(f, ",%s", status(row));
		if (with_late)
			bt_late_columns(f, row);
		fputc('\n', f);
	}
}

void bt_write_scores(FILE *f, const struct bt_row *rows, int n)
{
	bt_write_scores_full(f, rows, n, 0, 0);
}

void bt_write_scores_full(FILE *f, const struct bt_row *rows, int n,
			  int build_only, int late)
{
	fputs("student,score,max_score,percent,status", f);
	fputs(late ? ",submitted_at,late_hours,penalty_percent\n" : "\n", f);
	for (int r = 0; r < n; r++) {
		const struct bt_row *row = &rows[r];

		csv_field(f, row->id);
		if (row->graded && !build_only)
			fprintf(f, ",%g,%g,%.1f", row->total, row->max,
				row->max > 0 ? 100 * row->total / row->max : 0);
		else
			fputs(",,,", f);
		fprintf(f, ",%s", build_only && row->graded ?
			"built only: no points (not for an import)" : status(row));
		if (late)
			bt_late_columns(f, row);
		fputc('\n', f);
	}
}

/* ---- the audit list ------------------------------------------------- */

/* Should a person look at this exercise's code? */
static int to_audit(const struct bt_cell *c)
{
	return strcmp(c->audit, "-") || !strcmp(c->verdict, "REJECTED") ||
	       !strcmp(c->verdict, "SUSPICIOUS");
}

int bt_write_audit(FILE *f, const struct bt_labs *l,
		   const struct bt_row *rows, int n)
{
	int k = 0;

	fputs("student\texercise\tverdict\taudit\n", f);
	for (int r = 0; r < n; r++) {
		if (!rows[r].graded)
			continue;
		for (int i = 0; i < l->n; i++) {
			const struct bt_cell *c = &rows[r].cell[i];

			if (!l->ex[i].selected || !rows[r].have[i] || !to_audit(c))
				continue;
			fprintf(f, "%s\t%s/%s\t%s\t%s\n", rows[r].id,
				l->ex[i].lab, l->ex[i].name, c->verdict, c->audit);
			k++;
		}
	}
	return k;
}

/* ---- merging --------------------------------------------------------- */

/* One of the gradebook's files (kind: 0 gradebook, 1 verdicts, 2 summary,
 * 3 audit, whose line count goes in *audit, 4 scores), written
 * atomically. */
static int write_with(const char *path, const struct bt_conf *c,
		      const struct bt_row *rows, int n, int kind,
		      const char *title, int *audit)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc;

	if (!m)
		return -1;
	if (kind == 4)
		bt_write_scores_full(m, rows, n, c->build_only,
				     c->late.deadline != 0);
	else if (kind == 3)
		*audit = bt_write_audit(m, &c->labs, rows, n);
	else if (kind == 2)
		bt_write_summary(m, &c->labs, rows, n, title, c->build_only);
	else
		bt_write_gradebook(m, &c->labs, rows, n, kind);
	fclose(m);
	rc = bt_write_atomic(path, text);
	free(text);
	return rc;
}

/* Was the student in dir graded under other rules than these? (A meta
 * of before the rules were recorded counts as other rules.) */
static int stale(const char *dir, const char *rules)
{
	char path[BT_PATH], want[64], *meta;
	int other;

	if (!rules || !rules[0])
		return 0;
	bt_fmt(path, sizeof(path), "%s/meta", dir);
	meta = bt_read(path, 1 << 16);
	bt_fmt(want, sizeof(want), "\nrules %s\n", rules);
	other = !meta || !strstr(meta, want);
	free(meta);
	return other;
}

int bt_merge(const struct bt_conf *c, struct bt_sub *subs, int n, int quiet)
{
	struct bt_row *rows = calloc(n ? n : 1, sizeof(*rows));
	char path[BT_PATH], title[BT_PATH + 64];
	int all = 1, rc = 0, audit = 0;

	if (!rows)
		return -1;
	for (int i = 0; i < n; i++) {
		bt_fmt(rows[i].id, sizeof(rows[i].id), "%s", subs[i].id);
		bt_fmt(path, sizeof(path), "%s/students/%s", c->out, subs[i].id);
		if (bt_read_student(path, &c->labs, &rows[i])) {
			all = 0;
			continue;
		}
		if (stale(path, c->rules)) {
			/* Graded under other rules (a REGRADE=all under way):
			 * never mixed with the new ones. */
			rows[i].graded = 0;
			rows[i].stale = 1;
			all = 0;
			continue;
		}
		bt_apply_late(&c->late, &rows[i]);
		rows[i].total *= 1 - rows[i].penalty / 100;
	}
	with_late = c->late.deadline != 0;
	bt_fmt(title, sizeof(title), "%s (%s%s%s)", c->subs,
		 c->build_only ? "built and checked only" : "graded",
		 c->lab ? ", lab " : "", c->lab ? c->lab : "");
	bt_fmt(path, sizeof(path), "%s/gradebook.csv", c->out);
	rc |= write_with(path, c, rows, n, 0, title, NULL);
	bt_fmt(path, sizeof(path), "%s/verdicts.csv", c->out);
	rc |= write_with(path, c, rows, n, 1, title, NULL);
	bt_fmt(path, sizeof(path), "%s/summary.txt", c->out);
	rc |= write_with(path, c, rows, n, 2, title, NULL);
	bt_fmt(path, sizeof(path), "%s/audit.tsv", c->out);
	rc |= write_with(path, c, rows, n, 3, title, &audit);
	rc |= bt_write_classpage(c, rows, n, title);
	bt_fmt(path, sizeof(path), "%s/scores.csv", c->out);
	rc |= write_with(path, c, rows, n, 4, title, NULL);
	if (!quiet) {
		printf("\n");
		bt_write_summary(stdout, &c->labs, rows, n, title,
				 c->build_only);
		printf("\ngradebook: %s/gradebook.csv (verdicts.csv, summary.txt, "
		       "students/<id>/report.txt beside it)\n", c->out);
		printf("scores for a learning platform's import (Canvas, "
		       "Moodle: docs/batch-grading.md): %s/scores.csv\n", c->out);
		printf("audit: %d exercise%s for a person to look at (audit "
		       "words, REJECTED, SUSPICIOUS): %s/audit.tsv\n", audit,
		       audit == 1 ? "" : "s", c->out);
	}
	free(rows);
	if (rc)
		fprintf(stderr, "batch: could not write the gradebook in %s\n",
			c->out);
	return rc ? -1 : all ? 0 : 1;
}
