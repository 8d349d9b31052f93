/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the warp and the lane taken from threadIdx.x alone,
 * as if blocks were one-dimensional. The record's place g is right; its
 * warp and lane are not wherever blockDim.y or blockDim.z exceeds 1: in a
 * 40x2 block, thread (0,1) is the 41st thread, lane 8 of warp 1, not lane
 * 0 of warp 0. Warps are cut from the linear index t, x fastest.
 * Expected verdict: WRONG, at every shape with a 2-D or 3-D block; the
 * 1-D blocks (1, 33, 31 and 96 threads) pass.
 */
#include "warps.h"

static __global__ void thread_map_kernel(struct thread_rec *out)
{
	size_t b = blockIdx.x + (size_t)gridDim.x *
				 (blockIdx.y + (size_t)gridDim.y * blockIdx.z);
	unsigned int t = threadIdx.x + blockDim.x *
				       (threadIdx.y + blockDim.y * threadIdx.z);
	size_t per_block = (size_t)blockDim.x * blockDim.y * blockDim.z;
	struct thread_rec r;

	r.block[0] = blockIdx.x;
	r.block[1] = blockIdx.y;
	r.block[2] = blockIdx.z;
	r.thread[0] = threadIdx.x;
	r.thread[1] = threadIdx.y;
	r.thread[2] = threadIdx.z;
	r.warp = threadIdx.x / 32; /* BUG: t / 32 */
	r.lane = threadIdx.x % 32; /* BUG: t % 32 */
	out[b * per_block + t] = r;
}

void thread_map(dim3 grid, dim3 block, struct thread_rec *out)
{
	thread_map_kernel<<<grid, block>>>(out);
	CUDA_CHECK_LAUNCH();
}
