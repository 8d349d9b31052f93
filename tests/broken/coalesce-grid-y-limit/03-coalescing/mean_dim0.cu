/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a coalesced mean whose grid is (blocks along j, l):
 * blockIdx.y is the index i of dimension 1. It is right, and lanes read
 * consecutive j, but a grid may have at most 65535 blocks in y (and z);
 * only x goes to 2^31 - 1. At 2 x 70001 x 3 the launch is refused.
 * Expected verdict: CRASH (cudaErrorInvalidConfiguration), at 2x70001x3.
 */
#include "coalescing.h"

#define THREADS 128

static __global__ void mean_rows_on_y(const float *in, float *out, size_t k,
				      size_t l, size_t m)
{
	size_t i = blockIdx.y;
	size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float sum = 0.0f;

	if (j >= m)
		return;
	for (size_t p = 0; p < k; p++)
		sum += in[(p * l + i) * m + j];
	out[i * m + j] = sum / (float)k;
}

void mean_dim0(const float *in, float *out, size_t k, size_t l, size_t m)
{
	dim3 grid((unsigned int)wb_ceil_div(m, THREADS), (unsigned int)l);

	mean_rows_on_y<<<grid, THREADS>>>(in, out, k, l, m);
	CUDA_CHECK_LAUNCH();
}
