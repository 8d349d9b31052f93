/* SPDX-License-Identifier: MIT */
/*
 * naive.cu - the naive references the grader times the submissions against.
 *
 * Both are the obvious first kernel: thread i handles element i, and the
 * code says exactly what the task says. Neither is slow because of its
 * memory accesses (they are coalesced) but because of what a warp does
 * when its 32 lanes want different things:
 *
 *   branch      even lanes want branch_a, odd lanes branch_b: every warp
 *               runs both chains, one after the other, each with half of
 *               its lanes masked off.
 *   trip_count  a lane's loop runs cnt[i] times; the warp runs until its
 *               longest lane is done. With 1 element in 8 heavy, almost
 *               every warp holds one, and all 32 lanes wait for it.
 */
#include "warps.h"

#define NAIVE_THREADS 256

/* ---- branch ---- */

/*
 * The branch is decided per element, so lanes 0, 2, 4, ... of every warp
 * take one side and lanes 1, 3, 5, ... the other. Both sides are ~100
 * dependent instructions: the compiler keeps a real branch, the warp runs
 * side A with the odd lanes idle, then side B with the even lanes idle.
 */
static __global__ void naive_branch_kernel(const unsigned int *in,
					   unsigned int *out, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n)
		return;
	if (i % 2 == 0)
		out[i] = branch_a(in[i]);
	else
		out[i] = branch_b(in[i]);
}

void naive_branch(const unsigned int *in, unsigned int *out, size_t n)
{
	naive_branch_kernel<<<wb_ceil_div(n, NAIVE_THREADS), NAIVE_THREADS>>>(
		in, out, n);
	CUDA_CHECK_LAUNCH();
}

/* ---- trip_count ---- */

/*
 * One element per thread, its loop as long as its count. Lanes whose
 * count has run out sit masked off until the warp's last lane finishes.
 */
static __global__ void naive_trip_kernel(const unsigned int *in,
					 const unsigned char *cnt,
					 unsigned int *out, size_t n)
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

void naive_trip_count(const unsigned int *in, const unsigned char *cnt,
		      unsigned int *out, size_t n, void *work)
{
	(void)work;
	naive_trip_kernel<<<wb_ceil_div(n, NAIVE_THREADS), NAIVE_THREADS>>>(
		in, cnt, out, n);
	CUDA_CHECK_LAUNCH();
}
