/* SPDX-License-Identifier: MIT */
/*
 * labs.h - a run's labs: what each lab's table says (its info binary's
 * `--list`) and the rows a run grades, from the lab folders labfind.h
 * finds.
 *
 * May use: the base (grade.h, labfind.h, record.h, proc.h, settle.h),
 * inspect.h (a lab's technique rules) and course.h (what a course
 * grades).
 */
#ifndef GRADER_LABS_H
#define GRADER_LABS_H

#include "grade.h"
#include "labfind.h"

struct course;

/* The exercises lab.mk lists, as specs with no more than their names
 * (labs_mk_exercises()): for when the lab's own code did not build. */
int labs_from_mk(const char *labs_dir, const char *lab, struct g_spec *out,
		 int max);

/* The lab's table from its info binary (build_dir/lab/info --list; with
 * build_only, make check's build_dir/lab/table where there is one); -1
 * when it cannot say. */
int labs_table(const char *build_dir, const char *lab, int build_only,
	       struct g_spec *out, int max);

/* What a run grades. */
struct labs_query {
	const char *labs_dir;
	const char *build_dir;
	const char *lab;  /* LAB=, or NULL: every lab */
	const char *ex;   /* EX=, or NULL: every exercise */
	int build_only;   /* make check: the table without the peers */
};

/* The rows for the labs and exercises q asks for that the course c
 * grades (c NULL: no course), each with its table and technique rules;
 * a lab whose code did not build gives rows already ERROR. The number of
 * rows, or -1 with the reason on stderr. */
int labs_collect(const struct labs_query *q, const struct course *c,
		 struct g_row *rows, int max);

#endif /* GRADER_LABS_H */
