/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (sum): the naive tree with sequential addressing
 * (`tid < s`, s halving) instead of `tid % (2*s)`. The textbook's first
 * fix removes the divergent modulo; on current GPUs it gains almost
 * nothing, because one load per thread and one atomic per 256 elements,
 * not divergence, bound the naive kernel. Meant to stay below tier 1.
 */
#include "reduction.h"

__global__ void sum_sequential(const float *in, size_t n, float *out)
{
	__shared__ float s[256];
	unsigned int tid = threadIdx.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + tid;

	s[tid] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (tid < step)
			s[tid] += s[tid + step];
		__syncthreads();
	}
	if (tid == 0)
		atomicAdd(out, s[0]);
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_sequential<<<wb_ceil_div(n, 256), 256>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
