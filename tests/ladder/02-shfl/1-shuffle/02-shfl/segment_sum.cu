/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (segment_sum): the naive's thread-per-element layout, with
 * the shared-memory tree and its barriers replaced by five
 * __shfl_xor_sync. Measures what the shuffles alone buy (the planning
 * figure: 1.32x); the loads are still one 4-byte load per thread.
 */
#include "shfl.h"

#define THREADS 256

static __global__ void segsum_shuffle(const float *in, size_t n, float *out)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float v = i < n ? in[i] : 0.0f;

	/* Every lane takes part, in range or not: the mask is full. */
	for (int m = 16; m > 0; m /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, m);
	if (threadIdx.x % 32 == 0 && i < n)
		out[i / 32] = v;
}

void segment_sum(const float *in, size_t n, float *out)
{
	segsum_shuffle<<<wb_ceil_div(n, THREADS), THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
