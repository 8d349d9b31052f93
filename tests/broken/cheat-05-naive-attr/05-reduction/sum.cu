/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: slow the reference down instead of speeding the
 * kernel up. The naive's kernel (naive_sum_kernel, in the lab's naive.cu)
 * is declared here and given a shared-memory carveout of 0 with
 * cudaFuncSetAttribute: the attribute is the kernel's, for the whole
 * process, so every later naive launch gets the smallest shared memory
 * and fewer blocks per SM. The sum itself is an honest kernel.
 * Expected verdict: COMPILE ERROR: the naive's kernels have internal
 * linkage (static in naive.cu), so no submission can name one, and the
 * link fails (undefined reference). Were it reachable, the allowlist
 * would reject the reference to a lab symbol, and the grader's reference
 * run would show the naive slowed (SUSPICIOUS).
 */
#include "reduction.h"

__global__ void naive_sum_kernel(const float *in, size_t n, float *out);

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
		CUDA_CHECK(cudaFuncSetAttribute(
			naive_sum_kernel,
			cudaFuncAttributePreferredSharedMemoryCarveout, 0));
		done = 1;
	}
	honest_sum(in, n, out);
}
