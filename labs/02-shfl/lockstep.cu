/* SPDX-License-Identifier: MIT */
/*
 * Lab 02, exercise 5: lockstep                   (you edit this file only)
 *
 * Task: the kernel below was written for GPUs before Volta, and it is
 * wrong on every GPU since. Make it correct on Volta and later, keeping
 * its shape (a warp per row). It usually gives the right answer anyway:
 * this exercise is graded under compute-sanitizer racecheck and synccheck
 * every time, so a race that happens to add up still fails (RACE).
 *
 *     y[r] = a[r][0] * x[0] + a[r][1] * x[1] + ... + a[r][cols-1] * x[cols-1]
 *
 * Lane l of the row's warp sums the products of columns l, l + 32, l + 64,
 * ...; the 32 partial sums are then folded in shared memory, 16 + 8 + 4 +
 * 2 + 1 additions, and lane 0 writes y[r].
 *
 * Contract
 *   a     device pointer, rows x cols floats, row-major (a[r * cols + c])
 *   x     device pointer, cols floats
 *   y     device pointer, rows floats, poisoned on entry
 *   1 <= rows, cols; rows * cols < 2^31. Correctness only: no timing.
 *   Checked per row to 1e-5 x sum_c |a[r][c] x[c]|.
 *
 * What changed with Volta (sm_70): the 32 lanes of a warp have their own
 * program counters and need not execute an instruction together. Nothing
 * orders one lane's store to shared memory before another lane's load
 * unless the code says so: __syncwarp() (a barrier and a memory fence for
 * the lanes of its mask, all of which must call it), or no shared memory
 * at all (__shfl_down_sync, section 4 of the README). `volatile` only
 * stops the compiler from keeping part[] in registers; it orders nothing
 * between lanes.
 *
 * Hint: in each of the five steps, which lanes write which slots, and
 * which lanes read them in the same step and in the next? A fix that
 * only puts __syncwarp() between the steps can still race inside one.
 */
#include "shfl.h"

/* Rows (warps) per block. */
#define LOCKSTEP_WARPS 8
#define LOCKSTEP_THREADS (32 * LOCKSTEP_WARPS)

/* ---- the legacy kernel: fix it (a handful of lines change) ---- */
__global__ void lockstep_kernel(const float *a, const float *x, float *y,
				size_t rows, size_t cols)
{
	__shared__ float part[LOCKSTEP_THREADS];
	volatile float *p = part; /* pre-Volta habit: see above */
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

	/* ---- fix the kernel above; then delete the line below ---- */
	WB_TODO("make lockstep_kernel correct on Volta and later (it is graded "
		"under racecheck and synccheck)");
}
