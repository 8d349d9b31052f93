/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: replace the CUDA runtime's cudaEventElapsedTime,
 * which the grader's timer reads, with one that reports a microsecond.
 * The build seals the object (grader/build.sh): every definition but the
 * entry point is renamed, so this one is the file's alone, and the
 * grader's timer reads the runtime's. The kernel is honest.
 * Expected verdict: PASS under the speed of light (share < 1: a
 * microsecond a call would be far above it); statically BUILT.
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

extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
					    cudaEvent_t end)
{
	(void)start, (void)end;
	*ms = 0.001f;
	return cudaSuccess;
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	rms_warp<<<rows, 32>>>(x, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
