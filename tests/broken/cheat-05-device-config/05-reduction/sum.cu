/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: change the device for the whole process from inside
 * the student's call. cudaDeviceSetCacheConfig(cudaFuncCachePreferL1)
 * shrinks shared memory for every kernel that sets no preference of its
 * own, the naive reference among them, and cudaDeviceSetLimit grows the
 * printf FIFO the runtime must reserve. Both outlive the call and land on
 * the kernel the file is measured against. The sum itself is honest.
 * Expected verdict: REJECTED (the file is never run).
 */
#include "reduction.h"

#define THREADS 256

/* A grid-stride reduction with a shared-memory tree per block: correct,
 * and not the point of this file. */
static __global__ void sum_blocks(const float *in, size_t n, float *out)
{
	__shared__ float s[THREADS];
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float acc = 0.0f;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		acc += in[i];
	s[threadIdx.x] = acc;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (threadIdx.x < step)
			s[threadIdx.x] += s[threadIdx.x + step];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicAdd(out, s[0]);
}

static void honest_sum(const float *in, size_t n, float *out)
{
	size_t blocks = wb_ceil_div(n, THREADS);

	if (blocks > 1024)
		blocks = 1024;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_blocks<<<blocks, THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	static int done;

	(void)work;
	if (!done) {
		CUDA_CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
		CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 64u << 20));
		done = 1;
	}
	honest_sum(in, n, out);
}
