/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (mean_dim0): parallelism without coalescing. A thread per
 * output element, l * m threads instead of l, but numbered with i (the
 * index of dimension 1) as the fast index: the 32 lanes of a warp read
 * 32 elements m floats apart, still 32 sectors per request. Measures what
 * filling the GPU buys before the access pattern is fixed; meant for
 * tier 1.
 */
#include "coalescing.h"

#define THREADS 256

static __global__ void mean_i_fastest(const float *in, float *out, size_t k,
				      size_t l, size_t m)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t i = t % l, j = t / l;
	float sum = 0.0f;

	if (t >= l * m)
		return;
	for (size_t p = 0; p < k; p++)
		sum += in[(p * l + i) * m + j];
	out[i * m + j] = sum / (float)k;
}

void mean_dim0(const float *in, float *out, size_t k, size_t l, size_t m)
{
	mean_i_fastest<<<wb_ceil_div(l * m, THREADS), THREADS>>>(in, out, k, l,
								 m);
	CUDA_CHECK_LAUNCH();
}
