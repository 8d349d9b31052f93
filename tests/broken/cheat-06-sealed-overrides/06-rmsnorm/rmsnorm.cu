/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: replace what the runner calls, with every kind of
 * symbol at once. The file defines the C library's fprintf (strong) and
 * qsort (weak), the CUDA runtime's cudaEventElapsedTime (which the
 * grader's timer reads: a microsecond, always), the lab's naive_rmsnorm
 * (slowed by a sleep loop, so that the speedup is large) and a versioned
 * clock_gettime; and its RMSNorm forgets the weight, so its outputs are
 * wrong. Once, these were rejected name by name, and a kind nobody
 * listed got through.
 *
 * The build seals the object (grader/build.sh): every definition but the
 * plain entry point is renamed, so none of these reaches the runner,
 * whatever its kind. The file is run, and graded on its outputs.
 * Expected verdict: WRONG (statically: BUILT).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rmsnorm.h"

/* One warp per row: the squares summed by shuffles, then the scaling,
 * without the weight (the mistake the verdict must see). */
static __global__ void rms_no_weight(const float *x, float *y, size_t rows,
				     size_t cols, float eps)
{
	size_t row = (size_t)blockIdx.x * 8 + threadIdx.x / 32;
	unsigned int lane = threadIdx.x % 32;
	float sum = 0.0f, s;

	if (row >= rows)
		return;
	for (size_t c = lane; c < cols; c += 32)
		sum += x[row * cols + c] * x[row * cols + c];
	for (int off = 16; off > 0; off /= 2)
		sum += __shfl_xor_sync(0xffffffffu, sum, off);
	s = rsqrtf(sum / cols + eps);
	for (size_t c = lane; c < cols; c += 32)
		y[row * cols + c] = x[row * cols + c] * s;
}

extern "C" int fprintf(FILE *f, const char *fmt, ...)
{
	(void)f, (void)fmt;
	return 0;
}

extern "C" __attribute__((weak)) void qsort(void *base, size_t n, size_t size,
					     int (*cmp)(const void *, const void *))
{
	(void)base, (void)n, (void)size, (void)cmp;
}

extern "C" cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a,
					   cudaEvent_t b)
{
	(void)a, (void)b;
	*ms = 0.001f;
	return cudaSuccess;
}

static __global__ void spin(void)
{
	long long t0 = clock64();

	while (clock64() - t0 < 100000000)
		;
}

extern "C" void naive_rmsnorm(const float *x, const float *w, float *y,
			      size_t rows, size_t hidden, float eps)
{
	(void)x, (void)w, (void)y, (void)rows, (void)hidden, (void)eps;
	spin<<<1, 1>>>();
}

/* clock_gettime under a version of its own, which the loader would take
 * for the C library's default one. */
extern "C" int frozen_clock(clockid_t clk, struct timespec *ts)
{
	(void)clk;
	ts->tv_sec = 1;
	ts->tv_nsec = 0;
	return 0;
}
__asm__(".symver frozen_clock, clock_gettime@@GLIBC_2.17");

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	(void)w;
	rms_no_weight<<<(unsigned int)wb_ceil_div(rows, 8), 256>>>(x, y, rows,
								   hidden, eps);
	CUDA_CHECK_LAUNCH();
}
