/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: one thread per element with no "if (i < n)". Threads
 * past the end read whatever lies behind the input and add it in.
 * Expected verdict: WRONG, at the sizes that are not a multiple of 256.
 */
#include "reduction.h"

__global__ void sum_atomic(const float *in, size_t n, float *out)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	(void)n;
	atomicAdd(out, in[i]);
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_atomic<<<wb_ceil_div(n, 256), 256>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
