/* SPDX-License-Identifier: MIT */
/*
 * Lab 02, exercise 5: lockstep (solution).
 *
 * The legacy fold had two races: a lane read a slot that another lane had
 * just written (the first step reads the other half's partial sums with
 * nothing between their stores and its loads), and, with every lane below
 * 16 working at every step, a lane read a slot that another lane
 * overwrote in the same step (at step 8, lane 0 reads part[8] while lane 8
 * writes it). The fix keeps the shape and removes both:
 *
 *   - at step `off` only lanes below `off` add, so the slots written in a
 *     step (0 .. off-1, each by its own lane) are never read by another
 *     lane in that step;
 *   - all 32 lanes call __syncwarp() after the stores and after every
 *     step (outside the `if`: every lane of the mask must reach it), which
 *     orders the writes of one step before the reads of the next;
 *   - `volatile` is gone: __syncwarp() is also the memory fence.
 *
 * With shuffles there is nothing to order at all:
 *     for (int off = 16; off > 0; off /= 2)
 *             t += __shfl_down_sync(0xffffffffu, t, off);
 * which is the better code; this solution shows the smallest change that
 * makes the legacy code right.
 */
#include "shfl.h"

/* Rows (warps) per block. */
#define LOCKSTEP_WARPS 8
#define LOCKSTEP_THREADS (32 * LOCKSTEP_WARPS)

__global__ void lockstep_kernel(const float *a, const float *x, float *y,
				size_t rows, size_t cols)
{
	__shared__ float part[LOCKSTEP_THREADS];
	unsigned int tid = threadIdx.x, lane = tid % 32;
	size_t row = (size_t)blockIdx.x * LOCKSTEP_WARPS + tid / 32;
	float t = 0.0f;

	if (row < rows)
		for (size_t c = lane; c < cols; c += 32)
			t += a[row * cols + c] * x[c];
	part[tid] = t;
	__syncwarp();
	for (unsigned int off = 16; off > 0; off /= 2) {
		if (lane < off)
			part[tid] += part[tid + off];
		__syncwarp();
	}
	if (lane == 0 && row < rows)
		y[row] = part[tid];
}

void lockstep_matvec(const float *a, const float *x, float *y, size_t rows,
		     size_t cols)
{
	lockstep_kernel<<<wb_ceil_div(rows, LOCKSTEP_WARPS), LOCKSTEP_THREADS>>>(
		a, x, y, rows, cols);
	CUDA_CHECK_LAUNCH();
}
