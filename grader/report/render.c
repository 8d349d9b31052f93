/* SPDX-License-Identifier: MIT */
/*
 * render.c - make report and make history, with no GPU: report.html drawn
 * again from a run's report.run (or a results.tsv, or a calibration's
 * all.tsv), and the attempts of the history files as a table.
 *
 *   render --results FILE --html OUT [--source NAME] [--solutions FILE]
 *   render --history FILE... [--lab L] [--ex E]
 *
 * Exit status: 0, 1 when there was nothing to show, 2 on bad arguments or
 * a file that cannot be read or written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "html.h"
#include "runfile.h"

#define MAX_ENTRIES 20000

static int usage(void)
{
	fprintf(stderr, "usage: render --results FILE --html OUT [--source NAME] "
			"[--solutions REPORT.RUN]\n"
			"       render --history FILE... [--lab L] [--ex E]\n");
	return 2;
}

static int report(const char *results, const char *html, const char *source)
{
	struct runfile rf;
	struct html_opts o;
	char err[512];
	int ret = 0;

	if (runfile_read(results, source, &rf, err, sizeof(err))) {
		fprintf(stderr, "make report: %s: %s\n", results, err);
		runfile_free(&rf);
		return 2;
	}
	o = (struct html_opts){ .results = results, .from = rf.from,
				.notes = rf.notes,
				.no_seed = strcmp(rf.from, "report data") != 0 };
	if (html_write(html, &rf.run, &o)) {
		fprintf(stderr, "make report: cannot write %s\n", html);
		ret = 2;
	} else {
		printf("report: %s (%d exercises, from %s)\n", html, rf.run.nrows,
		       rf.from);
	}
	runfile_free(&rf);
	return ret;
}

/* LAB= names a lab in full (05-reduction), without its number, or by
 * its number alone (05). */
static int lab_matches(const char *lab, const char *want)
{
	const char *dash = strchr(lab, '-');

	return !want || !*want || !strcmp(lab, want) ||
	       (dash && !strcmp(dash + 1, want)) ||
	       (dash && strlen(want) == (size_t)(dash - lab) &&
		!strncmp(lab, want, strlen(want)));
}

static int history(char **files, int nfiles, const char *lab, const char *ex)
{
	struct hist_entry *e = malloc(MAX_ENTRIES * sizeof(*e));
	int n = 0, kept = 0;

	if (!e)
		return 2;
	for (int i = 0; i < nfiles && n < MAX_ENTRIES; i++)
		n += hist_read(files[i], NULL, NULL, e + n, MAX_ENTRIES - n);
	for (int i = 0; i < n; i++)
		if (lab_matches(e[i].lab, lab) && (!ex || !*ex || !strcmp(e[i].name, ex)))
			e[kept++] = e[i];
	if (kept)
		hist_table(stdout, e, kept);
	else
		printf("no graded attempts yet%s (make grade records each one)\n",
		       n ? " of that exercise" : "");
	free(e);
	return 0; /* none yet is an answer, not an error */
}

int main(int argc, char **argv)
{
	const char *results = NULL, *html = NULL, *source = NULL;
	const char *lab = NULL, *ex = NULL;
	char *files[64];
	int nfiles = 0, hist = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--history")) {
			hist = 1;
			continue;
		}
		if (hist && a[0] != '-' && nfiles < 64) {
			files[nfiles++] = argv[i];
			continue;
		}
		if (!v)
			return usage();
		if (!strcmp(a, "--results"))
			results = v;
		else if (!strcmp(a, "--html"))
			html = v;
		else if (!strcmp(a, "--source"))
			source = *v ? v : NULL;
		else if (!strcmp(a, "--solutions"))
			html_load_solutions(v);
		else if (!strcmp(a, "--lab"))
			lab = v;
		else if (!strcmp(a, "--ex"))
			ex = v;
		else
			return usage();
		i++;
	}
	if (hist)
		return history(files, nfiles, lab, ex);
	if (!results || !html)
		return usage();
	return report(results, html, source);
}
