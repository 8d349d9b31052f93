/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the warp remapping of the ladder (each pair of warps
 * takes 64 consecutive elements, evens to one warp, odds to the other),
 * written as if n were a multiple of 64. The last n % 64 elements belong
 * to a partial pair of warps, and this kernel sends those threads home:
 * their outputs keep the grader's poison.
 * Expected verdict: WRONG at every size that is not a multiple of 64
 * (n = 1, 2, 31, 33, 63, 65, ...), "some never written (still poison)";
 * n = 32 writes nothing at all. The fix: guard with i < n, not with the
 * whole pairs.
 */
#include "warps.h"

#define REMAP_THREADS 256

static __global__ void branch_remap(const unsigned int *in, unsigned int *out,
				    size_t n)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t warp = t / 32, lane = t % 32;
	size_t i = warp / 2 * 64 + 2 * lane + warp % 2;

	if (i >= n / 64 * 64) /* BUG: drops the partial pair at the tail */
		return;
	if (warp % 2 == 0)
		out[i] = branch_a(in[i]);
	else
		out[i] = branch_b(in[i]);
}

void branch(const unsigned int *in, unsigned int *out, size_t n)
{
	branch_remap<<<wb_ceil_div(n, REMAP_THREADS), REMAP_THREADS>>>(in, out,
								       n);
	CUDA_CHECK_LAUNCH();
}
