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
 */
#include "batch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading a student's results -------------------------------------- */

/* Column index of name in a tab-separated header line; -1 if absent. */
static int column(const char *header, const char *name)
{
	char buf[4096], *save = NULL;
	int k = 0;

	bt_fmt(buf, sizeof(buf), "%s", header);
	for (char *f = strtok_r(buf, "\t", &save); f;
	     f = strtok_r(NULL, "\t", &save), k++)
		if (!strcmp(f, name))
			return k;
	return -1;
}

/* Split a line on tabs in place; returns the number of fields. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		char *tab = strchr(line, '\t');

		f[n++] = line;
		if (!tab)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

static int find_ex(const struct bt_labs *l, const char *lab, const char *ex)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->ex[i].lab, lab) && !strcmp(l->ex[i].name, ex))
			return i;
	return -1;
}

int bt_read_tsv(const char *text, const struct bt_labs *l,
		struct bt_row *row)
{
	char *copy = strdup(text), *line, *save = NULL, *f[64];
	int cl, ce, cv, cp, cm, ca, rows = 0;

	memset(row->cell, 0, sizeof(row->cell));
	memset(row->have, 0, sizeof(row->have));
	row->total = row->max = 0;
	if (!copy)
		return -1;
	line = strtok_r(copy, "\n", &save);
	if (!line)
		goto out;
	cl = column(line, "lab");
	ce = column(line, "exercise");
	cv = column(line, "verdict");
	cp = column(line, "points");
	cm = column(line, "max_points");
	ca = column(line, "audit"); /* absent before the grader had it */
	if (cl < 0 || ce < 0 || cv < 0 || cp < 0 || cm < 0)
		goto out;
	while ((line = strtok_r(NULL, "\n", &save))) {
		int n = fields(line, f, 64), i;
		struct bt_cell *cell;

		if (n <= cl || n <= ce || n <= cv || n <= cp || n <= cm)
			continue;
		i = find_ex(l, f[cl], f[ce]);
		if (i < 0)
			continue;
		cell = &row->cell[i];
		bt_fmt(cell->verdict, sizeof(cell->verdict), "%s", f[cv]);
		cell->points = atof(f[cp]);
		cell->max = atof(f[cm]);
		bt_fmt(cell->audit, sizeof(cell->audit), "%s",
		       ca >= 0 && n > ca && *f[ca] ? f[ca] : "-");
		row->have[i] = 1;
		row->total += cell->points;
		row->max += cell->max;
		rows++;
	}
out:
	free(copy);
	return rows > 0 ? rows : -1;
}

int bt_read_student(const char *dir, const struct bt_labs *l,
		    struct bt_row *row)
{
	char path[BT_PATH], *meta, *tsv;
	int rc;

	row->graded = 0;
	row->sandboxed = 0;
	bt_fmt(path, sizeof(path), "%s/meta", dir);
	meta = bt_read(path, 1 << 16);
	bt_fmt(path, sizeof(path), "%s/results.tsv", dir);
	tsv = bt_read(path, 4 << 20);
	if (!meta || !tsv) {
		free(meta);
		free(tsv);
		return -1;
	}
	row->sandboxed = strstr(meta, "\nsandbox bwrap\n") != NULL;
	{
		const char *at = strstr(meta, "\nsubmitted_at ");

		row->submitted = at ? strtoll(at + 14, NULL, 10) : 0;
	}
	/* The grader's verdict, as the student's report shows it: a file
	 * that was not handed in is a COMPILE ERROR there (nothing to
	 * build), and the report lists it under Missing. */
	rc = bt_read_tsv(tsv, l, row);
	free(meta);
	free(tsv);
	row->graded = rc > 0;
	return rc > 0 ? 0 : -1;
}

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

