/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 1: gelu - a solution.
 *
 * What it changes from the naive's nine kernels, and why:
 *  - One kernel: each element is loaded once, the whole formula runs in
 *    registers, and the result is stored once. The naive's 21 passes over
 *    memory become 2; the arithmetic (a tanhf is ~20 instructions) hides
 *    under the memory time.
 *  - 16-byte loads and stores (float4), four of them issued before any
 *    arithmetic, so enough bytes are in flight per SM to cover DRAM
 *    latency (the same shape as lab 05's sum).
 *  - A grid-stride loop over one wave of blocks (as many as fit on the
 *    GPU at once, asked of the occupancy calculator), so every thread
 *    has many elements and no block is launched twice over.
 *  - The last n % 4 elements are done one at a time by block 0.
 * tanhf is the accurate one: tanh.approx would be no faster here.
 */
#include "fusion.h"

#define GELU_THREADS 256
#define GELU_UNROLL 4

static __device__ float gelu1(float x)
{
	const float k0 = 0.7978845608f; /* sqrt(2 / pi) */
	const float k1 = 0.044715f;

	return 0.5f * x * (1.0f + tanhf(k0 * (x + k1 * x * x * x)));
}

static __device__ float4 gelu4(float4 v)
{
	return make_float4(gelu1(v.x), gelu1(v.y), gelu1(v.z), gelu1(v.w));
}

static __global__ void __launch_bounds__(GELU_THREADS)
gelu_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n)
{
	const float4 *x4 = (const float4 *)x;
	float4 *y4 = (float4 *)y;
	size_t n4 = n / 4, stride = (size_t)gridDim.x * blockDim.x;
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	for (; i + (GELU_UNROLL - 1) * stride < n4; i += GELU_UNROLL * stride) {
		float4 v[GELU_UNROLL];

#pragma unroll
		for (int u = 0; u < GELU_UNROLL; u++)
			v[u] = x4[i + u * stride];
#pragma unroll
		for (int u = 0; u < GELU_UNROLL; u++)
			y4[i + u * stride] = gelu4(v[u]);
	}
	for (; i < n4; i += stride)
		y4[i] = gelu4(x4[i]);
	if (blockIdx.x == 0 && threadIdx.x < n % 4)
		y[4 * n4 + threadIdx.x] = gelu1(x[4 * n4 + threadIdx.x]);
}

/* Blocks of the kernel that fit on the whole GPU at once. */
static size_t one_wave(void)
{
	static size_t wave;

	if (!wave) {
		int dev, sms, per_sm;

		CUDA_CHECK(cudaGetDevice(&dev));
		CUDA_CHECK(cudaDeviceGetAttribute(
			&sms, cudaDevAttrMultiProcessorCount, dev));
		CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&per_sm, gelu_kernel, GELU_THREADS, 0));
		wave = (size_t)sms * (per_sm > 0 ? per_sm : 1);
	}
	return wave;
}

void gelu(const float *x, float *y, size_t n)
{
	size_t want = wb_ceil_div(n / 4, GELU_THREADS), wave = one_wave();
	size_t blocks = want < wave ? want : wave;

	gelu_kernel<<<blocks ? blocks : 1, GELU_THREADS>>>(x, y, n);
	CUDA_CHECK_LAUNCH();
}
