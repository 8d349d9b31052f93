/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: an entry point that is a GNU indirect function.
 * reduce_sum is an ifunc whose resolver the loader runs before main, with
 * no constructor section for a check to find; the resolver here only
 * picks the implementation, but it could do anything before the grader
 * starts. The sum itself is honest.
 *
 * An entry point must be a plain function, and no symbol of a submission
 * may be an indirect function (grader/inspect/symbols.c).
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

typedef void (*sum_fn)(const float *, size_t, float *, void *);

static void sum_impl(const float *in, size_t n, float *out, void *work)
{
	(void)work;
	honest_sum(in, n, out);
}

/* The resolver: runs while the program is loaded, before main. */
extern "C" sum_fn resolve_sum(void)
{
	return sum_impl;
}

extern "C" void reduce_sum(const float *in, size_t n, float *out, void *work)
	__attribute__((ifunc("resolve_sum")));