/* ---- the summary -------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bt_quantile(const double *x, int n, double q)
{
	double pos;
	int lo;

	if (n <= 0)
		return 0;
	pos = q * (n - 1);
	lo = (int)floor(pos);
	if (lo >= n - 1)
		return x[n - 1];
	return x[lo] + (pos - lo) * (x[lo + 1] - x[lo]);
}

/* min, quartiles, max and mean of x[0..n-1] (sorted here). */
static void five(FILE *f, double *x, int n)
{
	double sum = 0;

	qsort(x, n, sizeof(*x), cmp_double);
	for (int i = 0; i < n; i++)
		sum += x[i];
	fprintf(f, "min %g, 25%% %.1f, median %.1f, 75%% %.1f, max %g, mean %.1f",
		x[0], bt_quantile(x, n, 0.25), bt_quantile(x, n, 0.5),
		bt_quantile(x, n, 0.75), x[n - 1], sum / n);
}

#define NBINS 7
static const char *const bin_names[NBINS] = {
	"0", "1-19%", "20-39%", "40-59%", "60-79%", "80-99%", "100%"
};

static int bin_of(double points, double max)
{
	double share = max > 0 ? points / max : 0;

	if (points <= 0)
		return 0;
	if (share >= 1 - 1e-9)
		return NBINS - 1;
	return 1 + (int)(share * 5 >= 5 ? 4 : share * 5);
}

static void histogram(FILE *f, const int *bins, int n)
{
	for (int b = 0; b < NBINS; b++) {
		fprintf(f, "  %-7s %3d  ", bin_names[b], bins[b]);
		for (int k = 0; k < bins[b] && k < 60; k++)
			fputc('#', f);
		fputc('\n', f);
	}
	(void)n;
}

struct vcount {
	char verdict[24];
	int ex;
	int n;
	char who[200];
};

static int cmp_vcount(const void *a, const void *b)
{
	const struct vcount *x = a, *y = b;

	if (x->n != y->n)
		return y->n - x->n;
	if (x->ex != y->ex)
		return x->ex - y->ex;
	return strcmp(x->verdict, y->verdict);
}

/* Count (verdict, exercise) pairs over the graded rows. */
static int count_verdicts(const struct bt_labs *l, const struct bt_row *rows,
			  int n, struct vcount *vc, int max)
{
	int nv = 0;

	for (int r = 0; r < n; r++) {
		if (!rows[r].graded)
			continue;
		for (int i = 0; i < l->n; i++) {
			const char *v = rows[r].cell[i].verdict;
			int k;

			if (!rows[r].have[i])
				continue;
			for (k = 0; k < nv; k++)
				if (vc[k].ex == i && !strcmp(vc[k].verdict, v))
					break;
			if (k == nv) {
				if (nv == max)
					continue;
				memset(&vc[nv], 0, sizeof(vc[nv]));
				bt_fmt(vc[nv].verdict, sizeof(vc[nv].verdict), "%s", v);
				vc[nv].ex = i;
				nv++;
			}
			vc[k].n++;
			if (strlen(vc[k].who) + strlen(rows[r].id) + 8 <
			    sizeof(vc[k].who))
				bt_fmt(vc[k].who + strlen(vc[k].who),
					 sizeof(vc[k].who) - strlen(vc[k].who),
					 "%s%s", vc[k].n > 1 ? ", " : "", rows[r].id);
			else if (!strstr(vc[k].who, ", ..."))
				strcat(vc[k].who, ", ...");
		}
	}
	qsort(vc, nv, sizeof(*vc), cmp_vcount);
	return nv;
}

