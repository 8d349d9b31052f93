/* SPDX-License-Identifier: MIT */
/*
 * summary.c - summary.txt (summary.h): how many were graded and whether in
 * the sandbox (UNSANDBOXED said loudly where not), the totals' minimum,
 * quartiles, maximum and mean and their histogram, each exercise's points
 * and verdicts, the most common verdicts other than PASS (and BUILT) with
 * who had them, and who is not graded yet.
 *
 * Floor 4 (batch.h): uses lablist, row, util and, outside this folder,
 * common/stats.h (the quartiles).
 */
#include "summary.h"
#include "util.h"
#include "../../common/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* min, quartiles, max and mean of x[0..n-1] (sorted here). */
static void five(FILE *f, double *x, int n)
{
	double sum = 0;

	qsort(x, n, sizeof(*x), cmp_double);
	for (int i = 0; i < n; i++)
		sum += x[i];
	fprintf(f, "min %g, 25%% %.1f, median %.1f, 75%% %.1f, max %g, mean %.1f",
		x[0], wb_quantile(x, n, 0.25), wb_quantile(x, n, 0.5),
		wb_quantile(x, n, 0.75), x[n - 1], sum / n);
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
			sum / k, wb_quantile(x, k, 0.5), zero, k - zero - full, full);
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
