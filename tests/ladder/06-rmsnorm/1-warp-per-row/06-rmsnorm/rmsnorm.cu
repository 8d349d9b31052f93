/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (rmsnorm): one warp per row, scalar loads, blocks of one
 * warp. Coalesced and parallel enough, but 4-byte loads and 32 threads per
 * 4096-float row leave too few bytes in flight for DRAM.
 */
#include "rmsnorm.h"

__global__ void rms_warp(const float *x, const float *w, float *y,
			 size_t hidden, float eps)
{
	const float *xr = x + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	float sum = 0.0f, scale;

	for (size_t i = threadIdx.x; i < hidden; i += 32)
		sum += xr[i] * xr[i];
	for (int mask = 16; mask > 0; mask /= 2)
		sum += __shfl_xor_sync(0xffffffffu, sum, mask);
	scale = rsqrtf(sum / hidden + eps);
	for (size_t i = threadIdx.x; i < hidden; i += 32)
		yr[i] = xr[i] * scale * w[i];
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	rms_warp<<<rows, 32>>>(x, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
