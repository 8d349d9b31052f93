/* SPDX-License-Identifier: MIT */
/*
 * Against the rules on purpose: code that runs before main. A static
 * constructor runs before the grader's own code, where it could change the
 * process under the grader (here it only turns on a "warm" flag, and the
 * sum itself is honest). Global C++ objects with constructors and
 * __attribute__((constructor)) functions are both static constructors.
 * Expected verdict: REJECTED (the file is never run).
 */
#include "reduction.h"

#define THREADS 256

static int warm;

static void __attribute__((constructor)) before_main(void)
{
	warm = 1;
}

/* A grid-stride reduction with a shared-memory tree per block. */
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

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	size_t blocks = wb_ceil_div(n, THREADS);

	(void)work;
	if (!warm)
		return;
	if (blocks > 1024)
		blocks = 1024;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_blocks<<<blocks, THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
