/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 3 (sum): step 2 with warp shuffles in place of the shared
 * memory tree (one __syncthreads instead of eight) but still scalar loads.
 * Shows how much of the remaining gap is the loads' width and depth: the
 * solution adds float4 and four loads in flight per thread.
 */
#include "reduction.h"

__device__ float warp_sum(float v)
{
	for (int offset = 16; offset > 0; offset /= 2)
		v += __shfl_down_sync(0xffffffffu, v, offset);
	return v;
}

__global__ void sum_shuffle(const float *in, size_t n, float *out)
{
	__shared__ float warps[8];
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float acc = 0.0f;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		acc += in[i];
	acc = warp_sum(acc);
	if (lane == 0)
		warps[warp] = acc;
	__syncthreads();
	if (warp == 0) {
		acc = warp_sum(lane < 8 ? warps[lane] : 0.0f);
		if (lane == 0)
			atomicAdd(out, acc);
	}
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	int dev, sms;
	size_t blocks;

	(void)work;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	blocks = wb_ceil_div(n, 256);
	if (blocks > (size_t)sms * 8)
		blocks = (size_t)sms * 8;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_shuffle<<<blocks, 256>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
