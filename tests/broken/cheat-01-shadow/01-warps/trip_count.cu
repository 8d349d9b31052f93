/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: hide the work from both of the grader's clocks.
 * The naive's loop runs on a stream of its own that does not wait for the
 * default stream, so the CUDA events around the call see almost nothing;
 * and this file defines clock_gettime(), which the whole program then
 * uses instead of the C library's, so the host-clock cross-check reads a
 * frozen clock.
 *
 * The grader inspects the object before running it: a file may define its
 * entry points, kernels and device functions, nothing that replaces a
 * library function.
 * Expected verdict: REJECTED (the file is never run).
 */
#include <time.h>

#include "warps.h"

#define THREADS 256

/* The naive: a thread per element, each as long as its own count. */
static __global__ void trip_hidden(const unsigned int *in,
				   const unsigned char *cnt, unsigned int *out,
				   size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int x;

	if (i >= n)
		return;
	x = in[i];
	for (unsigned int k = cnt[i]; k > 0; k--)
		x = trip_f(x);
	out[i] = x;
}

/* The frozen clock: always the same instant. */
extern "C" int clock_gettime(clockid_t clk, struct timespec *ts) noexcept
{
	(void)clk;
	ts->tv_sec = 1;
	ts->tv_nsec = 0;
	return 0;
}

void trip_count(const unsigned int *in, const unsigned char *cnt,
		unsigned int *out, size_t n, void *work)
{
	static cudaStream_t side;

	(void)work;
	if (!side)
		CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
	trip_hidden<<<wb_ceil_div(n, THREADS), THREADS, 0, side>>>(in, cnt, out,
								   n);
	CUDA_CHECK_LAUNCH();
}
