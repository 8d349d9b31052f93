/* SPDX-License-Identifier: MIT */
/*
 * html.h - report.html: a grading run as one page to look at (html.c),
 * its charts drawn as inline SVG (chart.c). The page fetches nothing and
 * runs no script: CSS and SVG written into it, every piece of text that a
 * submission can influence (its output, file names, the source's name)
 * escaped.
 *
 * Each chart element carries its numbers as data- attributes (data-value
 * on axis ticks, data-x and data-y on points, in the axis' units), so that
 * a test can check the drawing against the results (tests/report/).
 */
#ifndef GRADER_HTML_H
#define GRADER_HTML_H

#include <stdio.h>

#include "history.h"
#include "html_text.h"
#include "report.h"

/* What a page re-drawn by make report says about where it came from. */
struct html_opts {
	const char *results; /* the file it was drawn from */
	const char *from;    /* "report data", "results.tsv" */
	const char *notes;   /* the file's comment lines, or NULL */
	int no_seed;         /* the file does not say the seed */
};

/*
 * The solutions' last run (make grade-solutions' report.run), whose times
 * the page shows as "solution" points beside a student's: 0, or -1 when
 * the file is absent (nothing shown) or unreadable (said on stderr).
 */
int html_load_solutions(const char *path);

/* formats.h's writer: report.html, whole or not at all. */
int report_html(const char *path, const struct g_run *run);
/* The same, saying where it came from (o may be NULL). */
int html_write(const char *path, const struct g_run *run,
	       const struct html_opts *o);
void html_page(FILE *f, const struct g_run *run, const struct html_opts *o);

/* ---- the charts (chart.c) ---- */

/* The lab's roofline(s): GB/s for exercises that count no FLOPs, FLOP/s
 * against arithmetic intensity for those that do. Nothing if none timed. */
void chart_lab(FILE *f, const struct g_run *run, const char *lab);
/* An exercise's speedup against the naive and its tiers, w pixels wide;
 * big: with the marks labelled. */
void chart_speedup(FILE *f, const struct g_row *row, int w, int big);
/* The attempts a history chart shows at most (the newest). */
#define CHART_MAX_ATTEMPTS 200
/* An exercise's speedups over its attempts, with its tier lines. */
void chart_history(FILE *f, const struct g_row *row,
		   const struct hist_entry *e, int n);

/* The solutions' run for the charts (NULL: none; html_load_solutions). */
void chart_set_solutions(const struct g_run *sol);
/* The solution's median time for row in that run, 0 if it has none (or
 * run is the solutions' own). */
double chart_solution_us(const struct g_run *run, const struct g_row *row);

/* The time the peer (the library) took: timed, or the ideal when the
 * ideal is the peer's; 0 when neither. */
double chart_peer_us(const struct g_result *r);

#endif /* GRADER_HTML_H */
