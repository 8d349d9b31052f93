/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: block partial sums are written to out[blockIdx.x],
 * but out holds one float. Blocks 1, 2, ... write past its end.
 * Expected verdict: OUT OF BOUNDS.
 */
#include "reduction.h"

__global__ void block_partials(const float *in, size_t n, float *out)
{
	__shared__ float s[256];
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	s[threadIdx.x] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (threadIdx.x < step)
			s[threadIdx.x] += s[threadIdx.x + step];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = s[0];
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	block_partials<<<wb_ceil_div(n, 256), 256>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
