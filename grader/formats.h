/* SPDX-License-Identifier: MIT */
/*
 * formats.h - the same results for other systems, beside report.h's table,
 * Gradescope results.json and TSV:
 *
 *   GitHub Classroom  the JSON a test runner hands to
 *                     classroom-resources/autograding-grading-reporter
 *                     (base64-encoded, as a step output): version, status,
 *                     max_score, and per test name, status, score, message.
 *   JUnit XML         testsuites / testsuite (one per lab) / testcase (one
 *                     per exercise) with failure or error, as Jenkins, GitLab
 *                     and most CI systems read it (the Ant/Jenkins schema).
 *
 * Both are written whole or not at all (report_write_atomic).
 */
#ifndef GRADER_FORMATS_H
#define GRADER_FORMATS_H

#include "report.h"

int report_classroom(const char *path, const struct g_run *run);
int report_junit(const char *path, const struct g_run *run);

#endif /* GRADER_FORMATS_H */
