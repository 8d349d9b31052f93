/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: hide the work from both of the grader's clocks.
 * The naive's loop runs on a stream of its own that does not wait for the
 * default stream, so the CUDA events around the call see almost nothing;
 * and this file defines clock_gettime(), which the whole program then
 * uses instead of the C library's, so the host-clock cross-check reads a
 * frozen clock.
 *
 * The build seals the object (grader/build.sh): every definition but the
 * entry point is renamed, so this clock_gettime is the file's alone and
 * the grader reads the C library's; the side stream's work is counted by
 * the tail event after a device-wide synchronisation.
 * Expected verdict: what the side-stream loop earns, under the speed of
 * light (PASS, share < 1), or SUSPICIOUS where its small shape escapes
 * the tail's noise (as cheat-07-side-stream); statically BUILT.
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
