/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (argmax): the naive (value, index) tree with sequential
 * addressing instead of `tid % (2*s)`. As for sum, this alone gains almost
 * nothing on current GPUs. Meant to stay below tier 1.
 */
#include "reduction.h"

__device__ unsigned long long seq_key(float v, unsigned int i)
{
	unsigned int u = __float_as_uint(v);

	u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
	return ((unsigned long long)u << 32) | (0xffffffffu - i);
}

__global__ void argmax_sequential(const float *in, size_t n,
				  unsigned long long *key)
{
	__shared__ float v[256];
	__shared__ unsigned int idx[256];
	unsigned int tid = threadIdx.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + tid;

	v[tid] = i < n ? in[i] : -INFINITY;
	idx[tid] = i < n ? (unsigned int)i : 0xffffffffu;
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
		atomicMax(key, seq_key(v[0], idx[0]));
}

__global__ void key_to_index(const unsigned long long *key, long long *out)
{
	out[0] = (long long)(0xffffffffu - (unsigned int)(*key & 0xffffffffu));
}

void reduce_argmax(const float *in, size_t n, long long *out, void *work)
{
	unsigned long long *key = (unsigned long long *)work;

	CUDA_CHECK(cudaMemsetAsync(key, 0, sizeof(*key), 0));
	argmax_sequential<<<wb_ceil_div(n, 256), 256>>>(in, n, key);
	CUDA_CHECK_LAUNCH();
	key_to_index<<<1, 1>>>(key, out);
	CUDA_CHECK_LAUNCH();
}
