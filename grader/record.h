/* SPDX-License-Identifier: MIT */
/*
 * record.h - reading what runners say (record.c): a lab's `info --list`
 * table and an exercise's result record (common/result.h), and the
 * details a result collects on the way.
 */
#ifndef GRADER_RECORD_H
#define GRADER_RECORD_H

#include "grade.h"

/* Parse `info --list` output; returns the number of specs, -1 if garbled. */
int g_parse_list(const char *text, const char *lab, struct g_spec *out,
		 int max);
/* Parse a result channel record into r (verdict, details, timings). */
void g_parse_record(const char *text, struct g_result *r);
/* Append a detail line (printf format) to r. */
void g_detail(struct g_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* GRADER_RECORD_H */
