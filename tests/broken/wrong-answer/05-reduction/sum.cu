/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: an off-by-one loop bound drops the last element.
 * Expected verdict: WRONG (every size; the error is the missing in[n-1]).
 */
#include "reduction.h"

__global__ void sum_serial(const float *in, size_t n, float *out)
{
	float s = 0.0f;

	for (size_t i = 0; i + 1 < n; i++)
		s += in[i];
	*out = s;
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	sum_serial<<<1, 1>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
