/* SPDX-License-Identifier: MIT */
/*
 * Racy on purpose: the legacy kernel of labs/02-shfl/lockstep.cu exactly
 * as it ships, with only the WB_TODO deleted. The fold in shared memory
 * has no __syncwarp(): every step reads slots other lanes write, with
 * nothing ordering them. It almost always gives the right sums (the warp
 * is converged), so the value checks pass; the exercise always runs
 * racecheck, which reports the hazards.
 * Expected verdict: RACE (without SANITIZE=1).
 */
#include "shfl.h"

/* Rows (warps) per block. */
#define LOCKSTEP_WARPS 8
#define LOCKSTEP_THREADS (32 * LOCKSTEP_WARPS)

__global__ void lockstep_kernel(const float *a, const float *x, float *y,
				size_t rows, size_t cols)
{
	__shared__ float part[LOCKSTEP_THREADS];
	volatile float *p = part;
	unsigned int tid = threadIdx.x, lane = tid % 32;
	size_t row = (size_t)blockIdx.x * LOCKSTEP_WARPS + tid / 32;
	float t = 0.0f;

	if (row < rows)
		for (size_t c = lane; c < cols; c += 32)
			t += a[row * cols + c] * x[c];
	p[tid] = t;
	/* "A warp executes in lockstep": no barrier between the steps. */
	if (lane < 16) {
		p[tid] += p[tid + 16];
		p[tid] += p[tid + 8];
		p[tid] += p[tid + 4];
		p[tid] += p[tid + 2];
		p[tid] += p[tid + 1];
	}
	if (lane == 0 && row < rows)
		y[row] = p[tid];
}

void lockstep_matvec(const float *a, const float *x, float *y, size_t rows,
		     size_t cols)
{
	lockstep_kernel<<<wb_ceil_div(rows, LOCKSTEP_WARPS), LOCKSTEP_THREADS>>>(
		a, x, y, rows, cols);
	CUDA_CHECK_LAUNCH();
}
