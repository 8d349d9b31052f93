/* SPDX-License-Identifier: MIT */
/*
 * labs.c - a run's labs (labs.h): each lab's table from its info binary,
 * and the rows LAB=, EX= and the course ask for, from the lab folders
 * labfind.h finds.
 */
#include "labs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "course.h"
#include "inspect.h"
#include "labfind.h"
#include "proc.h"
#include "record.h"
#include "settle.h"

#define LABS_PATH 1024

/* Seconds allowed to `info --list`. */
#define LIST_TIMEOUT_S 20.0

/* The exercises lab.mk lists, as specs with no more than their names:
 * for when the lab's own code did not build. */
int labs_from_mk(const char *labs_dir, const char *lab, struct g_spec *out,
		 int max)
{
	char names[1024], *save = NULL;
	int n = 0;

	if (labs_mk_exercises(labs_dir, lab, names, sizeof(names)))
		return 0;
	for (char *w = strtok_r(names, " \t", &save); w && n < max;
	     w = strtok_r(NULL, " \t", &save)) {
		memset(&out[n], 0, sizeof(out[n]));
		snprintf(out[n].lab, G_NAME_LEN, "%s", lab);
		snprintf(out[n].name, G_NAME_LEN, "%s", w);
		snprintf(out[n].bench, G_NAME_LEN, "-");
		n++;
	}
	return n;
}

/* Ask the lab's info binary for its table; -1 if it cannot say. In
 * build-only mode, make check's <lab>/table (the same table, without the
 * library peers that only a grade times) where there is one. */
int labs_table(const char *build_dir, const char *lab, int build_only,
	       struct g_spec *out, int max)
{
	char info[LABS_PATH], outp[LABS_PATH], *text;
	char *argv[] = { info, "--list", NULL };
	struct proc_result pr;
	int n;

	snprintf(info, sizeof(info), "%s/%s/table", build_dir, lab);
	if (!build_only || !file_exists(info))
		snprintf(info, sizeof(info), "%s/%s/info", build_dir, lab);
	snprintf(outp, sizeof(outp), "%s/%s/info.list", build_dir, lab);
	if (!file_exists(info) || proc_run(argv, outp, LIST_TIMEOUT_S, &pr) < 0 ||
	    !pr.exited || pr.code)
		return -1;
	text = read_file(outp, 1 << 20);
	n = text ? g_parse_list(text, lab, out, max) : -1;
	free(text);
	return n;
}

/* Build the list of rows for the labs and exercises asked for (LAB=,
 * EX=, and what the course c grades; c NULL: no course). */
int labs_collect(const struct labs_query *q, const struct course *c,
		 struct g_row *rows, int max)
{
	char *labs[LABS_MAX], choices[2048] = "";
	struct g_spec specs[LABS_MAX_PER_LAB];
	int nlabs = labs_find(q->labs_dir, q->lab, labs, LABS_MAX), n = 0;

	if (nlabs <= 0) {
		fprintf(stderr, "grader: no lab%s%s under %s\n", q->lab ? " named " : "",
			q->lab ? q->lab : "s", q->labs_dir);
		return -1;
	}
	if (labs_words_exist(q->lab, labs, nlabs)) {
		for (int l = 0; l < nlabs; l++)
			free(labs[l]);
		return -1;
	}
	for (int l = 0; l < nlabs; l++) {
		int k, broken;

		if (c && !course_grades_lab(c, labs[l])) {
			free(labs[l]);
			continue;
		}
		k = labs_table(q->build_dir, labs[l], q->build_only, specs,
			       LABS_MAX_PER_LAB);
		broken = k < 0;

		if (broken)
			k = labs_from_mk(q->labs_dir, labs[l], specs, LABS_MAX_PER_LAB);
		else
			g_rules_load(q->build_dir, labs[l], specs, k);
		for (int i = 0; i < k && n < max; i++) {
			size_t used = strlen(choices);

			snprintf(choices + used, sizeof(choices) - used, " %s",
				 specs[i].name);
			if ((q->ex && strcmp(q->ex, specs[i].name)) ||
			    (c && !course_grades(c, labs[l], specs[i].name)))
				continue;
			memset(&rows[n], 0, sizeof(rows[n]));
			rows[n].spec = specs[i];
			if (broken) {
				g_settle(&rows[n].res, WB_V_ERROR);
				g_detail(&rows[n].res, "the lab's own code (%s) did not "
						       "build or run: see %s/%s/",
					 labs[l], q->build_dir, labs[l]);
			}
			n++;
		}
		free(labs[l]);
	}
	if (n == 0)
		fprintf(stderr, "grader: no exercise %s in %s%s%s\n",
			q->ex ? q->ex : "", q->lab ? q->lab : "the labs",
			c && c->npicks ? " that the course file grades: " : "",
			c && c->npicks ? c->path : "");
	if (n == 0 && q->ex && choices[0])
		fprintf(stderr, "grader: the exercises there (EX=):%s\n", choices);
	return n ? n : -1;
}

