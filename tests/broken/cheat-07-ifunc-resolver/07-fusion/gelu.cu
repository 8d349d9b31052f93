/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: code that runs before main without a constructor.
 * The GeLU is honest and its entry point plain; a helper is a GNU indirect
 * function, and its resolver, which the loader calls while the program is
 * loaded, allocates 1 GiB of page-locked memory that nothing frees, before
 * the grader's code or its lockdown exists. (Here it only allocates; the
 * resolver could do anything a kernel launcher may.)
 *
 * No symbol of a submission may be an indirect function, entry point or
 * not (grader/inspect/symbols.c): sealing the object does not stop the loader from
 * running a local one.
 * Expected verdict: REJECTED (the file is never run).
 */
#include "fusion.h"

#define THREADS 256

static __device__ float gelu1(float x)
{
	const float k0 = 0.7978845608f; /* sqrt(2 / pi) */
	const float k1 = 0.044715f;

	return 0.5f * x * (1.0f + tanhf(k0 * (x + k1 * x * x * x)));
}

static __global__ void gelu_kernel(const float *x, float *y, size_t n)
{
	size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x;

	if (i < n)
		y[i] = gelu1(x[i]);
}

static size_t blocks_for(size_t n)
{
	return wb_ceil_div(n, THREADS);
}

typedef size_t (*blocks_fn)(size_t);

/* The resolver: the loader runs it before main. */
extern "C" blocks_fn resolve_blocks(void)
{
	void *held;

	if (cudaMallocHost(&held, (size_t)1 << 30) != cudaSuccess)
		held = 0;
	return blocks_for;
}

static size_t grid_blocks(size_t n) __attribute__((ifunc("resolve_blocks")));

void gelu(const float *x, float *y, size_t n)
{
	gelu_kernel<<<grid_blocks(n), THREADS>>>(x, y, n);
	CUDA_CHECK_LAUNCH();
}
