/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 2 (sum): coarsening. One wave of 256-thread blocks strides
 * over the input with scalar loads, so each thread sums hundreds of
 * elements in a register before the shared-memory tree, and there is one
 * atomic per block instead of one per 256 elements. Meant for tier 2.
 */
#include "reduction.h"

__global__ void sum_grid_stride(const float *in, size_t n, float *out)
{
	__shared__ float s[256];
	unsigned int tid = threadIdx.x;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float acc = 0.0f;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + tid; i < n; i += stride)
		acc += in[i];
	s[tid] = acc;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (tid < step)
			s[tid] += s[tid + step];
		__syncthreads();
	}
	if (tid == 0)
		atomicAdd(out, s[0]);
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
	sum_grid_stride<<<blocks, 256>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
