/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose, or a mistake: a compile that does not end. The
 * file includes itself (by its own name, __FILE_NAME__) twice at every
 * level, 2^40 times in all: small, and endless.
 *
 * Every compile runs under a time limit (COMPILE_TIMEOUT seconds:
 * grader/build.sh); over it, the exercise is a COMPILE ERROR that says
 * so, and the student's other exercises are graded. The tests run this
 * case with COMPILE_TIMEOUT=10 (its make-vars file).
 * Expected verdict: COMPILE ERROR ("the compile took more than ...").
 */
#if __INCLUDE_LEVEL__ < 40
#include __FILE_NAME__
#include __FILE_NAME__
#else
#include "fusion.h"
#endif
