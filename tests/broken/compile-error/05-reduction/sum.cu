/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: does not compile (an undeclared variable).
 * Expected verdict: COMPILE ERROR, and argmax still grades.
 */
#include "reduction.h"

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)in, (void)work;
	total = n;
	(void)out;
}
