/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose, or a typo: a macro that expands to 10^18 tokens.
 * The preprocessor asks for memory until the machine has none: one such
 * file, compiled by several jobs at once, could take down a grading
 * machine and every other student's grade with it.
 *
 * Every compile runs under an address-space limit (COMPILE_MEM, MiB per
 * process: grader/build.sh); over it, the exercise is a COMPILE ERROR
 * that says so, and the student's other exercises are graded.
 * Expected verdict: COMPILE ERROR ("the compile used more than ...").
 */
#include "fusion.h"

#define TEN(x) x x x x x x x x x x
#define THOUSAND(x) TEN(TEN(TEN(x)))
#define BILLION(x) THOUSAND(THOUSAND(THOUSAND(x)))

static const int grow[] = { BILLION(BILLION(1,)) 0 };

void softmax(const float *x, float *y, size_t rows, size_t cols)
{
	(void)x, (void)y, (void)rows, (void)cols, (void)grow;
}
