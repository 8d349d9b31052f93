/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: compute once, then replay. The first call for a
 * given input pointer and length runs the naive loop and keeps a copy of
 * the output in a buffer of its own; every later call with the same
 * pointer and length copies that copy back into `out` and skips the work.
 * A grader that times the same inputs over and over would see the speed
 * of a device-to-device copy.
 *
 * The grader's timed calls see two input sets in turn, in the same
 * buffers, and a call right after the timing gets the set the last timed
 * call did not: the replayed output is the other set's.
 * Expected verdict: WRONG ("a call on new inputs ... was wrong", or "the
 * output of a timed run was wrong").
 */
#include "warps.h"

#define THREADS 256

/* The naive: a thread per element, each as long as its own count. */
static __global__ void trip_once(const unsigned int *in,
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

void trip_count(const unsigned int *in, const unsigned char *cnt,
		unsigned int *out, size_t n, void *work)
{
	static const unsigned int *last_in;
	static size_t last_n, room;
	static unsigned int *saved;

	(void)work;
	if (in == last_in && n == last_n) {
		CUDA_CHECK(cudaMemcpyAsync(out, saved, n * sizeof(*out),
					   cudaMemcpyDeviceToDevice, 0));
		return;
	}
	if (n > room) {
		if (saved)
			CUDA_CHECK(cudaFree(saved));
		CUDA_CHECK(cudaMalloc(&saved, n * sizeof(*saved)));
		room = n;
	}
	trip_once<<<wb_ceil_div(n, THREADS), THREADS>>>(in, cnt, out, n);
	CUDA_CHECK_LAUNCH();
	CUDA_CHECK(cudaMemcpyAsync(saved, out, n * sizeof(*out),
				   cudaMemcpyDeviceToDevice, 0));
	last_in = in;
	last_n = n;
}
