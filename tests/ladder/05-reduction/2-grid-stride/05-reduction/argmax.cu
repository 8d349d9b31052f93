/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 2 (argmax): coarsening with scalar loads. One wave of blocks
 * strides over the input; each thread keeps its best (value, index) in
 * registers, then the shared-memory tree and one atomicMax per block.
 * Meant for tier 2.
 */
#include "reduction.h"

__device__ unsigned long long gs_key(float v, unsigned int i)
{
	unsigned int u = __float_as_uint(v);

	u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
	return ((unsigned long long)u << 32) | (0xffffffffu - i);
}

__global__ void argmax_grid_stride(const float *in, size_t n,
				   unsigned long long *key)
{
	__shared__ float v[256];
	__shared__ unsigned int idx[256];
	unsigned int tid = threadIdx.x;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float best = -INFINITY;
	unsigned int at = 0xffffffffu;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + tid; i < n; i += stride)
		if (in[i] > best) {
			best = in[i];
			at = (unsigned int)i;
		}
	v[tid] = best;
	idx[tid] = at;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (tid < step) {
			float b = v[tid + step];

			if (b > v[tid] || (b == v[tid] && idx[tid + step] < idx[tid])) {
				v[tid] = b;
				idx[tid] = idx[tid + step];
			}
		}
		__syncthreads();
	}
	if (tid == 0)
		atomicMax(key, gs_key(v[0], idx[0]));
}

__global__ void key_to_index(const unsigned long long *key, long long *out)
{
	out[0] = (long long)(0xffffffffu - (unsigned int)(*key & 0xffffffffu));
}

void reduce_argmax(const float *in, size_t n, long long *out, void *work)
{
	unsigned long long *key = (unsigned long long *)work;
	int dev, sms;
	size_t blocks;

	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	blocks = wb_ceil_div(n, 256);
	if (blocks > (size_t)sms * 8)
		blocks = (size_t)sms * 8;
	CUDA_CHECK(cudaMemsetAsync(key, 0, sizeof(*key), 0));
	argmax_grid_stride<<<blocks, 256>>>(in, n, key);
	CUDA_CHECK_LAUNCH();
	key_to_index<<<1, 1>>>(key, out);
	CUDA_CHECK_LAUNCH();
}
