/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (segment_scan): the naive's thread-per-element layout, with
 * the shared-memory Hillis-Steele and its ten barriers replaced by five
 * __shfl_up_sync. Measures what the shuffles alone buy (the planning
 * figure: 1.33x); one 4-byte load and store per thread.
 */
#include "shfl.h"

#define THREADS 256

static __global__ void segscan_shuffle(const float *in, size_t n, float *out)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int lane = threadIdx.x % 32;
	float v = i < n ? in[i] : 0.0f;

	for (unsigned int d = 1; d < 32; d *= 2) {
		float u = __shfl_up_sync(0xffffffffu, v, d);

		if (lane >= d)
			v += u;
	}
	if (i < n)
		out[i] = v;
}

void segment_scan(const float *in, size_t n, float *out)
{
	segscan_shuffle<<<wb_ceil_div(n, THREADS), THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
