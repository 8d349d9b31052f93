/* SPDX-License-Identifier: MIT */
/*
 * limit.cu - branch's speed of light: the lab's limit kernel, timed in the
 * same rounds as every submission (WB_IDEAL_LIMIT, common/harness.h).
 *
 * branch is bound by its integer instructions, not by memory, so its
 * ideal is not a memory probe but the least instruction work the task
 * needs, issued without waste: every element read and written once, 16
 * bytes at a time, through exactly one chain (half of them branch_a, half
 * branch_b), four independent chains a thread, and no warp divergent.
 * Its output is NOT branch's: the first half of the array takes branch_a
 * and the second branch_b, whatever an element's index. It is the rate,
 * not an answer: timed, never checked, and no submission may call it
 * (grader/inspect/allowlist.c: the lab's own symbols).
 */
#include "warps.h"

#define LIMIT_THREADS 256

static __global__ void __launch_bounds__(LIMIT_THREADS)
limit_branch_kernel(const uint4 *__restrict__ in, uint4 *__restrict__ out,
		    size_t n4)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	uint4 v;

	if (i >= n4)
		return;
	v = in[i];
	if (i < n4 / 2) { /* uniform in every warp but the one at the middle */
		v.x = branch_a(v.x);
		v.y = branch_a(v.y);
		v.z = branch_a(v.z);
		v.w = branch_a(v.w);
	} else {
		v.x = branch_b(v.x);
		v.y = branch_b(v.y);
		v.z = branch_b(v.z);
		v.w = branch_b(v.w);
	}
	out[i] = v;
}

/* The last n % 4 elements, one a thread. */
static __global__ void limit_branch_tail(const unsigned int *in,
					 unsigned int *out, size_t from, size_t n)
{
	size_t i = from + threadIdx.x;

	if (i < n)
		out[i] = branch_b(in[i]);
}

void limit_branch(const unsigned int *in, unsigned int *out, size_t n)
{
	size_t n4 = n / 4, blocks = wb_ceil_div(n4, LIMIT_THREADS);

	if (n4)
		limit_branch_kernel<<<blocks, LIMIT_THREADS>>>(
			(const uint4 *)in, (uint4 *)out, n4);
	if (n % 4)
		limit_branch_tail<<<1, 4>>>(in, out, 4 * n4, n);
	CUDA_CHECK_LAUNCH();
}
