/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 2: branch - a solution.
 *
 * What it changes from one element per thread, and why:
 *  - Each thread takes four consecutive elements, even, odd, even, odd, and
 *    runs branch_a, branch_b, branch_a, branch_b on them. Every lane of
 *    every warp then does exactly the same thing: there is no divergence
 *    left, and each chain is issued once for 32 useful lanes instead of
 *    twice for 16. The chain instructions per element halve: up to 2x.
 *  - Four independent chains per thread give the scheduler four
 *    instructions to choose from at each step, so a warp rarely waits on
 *    the latency of its own previous result.
 *  - The four elements are one 16-byte load and one 16-byte store
 *    (uint4), fully coalesced across the warp; the last n % 4 elements are
 *    done one at a time by the first threads of block 0 (their branch
 *    diverges, for at most three elements).
 * The kernel stays bound by integer instructions (two on the 16-lane ALU
 * pipe per round), not by memory: 8 bytes per element against ~100
 * instructions.
 */
#include "warps.h"

#define BRANCH_THREADS 256

static __global__ void __launch_bounds__(BRANCH_THREADS)
branch_kernel(const unsigned int *__restrict__ in,
	      unsigned int *__restrict__ out, size_t n)
{
	const uint4 *in4 = (const uint4 *)in;
	uint4 *out4 = (uint4 *)out;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t n4 = n / 4, tail = 4 * n4 + threadIdx.x;

	if (i < n4) {
		uint4 v = in4[i];

		v.x = branch_a(v.x);
		v.y = branch_b(v.y);
		v.z = branch_a(v.z);
		v.w = branch_b(v.w);
		out4[i] = v;
	}
	if (blockIdx.x == 0 && tail < n)
		out[tail] = tail % 2 ? branch_b(in[tail]) : branch_a(in[tail]);
}

void branch(const unsigned int *in, unsigned int *out, size_t n)
{
	size_t blocks = wb_ceil_div(n / 4, BRANCH_THREADS);

	branch_kernel<<<blocks ? blocks : 1, BRANCH_THREADS>>>(in, out, n);
	CUDA_CHECK_LAUNCH();
}
