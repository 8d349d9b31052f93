/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: behave only when watched, from behind a name that
 * looked exempt. lockstep runs under compute-sanitizer racecheck and
 * synccheck on every grade; this file reads the environment through
 * environ, from a weak function named like one of NVTX's hooks (which CUB's
 * headers once brought, and the reference check once forgave with all
 * they called), and runs the fixed kernel only where the sanitizer's
 * injection variables (CUDA 12's and CUDA 13's) are set.
 *
 * No name earns an exemption: the reference to environ is judged like
 * any other (grader/inspect/symbols.c, allowlist.c).
 * Expected verdict: REJECTED (the file is never run).
 */
#include <string.h>

#include "shfl.h"

extern "C" char **environ;

/* Is a sanitizer's injection variable set? */
extern "C" __attribute__((weak)) int nvtxEtiGetModuleFunctionTable_v3(void)
{
	static const char *const vars[] = { "CUDA_INJECTION64_PATH=",
					    "NVTX_INJECTION64_PATH=",
					    "NV_SANITIZER_INJECTION" };

	for (char **e = environ; e && *e; e++)
		for (unsigned int i = 0; i < 3; i++)
			if (!strncmp(*e, vars[i], strlen(vars[i])))
				return 1;
	return 0;
}

static int watched(void)
{
	return nvtxEtiGetModuleFunctionTable_v3();
}

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

	if (watched())
		fixed_kernel<<<blocks, LOCKSTEP_THREADS>>>(a, x, y, rows, cols);
	else
		legacy_kernel<<<blocks, LOCKSTEP_THREADS>>>(a, x, y, rows, cols);
	CUDA_CHECK_LAUNCH();
}
