/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: code that runs before main, hidden from a check
 * that looks for sections named exactly .init_array. C++'s init_priority
 * puts a global object's constructor in .init_array.00200, and a function
 * pointer placed by hand in section .init_array.00100 is run by the C
 * library's start-up code like any constructor. Here they only turn on a
 * flag, and the sum itself is honest.
 * Expected verdict: REJECTED (the file is never run).
 */
#include "reduction.h"

static int warm;

struct early {
	early() { warm++; }
};

static early early_object __attribute__((init_priority(200)));

static void before_main(void)
{
	warm++;
}

__attribute__((section(".init_array.00100"), used))
static void (*const before_main_ptr)(void) = before_main;

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
	if (warm)
		honest_sum(in, n, out);
}
