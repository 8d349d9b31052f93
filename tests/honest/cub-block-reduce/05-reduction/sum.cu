/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): the sum with CUB's block-level
 * primitive, as the lab's README allows and as CUB's own examples write
 * it. Each thread adds its share of float4 loads over a grid-stride loop,
 * cub::BlockReduce combines the block, one atomicAdd per block. Block-level
 * CUB defines no kernel of its own, and <cub/cub.cuh> brings iostream's
 * initialiser and NVTX's weak loader: none of it may cost the file.
 * Expected: PASS; statically BUILT, technique ok.
 */
#include <cub/cub.cuh>

#include "reduction.h"

#define THREADS 256
#define BLOCKS_PER_SM 8

typedef cub::BlockReduce<float, THREADS> block_reduce;

static __global__ void __launch_bounds__(THREADS)
sum_kernel(const float *__restrict__ in, size_t n, float *out)
{
	__shared__ typename block_reduce::TempStorage tmp;
	const float4 *in4 = reinterpret_cast<const float4 *>(in);
	size_t n4 = n / 4, stride = (size_t)gridDim.x * THREADS;
	float acc = 0.0f, total;

	for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < n4;
	     i += stride) {
		float4 v = in4[i];

		acc += (v.x + v.y) + (v.z + v.w);
	}
	/* The last n % 4 elements: the first threads of block 0. */
	if (blockIdx.x == 0 && threadIdx.x < n % 4)
		acc += in[4 * n4 + threadIdx.x];
	total = block_reduce(tmp).Sum(acc);
	if (threadIdx.x == 0)
		atomicAdd(out, total);
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	static int sms;
	size_t blocks;

	(void)work;
	if (!sms) {
		int dev;

		CUDA_CHECK(cudaGetDevice(&dev));
		CUDA_CHECK(cudaDeviceGetAttribute(&sms,
						  cudaDevAttrMultiProcessorCount,
						  dev));
	}
	blocks = wb_ceil_div(n / 4, THREADS);
	if (blocks > (size_t)sms * BLOCKS_PER_SM)
		blocks = (size_t)sms * BLOCKS_PER_SM;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_kernel<<<blocks ? blocks : 1, THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
