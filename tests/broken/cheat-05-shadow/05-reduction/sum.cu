/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: hide the work from both of the grader's clocks.
 * The sum runs on a stream of its own that does not wait for the default
 * stream, so the CUDA events around the call see almost nothing; and this
 * file defines clock_gettime(), which the whole program then uses instead
 * of the C library's, so the host-clock cross-check reads a frozen clock.
 * Linked as it is, the sample would be the empty event interval.
 *
 * The build seals the object (grader/build.sh): every definition but the
 * entry point is renamed, so this clock_gettime is the file's alone and
 * the grader reads the C library's; the side stream's work is counted by
 * the tail event after a device-wide synchronisation.
 * Expected verdict: PASS under the speed of light (share < 1), or
 * SUSPICIOUS where the side work escapes the tail's noise; statically
 * BUILT.
 */
#include <time.h>

#include "reduction.h"

#define THREADS 256

/* A grid-stride reduction with a shared-memory tree per block. */
static __global__ void sum_hidden(const float *in, size_t n, float *out)
{
	__shared__ float s[THREADS];
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float acc = 0.0f;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		acc += in[i];
	s[threadIdx.x] = acc;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (threadIdx.x < step)
			s[threadIdx.x] += s[threadIdx.x + step];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicAdd(out, s[0]);
}

/* The frozen clock: always the same instant. */
extern "C" int clock_gettime(clockid_t clk, struct timespec *ts) noexcept
{
	(void)clk;
	ts->tv_sec = 1;
	ts->tv_nsec = 0;
	return 0;
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	static cudaStream_t side;
	size_t blocks = wb_ceil_div(n, THREADS);

	(void)work;
	if (!side)
		CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
	if (blocks > 1024)
		blocks = 1024;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), side));
	sum_hidden<<<blocks, THREADS, 0, side>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
