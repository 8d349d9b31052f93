/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose, quietly: a weak definition of clock_gettime(), "in
 * case the system has none". The grader's host clock would then read a
 * frozen time in the whole runner, and the softmax, launched on a stream
 * that does not wait for the default stream, would escape the CUDA events
 * as well. Weak or not, a definition in the program's own object would win
 * over the C library's; the build seals the object (grader/build.sh), so
 * it is the file's alone, and the side stream's work is counted by the
 * tail event after a device-wide synchronisation.
 * Expected verdict: PASS under the speed of light (share < 1), or
 * SUSPICIOUS where the side work escapes the tail's noise; statically
 * BUILT.
 */
#include <math.h>
#include <time.h>

#include "fusion.h"

/* One warp per row, three sweeps over x: max, sum of exp, then y. */
static __global__ void softmax_warp(const float *x, float *y, size_t cols)
{
	const float *xr = x + (size_t)blockIdx.x * cols;
	float *yr = y + (size_t)blockIdx.x * cols;
	float m = -INFINITY, s = 0.0f;

	for (size_t i = threadIdx.x; i < cols; i += 32)
		m = fmaxf(m, xr[i]);
	for (int mask = 16; mask > 0; mask /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, mask));
	for (size_t i = threadIdx.x; i < cols; i += 32)
		s += expf(xr[i] - m);
	for (int mask = 16; mask > 0; mask /= 2)
		s += __shfl_xor_sync(0xffffffffu, s, mask);
	for (size_t i = threadIdx.x; i < cols; i += 32)
		yr[i] = expf(xr[i] - m) / s;
}

extern "C" __attribute__((weak)) int clock_gettime(clockid_t clk,
						   struct timespec *ts) noexcept
{
	(void)clk;
	ts->tv_sec = 1;
	ts->tv_nsec = 0;
	return 0;
}

void softmax(const float *x, float *y, size_t rows, size_t cols)
{
	static cudaStream_t side;

	if (!side)
		CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
	softmax_warp<<<rows, 32, 0, side>>>(x, y, cols);
	CUDA_CHECK_LAUNCH();
}
