/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a missing tail guard on the reads. A warp per row
 * sums squares for i < hidden rounded up to 32, so when hidden is not a
 * multiple of 32 the last lanes add values past the row's end: the next
 * row's first values, or for the last row whatever follows the input.
 * The writes are guarded, so nothing lands out of bounds; the scale of
 * every row is wrong.
 * Expected verdict: WRONG at the sizes whose hidden is not a multiple of
 * 32, and a "likely cause" naming the tail guard.
 */
#include "rmsnorm.h"

/* One warp per row; the sum's loop runs to the next multiple of 32. */
static __global__ void rms_warp(const float *x, const float *w, float *y,
				size_t hidden, float eps)
{
	const float *xr = x + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	size_t padded = (hidden + 31) / 32 * 32;
	float sum = 0.0f, scale;

	for (size_t i = threadIdx.x; i < padded; i += 32)
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
