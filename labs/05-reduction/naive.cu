/* SPDX-License-Identifier: MIT */
/*
 * naive.cu - the naive references the grader times the submissions against.
 *
 * Both are the textbook first reduction: one thread per element, a tree in
 * shared memory with interleaved addressing (`tid % (2*s)`), and one
 * atomic per block to combine the blocks. Every thread does one load and
 * then mostly waits: on current GPUs this runs far below the memory's
 * bandwidth, and not because of the divergent `%` (see the README).
 */
#include <stdint.h>

#include "reduction.h"

#define NAIVE_THREADS 256

static __global__ void naive_sum_kernel(const float *in, size_t n, float *out)
{
	__shared__ float s[NAIVE_THREADS];
	unsigned int tid = threadIdx.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + tid;

	s[tid] = i < n ? in[i] : 0.0f;
	__syncthreads();
	for (unsigned int step = 1; step < blockDim.x; step *= 2) {
		if (tid % (2 * step) == 0)
			s[tid] += s[tid + step];
		__syncthreads();
	}
	if (tid == 0)
		atomicAdd(out, s[0]);
}

void naive_reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	naive_sum_kernel<<<wb_ceil_div(n, NAIVE_THREADS), NAIVE_THREADS>>>(in, n,
									  out);
	CUDA_CHECK_LAUNCH();
}

/*
 * argmax packs (value, index) into one 64-bit key that atomicMax can
 * compare: the float's bits, mapped so that unsigned order is float order,
 * above the complement of the index, so that on equal values the lower
 * index has the larger key.
 */
__device__ unsigned long long naive_key(float v, size_t i)
{
	unsigned int u = __float_as_uint(v);

	u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
	return ((unsigned long long)u << 32) | (0xffffffffu - (unsigned int)i);
}

static __global__ void naive_argmax_kernel(const float *in, size_t n,
				    unsigned long long *key)
{
	__shared__ float v[NAIVE_THREADS];
	__shared__ unsigned int idx[NAIVE_THREADS];
	unsigned int tid = threadIdx.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + tid;

	v[tid] = i < n ? in[i] : -INFINITY;
	idx[tid] = i < n ? (unsigned int)i : 0xffffffffu;
	__syncthreads();
	for (unsigned int step = 1; step < blockDim.x; step *= 2) {
		if (tid % (2 * step) == 0) {
			float a = v[tid], b = v[tid + step];

			if (b > a || (b == a && idx[tid + step] < idx[tid])) {
				v[tid] = b;
				idx[tid] = idx[tid + step];
			}
		}
		__syncthreads();
	}
	if (tid == 0)
		atomicMax(key, naive_key(v[0], idx[0]));
}

static __global__ void naive_key_to_index(const unsigned long long *key,
				   long long *out)
{
	out[0] = (long long)(0xffffffffu - (unsigned int)(*key & 0xffffffffu));
}

void naive_reduce_argmax(const float *in, size_t n, long long *out,
			 void *work)
{
	unsigned long long *key = (unsigned long long *)work;

	CUDA_CHECK(cudaMemsetAsync(key, 0, sizeof(*key), 0));
	naive_argmax_kernel<<<wb_ceil_div(n, NAIVE_THREADS), NAIVE_THREADS>>>(
		in, n, key);
	CUDA_CHECK_LAUNCH();
	naive_key_to_index<<<1, 1>>>(key, out);
	CUDA_CHECK_LAUNCH();
}
