/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: walk the objects loaded into the runner with
 * dl_iterate_phdr, the way code finds the grader's tables, the CUDA
 * runtime or the naive reference by address without naming them (here it
 * only counts them, and the sum itself is honest). No symbol names the
 * loader's functions as a call into the grader, so a denylist of the
 * grader's names misses it; the allowlist does not.
 * Expected verdict: REJECTED (the file is never run).
 */
#include <link.h>

#include "reduction.h"

static int objects;

static int count_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)info, (void)size, (void)data;
	objects++;
	return 0;
}

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
	(void)work;
	if (!objects)
		dl_iterate_phdr(count_object, NULL);
	honest_sum(in, n, out);
}
