/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a pointer far outside any allocation, as an index
 * computed in the wrong units would give. The GPU faults.
 * Expected verdict: CRASH (cudaErrorIllegalAddress).
 */
#include "reduction.h"

__global__ void sum_wild(const float *in, size_t n, float *out)
{
	(void)n;
	atomicAdd(out + ((size_t)1 << 40), in[0]);
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	sum_wild<<<1, 32>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
