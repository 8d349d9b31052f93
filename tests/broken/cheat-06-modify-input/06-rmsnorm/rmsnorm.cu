/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: normalising in place. Each warp scales its row of x
 * where it lies (the const cast away), then writes y = x * w from it. y is
 * right, but x no longer holds the input: a transformer block that reads
 * x again (the residual stream) would be wrong from here on.
 * Expected verdict: WRONG, "modified its input 'x' ... inputs are
 * read-only".
 */
#include "rmsnorm.h"

/* One warp per row; the row is rescaled in x, then weighted into y. */
static __global__ void rms_in_place(float *x, const float *w, float *y,
				    size_t hidden, float eps)
{
	float *xr = x + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	float sum = 0.0f, scale;

	for (size_t i = threadIdx.x; i < hidden; i += 32)
		sum += xr[i] * xr[i];
	for (int mask = 16; mask > 0; mask /= 2)
		sum += __shfl_xor_sync(0xffffffffu, sum, mask);
	scale = rsqrtf(sum / hidden + eps);
	for (size_t i = threadIdx.x; i < hidden; i += 32) {
		xr[i] *= scale;
		yr[i] = xr[i] * w[i];
	}
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	rms_in_place<<<rows, 32>>>((float *)x, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