static void per_exercise(FILE *f, const struct bt_labs *l,
			 const struct bt_row *rows, int n, int graded,
			 int points, const struct vcount *vc, int nv)
{
	double *x = malloc(sizeof(*x) * (graded ? graded : 1));

	if (points)
		fprintf(f, "\nPoints per exercise (students with 0 / some / all "
			   "of the points):\n  %-28s %5s %7s %7s %5s %5s %5s\n",
			"exercise", "max", "mean", "median", "zero", "some", "all");
	for (int i = 0; points && x && i < l->n; i++) {
		int k = 0, zero = 0, full = 0;
		double sum = 0, max = 0;
		char name[2 * BT_NAME_LEN + 2];

		if (!l->ex[i].selected)
			continue;
		for (int r = 0; r < n; r++) {
			const struct bt_cell *c = &rows[r].cell[i];

			if (!rows[r].graded || !rows[r].have[i])
				continue;
			x[k++] = c->points;
			sum += c->points;
			max = c->max > max ? c->max : max;
			zero += c->points <= 0;
			full += c->max > 0 && c->points >= c->max - 1e-9;
		}
		if (!k)
			continue;
		qsort(x, k, sizeof(*x), cmp_double);
		bt_fmt(name, sizeof(name), "%s/%s", l->ex[i].lab, l->ex[i].name);
		fprintf(f, "  %-28s %5g %7.1f %7.1f %5d %5d %5d\n", name, max,
			sum / k, bt_quantile(x, k, 0.5), zero, k - zero - full, full);
	}
	free(x);
	fprintf(f, "\nVerdicts per exercise:\n");
	for (int i = 0; i < l->n; i++) {
		char name[2 * BT_NAME_LEN + 2];
		int first = 1;

		if (!l->ex[i].selected)
			continue;
		bt_fmt(name, sizeof(name), "%s/%s", l->ex[i].lab, l->ex[i].name);
		fprintf(f, "  %-28s", name);
		for (int k = 0; k < nv; k++) {
			if (vc[k].ex != i)
				continue;
			fprintf(f, "%s%s %d", first ? " " : ", ", vc[k].verdict,
				vc[k].n);
			first = 0;
		}
		fputc('\n', f);
	}
}

void bt_write_summary(FILE *f, const struct bt_labs *l,
		      const struct bt_row *rows, int n, const char *title,
		      int built_only)
{
	int graded = 0, unboxed = 0, points = !built_only, nv, shown = 0;
	int bins[NBINS] = { 0 };
	double *tot = malloc(sizeof(*tot) * (n ? n : 1)), max = 0;
	struct vcount *vc = calloc(BT_MAX_EX * 16, sizeof(*vc));

	for (int r = 0; r < n; r++) {
		if (!rows[r].graded)
			continue;
		if (tot)
			tot[graded] = rows[r].total;
		graded++;
		unboxed += !rows[r].sandboxed;
		max = rows[r].max > max ? rows[r].max : max;
	}
	fprintf(f, "Class summary: %s\n", title);
	fprintf(f, "%d submission%s: %d graded, %d not graded\n", n,
		n == 1 ? "" : "s", graded, n - graded);
	if (unboxed)
		fprintf(f, "WARNING: UNSANDBOXED: %d submission%s graded WITHOUT "
			   "a sandbox (SANDBOX=off)\n",
			unboxed, unboxed == 1 ? " was" : "s were");
	else if (graded)
		fprintf(f, "Every submission was built and run in the sandbox "
			   "(bubblewrap).\n");
	if (graded && points && tot) {
		for (int r = 0; r < n; r++)
			if (rows[r].graded)
				bins[bin_of(rows[r].total, rows[r].max)]++;
		fprintf(f, "\nTotal points (of %g): ", max);
		five(f, tot, graded);
		fprintf(f, "\n");
		histogram(f, bins, graded);
	} else if (graded) {
		fprintf(f, "\nBuilt and checked only: no code ran and no points "
			   "were given.\n");
	}
	nv = vc ? count_verdicts(l, rows, n, vc, BT_MAX_EX * 16) : 0;
	if (graded)
		per_exercise(f, l, rows, n, graded, points, vc, nv);
	fprintf(f, "\nMost common verdicts other than PASS%s:\n",
		points ? "" : " and BUILT");
	for (int k = 0; k < nv && shown < 10; k++) {
		const struct bt_exercise *e = &l->ex[vc[k].ex];
		char name[2 * BT_NAME_LEN + 2];

		if (!strcmp(vc[k].verdict, "PASS") || !strcmp(vc[k].verdict, "BUILT"))
			continue;
		bt_fmt(name, sizeof(name), "%s/%s", e->lab, e->name);
		fprintf(f, "  %3d  %-15s %-28s %s\n", vc[k].n, vc[k].verdict, name,
			vc[k].who);
		shown++;
	}
	if (!shown)
		fprintf(f, "  none\n");
	if (graded < n) {
		fprintf(f, "\nNot graded yet (the next run grades them; where "
			   "grading failed, failed/<student>/ says why):\n");
		for (int r = 0; r < n; r++)
			if (!rows[r].graded)
				fprintf(f, "  %s\n", rows[r].id);
	}
	free(tot);
	free(vc);
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
