/* SPDX-License-Identifier: MIT */
/*
 * classpage.c - class.html beside the gradebook: for each exercise, how
 * the class's verdicts count up, how its points spread (a histogram in
 * tenths of the exercise's points) and how the speedups of the
 * submissions that passed spread (minimum, quartiles, maximum on a log
 * scale, with the tiers as the median submission's GPU put them). In
 * report.html's style (grader/html_text.c), with no script and nothing
 * fetched; no student is named, unless the course file asks for a
 * leaderboard (board.c).
 *
 * Floor 4 (batch.h): uses conf, row, tsv, board, util, files, and outside
 * this folder common/stats.h (the quartiles) and grader/html_text.h.
 */
#include "classpage.h"
#include "board.h"
#include "files.h"
#include "tsv.h"
#include "util.h"
#include "../../common/stats.h"
#include "../../grader/html_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BINS 10
#define MAX_TIERS 8

/* One exercise over the class. */
struct ex_stats {
	char verdict[16][24];
	int count[16], nverdicts;
	int bins[BINS];
	double *speedup;        /* of those that passed */
	int nspeedup;
	double *tier[MAX_TIERS]; /* each tier as a speedup, per submission */
	int ntier[MAX_TIERS];
	double max;
};

static void count_verdict(struct ex_stats *s, const char *v)
{
	int i = 0;

	while (i < s->nverdicts && strcmp(s->verdict[i], v))
		i++;
	if (i == s->nverdicts) {
		if (i == 16)
			return;
		bt_fmt(s->verdict[s->nverdicts++], 24, "%s", v);
	}
	s->count[i]++;
}

static void add_tiers(struct ex_stats *s, const char *list)
{
	char *end;

	for (int k = 0; k < MAX_TIERS; k++) {
		double x = strtod(list, &end);

		if (end == list)
			break;
		s->tier[k][s->ntier[k]++] = x;
		list = end;
	}
}

/* One student's results.tsv: each passing exercise's speedup and tiers. */
static void read_speedups(const char *dir, const struct bt_labs *l,
			  struct ex_stats *st)
{
	char path[BT_PATH], lab[64], ex[64], v[24], sp[32], tiers[128];
	char *tsv, *line, *save = NULL;
	int cl, ce, cv, cs, ct;

	bt_fmt(path, sizeof(path), "%s/results.tsv", dir);
	tsv = bt_read(path, 4 << 20);
	line = tsv ? strtok_r(tsv, "\n", &save) : NULL;
	if (!line)
		goto out;
	cl = bt_tsv_col(line, "lab");
	ce = bt_tsv_col(line, "exercise");
	cv = bt_tsv_col(line, "verdict");
	cs = bt_tsv_col(line, "speedup");
	ct = bt_tsv_col(line, "tier_speedups");
	if (cl < 0 || ce < 0 || cv < 0 || cs < 0)
		goto out;
	while ((line = strtok_r(NULL, "\n", &save))) {
		bt_tsv_field(line, cl, lab, sizeof(lab));
		bt_tsv_field(line, ce, ex, sizeof(ex));
		bt_tsv_field(line, cv, v, sizeof(v));
		bt_tsv_field(line, cs, sp, sizeof(sp));
		for (int i = 0; i < l->n; i++) {
			struct ex_stats *s = &st[i];

			if (strcmp(l->ex[i].lab, lab) || strcmp(l->ex[i].name, ex) ||
			    strcmp(v, "PASS") || atof(sp) <= 0)
				continue;
			s->speedup[s->nspeedup++] = atof(sp);
			if (ct >= 0) {
				bt_tsv_field(line, ct, tiers, sizeof(tiers));
				add_tiers(s, tiers);
			}
		}
	}
out:
	free(tsv);
}

static int gather(const struct bt_conf *c, const struct bt_row *rows, int n,
		  struct ex_stats *st)
{
	char dir[BT_PATH];

	for (int i = 0; i < c->labs.n; i++) {
		st[i].speedup = calloc(n + 1, sizeof(double));
		if (!st[i].speedup)
			return -1;
		for (int k = 0; k < MAX_TIERS; k++)
			if (!(st[i].tier[k] = calloc(n + 1, sizeof(double))))
				return -1;
	}
	for (int r = 0; r < n; r++) {
		for (int i = 0; i < c->labs.n; i++) {
			const struct bt_cell *cell = &rows[r].cell[i];

			if (!rows[r].have[i])
				continue;
			count_verdict(&st[i], cell->verdict);
			st[i].max = fmax(st[i].max, cell->max);
			if (cell->max > 0)
				st[i].bins[(int)fmin(BINS - 1, floor(BINS * cell->points /
								 cell->max))]++;
		}
		bt_fmt(dir, sizeof(dir), "%s/students/%s", c->out, rows[r].id);
		read_speedups(dir, &c->labs, st);
	}
	return 0;
}

