/* SPDX-License-Identifier: MIT */
/*
 * formats.h - the files a grading run writes, from its results (never from
 * the terminal table, report.h). One table, report_formats[], names each
 * format with the grader's option and make grade's variable that ask for
 * it and the function that writes it:
 *
 *   --json       JSON       Gradescope's results.json
 *   --tsv        TSV        tab-separated, a line per exercise, for scripts
 *   --classroom  CLASSROOM  the JSON GitHub Classroom's reporter
 *                           (classroom-resources/autograding-grading-reporter)
 *                           reads: version, status, max_score, and per test
 *                           name, status, score, message
 *   --junit      JUNIT      JUnit XML: testsuites / testsuite (one per lab)
 *                           / testcase (one per exercise) with failure or
 *                           error, as Jenkins, GitLab and most CI systems
 *                           read it (the Ant/Jenkins schema)
 *   --report-data REPORT_DATA  report.run: the run whole, which make report
 *                           reads back (runfile.h)
 *   --html       HTML       report.html: a page with each lab's roofline,
 *                           each exercise's tiers and attempts (html.h)
 *
 * The driver walks the table (struct report_outputs): a new format is one
 * writer and one row. Every file is written whole or not at all.
 */
#ifndef GRADER_FORMATS_H
#define GRADER_FORMATS_H

#include <stdio.h>

struct g_run;

/* One file format a run can be written in. */
struct report_format {
	const char *name;   /* "Gradescope", "JUnit XML" */
	const char *option; /* the grader's option: "--json" */
	const char *var;    /* make grade's variable that sets it: "JSON" */
	const char *what;   /* what the file is for, a few words */
	/* Write the file whole at path (report_write_atomic): 0, or -1. */
	int (*write)(const char *path, const struct g_run *run);
};

#define REPORT_MAX_FORMATS 8

extern const struct report_format report_formats[];
extern const int report_nformats;

/* The writers, each a row of report_formats[]. */
int report_json(const char *path, const struct g_run *run);
int report_tsv(const char *path, const struct g_run *run);
int report_classroom(const char *path, const struct g_run *run);
int report_junit(const char *path, const struct g_run *run);

/* Which files one run writes: a path per row of report_formats[]. */
struct report_outputs {
	const char *path[REPORT_MAX_FORMATS]; /* NULL: not written */
};

/*
 * If opt is a format's option, take value as its path ("" writes none)
 * and return 1; else 0.
 */
int report_outputs_set(struct report_outputs *o, const char *opt,
		       const char *value);
/* Remove them all, so that none outlives the run it does not describe. */
void report_outputs_remove(const struct report_outputs *o);
/* Write each, saying on stderr which cannot be, and list on say those
 * written ("results: A, B", wrapped at 80 columns); -1 if one failed. */
int report_outputs_write(const struct report_outputs *o,
			 const struct g_run *run, FILE *say);
/* The options, a line each, for the grader's usage. */
void report_outputs_usage(FILE *f);

/* Helpers for writers. */
/* s as a JSON string literal, invalid UTF-8 replaced. */
void report_json_str(FILE *f, const char *s);
/* Length of the valid UTF-8 sequence at s, or 0 if it is not one
 * (html_text.c, which make batch links without the rest). */
int report_utf8_len(const unsigned char *s);

#endif /* GRADER_FORMATS_H */
