/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: every warp is assumed to be full. Each thread packs
 * its (x, y, z) into one int (one shuffle instead of three) and reads all
 * 32 lanes with the full mask 0xffffffff. In a block whose size is not a
 * multiple of 32 (31x1x1, 33x1x1, 5x7x3, 3x3x3, 7x5x9, 10x10x10, 1x1x1)
 * the last warp has fewer lanes: the mask names lanes that do not exist
 * (undefined behaviour), the shuffles from them return whatever their
 * registers hold, and those entries get coordinates where the contract
 * wants -1, -1, -1 (unpacking never yields -1, whatever garbage came in).
 * Expected verdict: WRONG, at the sizes with a partial warp only.
 * The fix: count the lanes of this warp (nthreads - 32 * warp, at most
 * 32), shuffle with a mask of just those lanes, and write -1 for the rest.
 */
#include "shfl.h"

static __global__ void neighbors_full_warps(int *out)
{
	unsigned int t = threadIdx.x +
			 blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
	int me = (int)(threadIdx.x | threadIdx.y << 10 | threadIdx.z << 20);
	int *o = out + (size_t)t * 32 * NEIGHBORS_COORDS;

	for (int j = 0; j < 32; j++) {
		int v = __shfl_sync(0xffffffffu, me, j);

		o[3 * j + 0] = v & 0x3ff;
		o[3 * j + 1] = v >> 10 & 0x3ff;
		o[3 * j + 2] = v >> 20 & 0x3ff;
	}
}

void neighbors(int *out, unsigned int bx, unsigned int by, unsigned int bz)
{
	neighbors_full_warps<<<1, dim3(bx, by, bz)>>>(out);
	CUDA_CHECK_LAUNCH();
}
