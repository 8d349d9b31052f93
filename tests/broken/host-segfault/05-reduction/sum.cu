/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the host dereferences a device pointer. The process
 * dies with SIGSEGV before any kernel runs.
 * Expected verdict: CRASH (killed by SIGSEGV).
 */
#include "reduction.h"

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	out[0] = 0.0f;
	for (size_t i = 0; i < n; i++)
		out[0] += in[i];
}
