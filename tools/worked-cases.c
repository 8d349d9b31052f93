/* SPDX-License-Identifier: MIT */
/*
 * worked-cases.c - the worked cases of a lab's prediction exercise, with
 * the answers of the lab's rule (its answers.c), as a C header the lab's
 * lab.c includes. Built and run by tools/worked-cases.sh, once per lab:
 *
 *   cc -DWORKED_LAB=3 -Ilabs/03-coalescing ... worked-cases.c \
 *      worked-cases/lab03.c labs/03-coalescing/answers.c common/rng.c
 *   ./worked-cases DIR        writes DIR/sectors_worked.h
 *
 * Each lab's cases are a file of their own, tools/worked-cases/labNN.c
 * (its write_cases()): 01 (branch_eff, spills), 03 (sectors, inflight),
 * 04 (roofline, peak, constant), 07 (passes). This file holds what they
 * share (worked-cases.h) and main(); WORKED_LAB, the lab's number, seeds
 * the draws.
 *
 * The cases are the README's worked examples, the lab's own kernels and
 * chains at some of their shapes, the edges the groups of lab.c reach,
 * and loads, kernels or chains drawn from a fixed seed. The header ships
 * in the student handout, where no rule is linked: there these answers
 * are the exact check (docs/grading.md, "Prediction exercises"), so they
 * must be enough to catch the mistakes of tests/broken/ (make test's
 * handout section grades those there).
 */
#include <stdio.h>
#include <stdlib.h>

#include "worked-cases.h"

/* Each header's comment, after its first line. */
static const char header_text[] =
	" * with the answers of the lab's rule. Written from the rule\n"
	" * (the instructor's answers.c) by tools/worked-cases.sh: do not\n"
	" * edit. lab.c asks them as the group \"worked\" and checks them\n"
	" * exactly, with or without the rule (docs/grading.md,\n"
	" * \"Prediction exercises\").\n"
	" */\n";

void header(FILE *f, const char *name, const char *ex)
{
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n/*\n"
		   " * %s - the worked cases of %s,\n%s", name, ex,
		header_text);
}

FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	return f;
}

int main(int argc, char **argv)
{
	struct wb_rng rng;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	wb_rng_seed(&rng, 20261201u + WORKED_LAB);
	write_cases(argv[1], &rng);
	return 0;
}
