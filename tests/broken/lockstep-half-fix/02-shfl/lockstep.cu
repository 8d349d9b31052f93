/* SPDX-License-Identifier: MIT */
/*
 * Racy on purpose: a half fix of the lockstep exercise. __syncwarp() now
 * separates the stores from the first step and each step from the next
 * (with the mask of the 16 lanes that call it, which is valid), but every
 * lane below 16 still adds at every step, so inside one step lanes read
 * slots that other lanes overwrite: at step 8, lane 0 reads p[8] while
 * lane 8 writes it, with no barrier between the read and the write. The
 * warp is converged, the loads of a step run before its stores, and the
 * sums come out right; racecheck reports the hazards inside the steps.
 * Expected verdict: RACE (without SANITIZE=1).
 * The fix: only lanes below `off` add at step `off` (or a __syncwarp()
 * between each step's reads and its writes).
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
	__syncwarp();
	/* The half fix: a barrier of the 16 working lanes between the steps. */
	if (lane < 16) {
		p[tid] += p[tid + 16];
		__syncwarp(0x0000ffffu);
		p[tid] += p[tid + 8];
		__syncwarp(0x0000ffffu);
		p[tid] += p[tid + 4];
		__syncwarp(0x0000ffffu);
		p[tid] += p[tid + 2];
		__syncwarp(0x0000ffffu);
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
