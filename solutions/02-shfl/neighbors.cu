/* SPDX-License-Identifier: MIT */
/*
 * Lab 02, exercise 1: neighbors - a solution.
 *
 * Every thread broadcasts its three coordinates with three __shfl_sync
 * per source lane, and every lane of the warp receives them: 3 x 32
 * shuffles, no shared memory, no barrier.
 *
 * The mask names exactly the lanes that exist. A full warp has 32; the
 * last warp of a block whose size is not a multiple of 32 has only
 * nthreads - 32 * warp, and a full mask there would name lanes that never
 * execute the shuffle (undefined behaviour). The mask is computed from the
 * block's size rather than read with __activemask(): __activemask() only
 * reports which lanes happen to be converged at that instant, while this
 * is the set of lanes that must take part. Source lanes are taken only from
 * that set; entries for the missing lanes are -1.
 */
#include "shfl.h"

static __global__ void neighbors_kernel(int *out)
{
	unsigned int t = threadIdx.x +
			 blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
	unsigned int nt = blockDim.x * blockDim.y * blockDim.z;
	unsigned int first = t / 32 * 32;
	unsigned int live = nt - first < 32 ? nt - first : 32;
	unsigned int mask = live == 32 ? 0xffffffffu : (1u << live) - 1;
	int *o = out + (size_t)t * 32 * NEIGHBORS_COORDS;

	/* live is the same for every lane of the warp: so is the loop. */
	for (unsigned int j = 0; j < live; j++) {
		o[3 * j + 0] = __shfl_sync(mask, (int)threadIdx.x, j);
		o[3 * j + 1] = __shfl_sync(mask, (int)threadIdx.y, j);
		o[3 * j + 2] = __shfl_sync(mask, (int)threadIdx.z, j);
	}
	for (unsigned int j = live; j < 32; j++)
		o[3 * j + 0] = o[3 * j + 1] = o[3 * j + 2] = -1;
}

void neighbors(int *out, unsigned int bx, unsigned int by, unsigned int bz)
{
	neighbors_kernel<<<1, dim3(bx, by, bz)>>>(out);
	CUDA_CHECK_LAUNCH();
}
