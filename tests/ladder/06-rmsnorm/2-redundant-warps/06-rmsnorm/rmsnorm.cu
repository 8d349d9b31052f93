/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 2 (rmsnorm): a block of 128 threads per row where every warp
 * computes the same lane-strided sum of squares over the whole row, so
 * four warps repeat each other's work (a pitfall met when a warp-per-row
 * kernel is launched with bigger blocks). The output pass is split over
 * the block. Correct, and slower than it looks.
 */
#include "rmsnorm.h"

__global__ void rms_redundant(const float *x, const float *w, float *y,
			      size_t hidden, float eps)
{
	const float *xr = x + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	unsigned int lane = threadIdx.x % 32;
	float sum = 0.0f, scale;

	for (size_t i = lane; i < hidden; i += 32)
		sum += xr[i] * xr[i];
	for (int mask = 16; mask > 0; mask /= 2)
		sum += __shfl_xor_sync(0xffffffffu, sum, mask);
	scale = rsqrtf(sum / hidden + eps);
	for (size_t i = threadIdx.x; i < hidden; i += blockDim.x)
		yr[i] = xr[i] * scale * w[i];
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	rms_redundant<<<rows, 128>>>(x, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
