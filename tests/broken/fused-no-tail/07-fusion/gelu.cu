/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a fused GeLU with float4 loads and stores and no
 * scalar tail. Each thread handles one float4, i < n / 4, so the last
 * n % 4 elements are never written: they keep the poison (NaN). At n = 1
 * or 3 nothing at all is written.
 * Expected verdict: WRONG, at every n that is not a multiple of 4.
 */
#include "fusion.h"

#define THREADS 256

static __device__ float gelu1(float x)
{
	return 0.5f * x *
	       (1.0f + tanhf(0.7978845608f * (x + 0.044715f * x * x * x)));
}

static __global__ void gelu_float4(const float4 *x, float4 *y, size_t n4)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float4 v;

	if (i >= n4)
		return;
	v = x[i];
	y[i] = make_float4(gelu1(v.x), gelu1(v.y), gelu1(v.z), gelu1(v.w));
}

void gelu(const float *x, float *y, size_t n)
{
	/* Four elements per thread: never zero blocks, even for n < 4. */
	gelu_float4<<<wb_ceil_div(n, 4 * THREADS), THREADS>>>(
		(const float4 *)x, (float4 *)y, n / 4);
	CUDA_CHECK_LAUNCH();
}
