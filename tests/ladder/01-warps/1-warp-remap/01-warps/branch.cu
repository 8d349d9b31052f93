/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (branch): the textbook fix, a remapping of threads to
 * elements. Each pair of warps covers 64 consecutive elements: the first
 * warp of the pair takes the 32 even ones, the second the 32 odd ones. A
 * warp's lanes then all take the same side of the branch, so no warp runs
 * both chains. Loads are stride 2 (each warp uses half of every sector it
 * touches; its partner uses the other half, from L1 or L2). Measured
 * on an H100: 1.51x, between tiers 2 and 3: the divergence is gone, the
 * half-used sectors remain; the solution (4 elements per thread, 16-byte
 * accesses) removes both and reaches 2.0x.
 */
#include "warps.h"

#define REMAP_THREADS 256

static __global__ void branch_remap(const unsigned int *in, unsigned int *out,
				    size_t n)
{
	size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t warp = t / 32, lane = t % 32;
	size_t i = warp / 2 * 64 + 2 * lane + warp % 2;

	if (i >= n)
		return;
	if (warp % 2 == 0)
		out[i] = branch_a(in[i]);
	else
		out[i] = branch_b(in[i]);
}

void branch(const unsigned int *in, unsigned int *out, size_t n)
{
	size_t threads = wb_ceil_div(n, 64) * 64;

	branch_remap<<<wb_ceil_div(threads, REMAP_THREADS), REMAP_THREADS>>>(
		in, out, n);
	CUDA_CHECK_LAUNCH();
}
