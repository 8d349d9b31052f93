/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a spin-wait on a flag that no thread ever sets.
 * Expected verdict: TIMEOUT.
 */
#include "reduction.h"

__global__ void sum_spin(const float *in, size_t n, volatile float *out)
{
	(void)in, (void)n;
	while (out[0] != 1.0f)
		;
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_spin<<<1, 1>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
