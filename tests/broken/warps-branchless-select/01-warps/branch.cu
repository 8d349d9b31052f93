/* SPDX-License-Identifier: MIT */
/*
 * Correct but not faster, on purpose: the if/else replaced by a select.
 * Every thread computes both chains and keeps one, so there is no branch
 * left and no divergence to see in a profiler, and every warp still
 * issues both chains for its 32 lanes: the same work as the naive kernel,
 * which ran both sides one after the other. Removing the branch from the
 * source is not removing it from the work; giving each warp one side is.
 * Expected verdict: PASS, with a speedup near 1x (below the first tier).
 */
#include "warps.h"

#define SELECT_THREADS 256

static __global__ void branch_select(const unsigned int *in,
				     unsigned int *out, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int x, a, b;

	if (i >= n)
		return;
	x = in[i];
	a = branch_a(x);
	b = branch_b(x);
	out[i] = i % 2 ? b : a;
}

void branch(const unsigned int *in, unsigned int *out, size_t n)
{
	branch_select<<<wb_ceil_div(n, SELECT_THREADS), SELECT_THREADS>>>(
		in, out, n);
	CUDA_CHECK_LAUNCH();
}
