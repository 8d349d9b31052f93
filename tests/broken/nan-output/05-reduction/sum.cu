/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a mean instead of a sum, divided by a count that is
 * zero for one thread: the result is NaN or inf.
 * Expected verdict: WRONG (NaN or inf in the output).
 */
#include "reduction.h"

__global__ void sum_nan(const float *in, size_t n, float *out)
{
	float s = 0.0f;

	for (size_t i = 0; i < n; i++)
		s += in[i];
	*out = s / (float)(threadIdx.x);
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	sum_nan<<<1, 1>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
