/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 2 (mean_dim0): coalesced, scalar. A thread per output
 * element numbered along the flat [l][m] index, so a warp reads 128
 * contiguous bytes of a slice at each step: 4 sectors per request. One
 * float per load, no unrolling. The planning figure for this kernel is
 * 118x on an H200; the solution adds float4 and four loads in flight.
 */
#include "coalescing.h"

#define THREADS 256

static __global__ void mean_flat(const float *in, float *out, size_t k,
				 size_t lm)
{
	size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float sum = 0.0f;

	if (j >= lm)
		return;
	for (size_t p = 0; p < k; p++)
		sum += in[p * lm + j];
	out[j] = sum / (float)k;
}

void mean_dim0(const float *in, float *out, size_t k, size_t l, size_t m)
{
	mean_flat<<<wb_ceil_div(l * m, THREADS), THREADS>>>(in, out, k, l * m);
	CUDA_CHECK_LAUNCH();
}
