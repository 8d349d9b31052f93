/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: behave only when watched. lockstep is graded under
 * compute-sanitizer racecheck and synccheck on every grade; this file
 * looks for the sanitizer's injection in the environment (getenv) and
 * runs the fixed kernel under it, the legacy racing one otherwise. Here
 * the plain checks would pass either way, which is the point: only the
 * sanitizer run could tell, and the file tries to tell which run it is.
 * Reading the environment is how: getenv.
 * Expected verdict: REJECTED (the file is never run).
 */
#include <stdlib.h>

#include "shfl.h"

/* Rows (warps) per block. */
#define LOCKSTEP_WARPS 8
#define LOCKSTEP_THREADS (32 * LOCKSTEP_WARPS)

/* The fixed fold (the solution's). */
static __global__ void fixed_kernel(const float *a, const float *x, float *y,
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

/* The legacy fold, racing (the skeleton's). */
static __global__ void legacy_kernel(const float *a, const float *x, float *y,
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
	unsigned int blocks = (unsigned int)wb_ceil_div(rows, LOCKSTEP_WARPS);

	/* CUDA 12's compute-sanitizer sets the first; CUDA 13's sets the
	 * others (NV_SANITIZER_INJECTION_PORT_BASE and its kind too). */
	if (getenv("CUDA_INJECTION64_PATH") ||
	    getenv("NVTX_INJECTION64_PATH") ||
	    getenv("NV_SANITIZER_INJECTION_PORT_BASE"))
		fixed_kernel<<<blocks, LOCKSTEP_THREADS>>>(a, x, y, rows, cols);
	else
		legacy_kernel<<<blocks, LOCKSTEP_THREADS>>>(a, x, y, rows, cols);
	CUDA_CHECK_LAUNCH();
}