/* ---- drawing --------------------------------------------------------- */

static const char *verdict_colour(const char *v)
{
	static const char *const map[][2] = {
		{ "PASS", "#1a7f37" }, { "WRONG", "#cf222e" },
		{ "NOT_IMPLEMENTED", "#6e7781" }, { "COMPILE_ERROR", "#bc4c00" },
		{ "MISSING", "#afb8c1" }, { "SUSPICIOUS", "#8250df" },
		{ "REJECTED", "#8250df" }, { "GRADER_ERROR", "#57606a" },
		{ "BUILT", "#0969da" }, { "SKELETON", "#6e7781" },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i][0], v))
			return map[i][1];
	return "#a40e26"; /* CRASH, TIMEOUT, OUT_OF_BOUNDS, sanitizers */
}

static void verdict_bar(FILE *f, const struct ex_stats *s, int total)
{
	double x = 0, w = 220;

	fprintf(f, "<svg class=\"verdicts\" width=\"%.0f\" height=\"14\" "
		   "xmlns=\"http://www.w3.org/2000/svg\">", w);
	for (int i = 0; i < s->nverdicts && total; i++) {
		double dw = w * s->count[i] / total;

		fprintf(f, "<rect x=\"%.2f\" y=\"0\" width=\"%.2f\" height=\"14\" "
			   "fill=\"%s\"><title>", x, dw, verdict_colour(s->verdict[i]));
		html_str(f, s->verdict[i]);
		fprintf(f, " %d</title></rect>", s->count[i]);
		x += dw;
	}
	fprintf(f, "</svg><div class=\"counts\">");
	for (int i = 0; i < s->nverdicts; i++) {
		fprintf(f, "%s<span class=\"count\" data-verdict=\"", i ? " " : "");
		html_str(f, s->verdict[i]);
		fprintf(f, "\" data-count=\"%d\" style=\"color:%s\">", s->count[i],
			verdict_colour(s->verdict[i]));
		html_str(f, s->verdict[i]);
		fprintf(f, " %d</span>", s->count[i]);
	}
	fprintf(f, "</div>");
}

static void histogram(FILE *f, const struct ex_stats *s)
{
	int top = 1;

	for (int b = 0; b < BINS; b++)
		top = s->bins[b] > top ? s->bins[b] : top;
	fprintf(f, "<svg class=\"points\" width=\"200\" height=\"40\" "
		   "xmlns=\"http://www.w3.org/2000/svg\">");
	for (int b = 0; b < BINS; b++) {
		double h = 30.0 * s->bins[b] / top;

		fprintf(f, "<rect class=\"bin\" data-bin=\"%d\" data-count=\"%d\" "
			   "x=\"%d\" y=\"%.2f\" width=\"18\" height=\"%.2f\" "
			   "fill=\"#0969da\"><title>%d-%d%%: %d</title></rect>", b,
			s->bins[b], b * 20, 30 - h, h, b * 10, b * 10 + 10, s->bins[b]);
	}
	fprintf(f, "<text x=\"0\" y=\"40\">0</text><text x=\"200\" y=\"40\" "
		   "text-anchor=\"end\">%g</text></svg>", s->max);
}

/* Minimum, quartiles and maximum of the speedups, log scale, the median
 * submission's tiers marked (common/stats.c's quartiles). */
