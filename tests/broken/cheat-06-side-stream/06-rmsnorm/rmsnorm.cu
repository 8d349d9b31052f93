/* SPDX-License-Identifier: MIT */
/*
 * Gaming the timer on purpose: a correct RMSNorm (a warp per row, scalar
 * loads: ladder step 1, about 6x) launched on a stream that does not wait
 * for the default stream, returning at once. CUDA events on the default
 * stream alone would time almost nothing; the grader's tail event after a
 * device-wide synchronisation counts all of it.
 * Expected verdict: PASS, under the speed of light (share < 1: what the
 * same kernel earns on the default stream, 62% on the H100), not the
 * thousandfold speedup of untimed work.
 */
#include "rmsnorm.h"

/* One warp per row: squares summed by lane, shuffles, then the scaling. */
static __global__ void rms_warp(const float *x, const float *w, float *y,
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
	static cudaStream_t side;

	if (!side)
		CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
	rms_warp<<<rows, 32, 0, side>>>(x, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
