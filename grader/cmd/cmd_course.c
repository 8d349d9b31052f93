/* SPDX-License-Identifier: MIT */
/*
 * cmd_course.c - grader --course FILE --check-course summary|labs|
 * exercises: a course file checked against the labs, and what it grades
 * (for make, the batch and the Gradescope bundle). Nothing runs.
 */
#include "cmd.h"

#include <stdio.h>
#include <stdlib.h>

#include "labs.h"

/* --check-course labs (or exercises): the lab folders (lab/exercise
 * pairs) the course grades and LAB= allows, one a line, for make, the
 * batch and the Gradescope bundle. Read from lab.mk: nothing is built. */
static int course_labs(const struct options *o, const struct course *c)
{
	static struct g_spec ex[LABS_MAX_PER_LAB];
	char *labs[LABS_MAX];
	int n = labs_find(o->labs_dir, o->lab, labs, LABS_MAX), shown = 0;
	int bad = n <= 0 || labs_words_exist(o->lab, labs, n);

	for (int i = 0; i < n; i++) {
		int k = bad || !course_grades_lab(c, labs[i]) ? 0 :
			o->check_course == 2 ? 1 :
			labs_from_mk(o->labs_dir, labs[i], ex, LABS_MAX_PER_LAB);

		for (int e = 0; e < k; e++) {
			if (o->check_course == 2)
				printf("%s\n", labs[i]);
			else if (course_grades(c, labs[i], ex[e].name))
				printf("%s/%s\n", labs[i], ex[e].name);
			else
				continue;
			shown++;
		}
		free(labs[i]);
	}
	if (!bad && !shown)
		fprintf(stderr, "grader: %s grades none of the labs %s\n",
			c->path, o->lab ? o->lab : "here");
	else if (n <= 0)
		fprintf(stderr, "grader: no lab%s%s under %s\n",
			o->lab ? " named " : "s", o->lab ? o->lab : "",
			o->labs_dir);
	return shown ? 0 : 2;
}

/* --check-course summary: what the course grades and what it changes. */
static int course_summary(const struct course *c, const struct g_run *run)
{
	/* Without a lab's table its tiers could not be checked. */
	for (int i = 0; i < run->nrows; i++) {
		const struct g_row *r = &run->rows[i];

		if (r->res.verdict == WB_V_ERROR && r->res.ndetails) {
			fprintf(stderr, "grader: %s/%s: %s: its settings could "
					"not be checked\n", r->spec.lab,
				r->spec.name, r->res.details[0]);
			return 2;
		}
	}
	printf("%s: valid%s%s%s\n", c->path, c->name[0] ? " (" : "", c->name,
	       c->name[0] ? ")" : "");
	printf("assignment: %s\n", c->assignment[0] ? c->assignment :
	       "(not named: its bundle is named after the file)");
	printf("grades %d exercise%s%s:", run->nrows, run->nrows == 1 ? "" : "s",
	       c->npicks ? "" : " (every lab: the file names none)");
	for (int i = 0; i < run->nrows; i++)
		printf(" %s/%s", run->rows[i].spec.lab, run->rows[i].spec.name);
	printf("\nchanges: %s\n", run->course_changes ? "" : "nothing");
	if (run->course_changes)
		printf("%s\n", run->course_changes);
	return 0;
}

int cmd_course(struct cmd_state *st)
{
	int rc = cmd_start(st);

	if (rc)
		return rc;
	if (st->o.check_course >= 2)
		return course_labs(&st->o, &st->course);
	rc = cmd_rows(st);
	return rc ? rc : course_summary(&st->course, &st->run);
}