static void speedups(FILE *f, struct ex_stats *s)
{
	double q[5], tier[MAX_TIERS], lo, hi, w = 260;
	struct wb_summary sum;

	if (!s->nspeedup) {
		fprintf(f, "none passed");
		return;
	}
	wb_summarize(s->speedup, s->nspeedup, &sum);
	q[0] = sum.min;
	q[1] = sum.q1;
	q[2] = sum.median;
	q[3] = sum.q3;
	q[4] = sum.max;
	lo = fmin(0.8, q[0] * 0.8);
	hi = q[4] * 1.2;
	for (int k = 0; k < MAX_TIERS && s->ntier[k]; k++) {
		wb_summarize(s->tier[k], s->ntier[k], &sum);
		tier[k] = sum.median;
		hi = fmax(hi, tier[k] * 1.2);
	}
#define X(v) (4 + (w - 8) * (log10(v) - log10(lo)) / (log10(hi) - log10(lo)))
	fprintf(f, "<svg class=\"spread\" data-median=\"%.4f\" data-n=\"%d\" "
		   "width=\"%.0f\" height=\"26\" xmlns=\"http://www.w3.org/2000/svg\">"
		   "<line x1=\"%.2f\" y1=\"12\" x2=\"%.2f\" y2=\"12\" stroke=\"#57606a\"/>"
		   "<rect x=\"%.2f\" y=\"5\" width=\"%.2f\" height=\"14\" "
		   "fill=\"#ddf4ff\" stroke=\"#0969da\"/><line x1=\"%.2f\" y1=\"4\" "
		   "x2=\"%.2f\" y2=\"20\" stroke=\"#0969da\" stroke-width=\"2\"/>",
		q[2], s->nspeedup, w, X(q[0]), X(q[4]), X(q[1]), X(q[3]) - X(q[1]),
		X(q[2]), X(q[2]));
	for (int k = 0; k < MAX_TIERS && s->ntier[k]; k++) {
		double t = tier[k];

		fprintf(f, "<line class=\"tier\" data-value=\"%.3f\" x1=\"%.2f\" "
			   "y1=\"0\" x2=\"%.2f\" y2=\"24\" stroke=\"#1f2328\" "
			   "stroke-dasharray=\"3 2\"/>", t, X(t), X(t));
	}
#undef X
	fprintf(f, "</svg> median %.2fx (%d passed; %.2f-%.2fx)", q[2],
		s->nspeedup, q[0], q[4]);
}

static void page(FILE *f, const struct bt_conf *c, int n, struct ex_stats *st,
		 const char *title, const struct bt_row *rows, int nrows)
{
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		   "\n<title>Class report</title>\n<style>%s.counts{font-size:12px}"
		   "</style></head>\n<body>\n<h1>Class report</h1>\n<p class=\"sub\">",
		html_css);
	html_str(f, title);
	fprintf(f, ": %d submission%s. Points: a histogram in tenths of each "
		   "exercise's points. Speedups: of the submissions that passed, "
		   "minimum to maximum, the box from the first to the third quartile, "
		   "the median marked; the dashed lines are the tiers on the median "
		   "submission's GPU.</p>\n", n, n == 1 ? "" : "s");
	fprintf(f, "<table class=\"overview\"><tr><th>exercise</th><th>verdicts"
		   "</th><th>points</th><th>speedups (log scale)</th></tr>\n");
	for (int i = 0; i < c->labs.n; i++) {
		if (!c->labs.ex[i].selected)
			continue;
		fprintf(f, "<tr class=\"ex\" data-lab=\"");
		html_str(f, c->labs.ex[i].lab);
		fprintf(f, "\" data-ex=\"");
		html_str(f, c->labs.ex[i].name);
		fprintf(f, "\"><td>");
		html_str(f, c->labs.ex[i].lab);
		fputc('/', f);
		html_str(f, c->labs.ex[i].name);
		fprintf(f, "</td><td>");
		verdict_bar(f, &st[i], n);
		fprintf(f, "</td><td>");
		histogram(f, &st[i]);
		fprintf(f, "</td><td>");
		speedups(f, &st[i]);
		fprintf(f, "</td></tr>\n");
	}
	fprintf(f, "</table>\n");
	if (c->late.leaderboard)
		bt_board_html(f, c, rows, nrows);
	fprintf(f, "</body></html>\n");
}

int bt_write_classpage(const struct bt_conf *c, const struct bt_row *rows,
		       int n, const char *title)
{
	struct ex_stats *st = calloc(c->labs.n + 1, sizeof(*st));
	char path[BT_PATH], *text = NULL;
	size_t len = 0;
	FILE *m;
	int rc = -1;

	if (!st || gather(c, rows, n, st))
		goto out;
	m = open_memstream(&text, &len);
	if (!m)
		goto out;
	page(m, c, n, st, title, rows, n);
	if (fclose(m))
		goto out;
	bt_fmt(path, sizeof(path), "%s/class.html", c->out);
	rc = bt_write_atomic(path, text);
out:
	for (int i = 0; st && i < c->labs.n; i++) {
		free(st[i].speedup);
		for (int k = 0; k < MAX_TIERS; k++)
			free(st[i].tier[k]);
	}
	free(st);
	free(text);
	return rc;
}
