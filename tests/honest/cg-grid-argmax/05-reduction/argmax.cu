/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): argmax in one kernel with cooperative
 * groups, in the style of NVIDIA's samples. Each thread keeps the best
 * (value, index) key of its grid-stride share; warps reduce with
 * cg::reduce over a tiled_partition<32>, the block through shared memory;
 * each block writes its key to the scratch buffer, the grid waits at
 * grid.sync(), and block 0 reduces the blocks' keys. A grid barrier needs
 * cudaLaunchCooperativeKernel and a grid that fits on the GPU at once,
 * which the occupancy API gives. Expected: PASS; statically BUILT,
 * technique ok.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "reduction.h"

namespace cg = cooperative_groups;

#define THREADS 256
#define WARPS (THREADS / 32)

typedef unsigned long long key_t64;

/* Unsigned order is float order; on equal values the lower index wins. */
static __device__ key_t64 key_of(float v, unsigned int i)
{
	unsigned int u = __float_as_uint(v);

	u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
	return ((key_t64)u << 32) | (0xffffffffu - i);
}

/* The largest key of the block, in thread 0 (0: the block had none). */
static __device__ key_t64 block_max(cg::thread_block block, key_t64 k)
{
	__shared__ key_t64 warp_best[WARPS];
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

	k = cg::reduce(warp, k, cg::greater<key_t64>());
	if (warp.thread_rank() == 0)
		warp_best[warp.meta_group_rank()] = k;
	block.sync();
	if (warp.meta_group_rank() == 0) {
		k = warp.thread_rank() < WARPS ? warp_best[warp.thread_rank()] : 0;
		k = cg::reduce(warp, k, cg::greater<key_t64>());
	}
	return k;
}

static __global__ void __launch_bounds__(THREADS)
argmax_kernel(const float *__restrict__ in, size_t n, key_t64 *blocks,
	      long long *out)
{
	cg::grid_group grid = cg::this_grid();
	cg::thread_block block = cg::this_thread_block();
	const float4 *in4 = reinterpret_cast<const float4 *>(in);
	size_t n4 = n / 4, stride = (size_t)gridDim.x * THREADS;
	key_t64 k = 0;

	for (size_t i = grid.thread_rank(); i < n4; i += stride) {
		float4 v = in4[i];
		unsigned int base = (unsigned int)(4 * i);

		k = max(k, max(max(key_of(v.x, base), key_of(v.y, base + 1)),
			       max(key_of(v.z, base + 2), key_of(v.w, base + 3))));
	}
	if (grid.thread_rank() < n % 4)
		k = max(k, key_of(in[4 * n4 + grid.thread_rank()],
				  (unsigned int)(4 * n4 + grid.thread_rank())));
	k = block_max(block, k);
	if (block.thread_rank() == 0)
		blocks[blockIdx.x] = k;
	grid.sync();
	if (blockIdx.x != 0)
		return;
	k = 0;
	for (unsigned int b = block.thread_rank(); b < gridDim.x; b += THREADS)
		k = max(k, blocks[b]);
	k = block_max(block, k);
	if (block.thread_rank() == 0)
		out[0] = (long long)(0xffffffffu - (unsigned int)(k & 0xffffffffu));
}

/* Blocks that are resident on the whole GPU at once: the grid barrier's
 * limit. */
static unsigned int grid_limit(void)
{
	static unsigned int limit;

	if (!limit) {
		int dev, sms, per_sm;

		CUDA_CHECK(cudaGetDevice(&dev));
		CUDA_CHECK(cudaDeviceGetAttribute(&sms,
						  cudaDevAttrMultiProcessorCount,
						  dev));
		CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&per_sm, argmax_kernel, THREADS, 0));
		limit = (unsigned int)(sms * (per_sm > 0 ? per_sm : 1));
	}
	return limit;
}

void reduce_argmax(const float *in, size_t n, long long *out, void *work)
{
	key_t64 *blocks = (key_t64 *)work;
	size_t want = wb_ceil_div(n / 4, THREADS);
	unsigned int grid = want < grid_limit() ? (unsigned int)want : grid_limit();
	void *args[] = { &in, &n, &blocks, &out };

	if (grid == 0)
		grid = 1;
	if (grid > REDUCE_WORK_BYTES / sizeof(key_t64))
		grid = REDUCE_WORK_BYTES / sizeof(key_t64);
	CUDA_CHECK(cudaLaunchCooperativeKernel((const void *)argmax_kernel,
					       dim3(grid), dim3(THREADS), args,
					       0, 0));
}
