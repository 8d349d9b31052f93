/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 1: thread_map - a solution.
 *
 * Each thread linearises its position the way the hardware does (x
 * fastest, then y, then z) twice: its block within the grid, and itself
 * within its block. The index within the block, t, is what decides the
 * warp (t / 32) and the lane (t % 32); threadIdx.x alone would only work
 * for 1-D blocks. Everything is computed in size_t: a grid of 66000
 * blocks of 1024 threads would already pass 2^26, and a real launch can
 * pass 2^32.
 */
#include "warps.h"

#define WARP 32

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
	r.warp = t / WARP;
	r.lane = t % WARP;
	out[b * per_block + t] = r;
}

void thread_map(dim3 grid, dim3 block, struct thread_rec *out)
{
	thread_map_kernel<<<grid, block>>>(out);
	CUDA_CHECK_LAUNCH();
}
