/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: escape the process group the grader kills after
 * every exercise. A forked child calls setsid(), leaves the group, and
 * lives on past the runner (here it exits at once; it could keep the GPU
 * busy while the next exercise's naive is timed). The sum itself is
 * honest. Expected verdict: REJECTED (the file is never run).
 */
#include <stdlib.h>
#include <unistd.h>

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
	static int forked;

	(void)work;
	if (!forked) {
		pid_t pid = fork();

		if (pid == 0) {
			setsid();
			exit(0);
		}
		forked = 1;
	}
	honest_sum(in, n, out);
}
