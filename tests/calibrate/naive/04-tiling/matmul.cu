/* SPDX-License-Identifier: MIT */
/*
 * make calibrate: the lab's naive reference, submitted as the student's
 * file, so that the grader times the naive against itself (see
 * tests/calibrate/naive/05-reduction/sum.cu).
 */
#include "tiling.h"

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	naive_matmul(a, b, c, m, k, n);
}
