/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): bias + GeLU launched with
 * cudaLaunchKernelEx, the extensible launch of CUDA 12, with a launch
 * attribute (the kernel's priority, set to the default stream's own, so it
 * changes nothing but the path taken). Rows are 16-byte aligned only when
 * cols % 4 == 0: a float4 kernel then, a scalar one otherwise; both
 * grid-stride over the whole matrix. std::min from <algorithm> sizes the
 * grid. Expected: PASS; statically BUILT, technique ok.
 */
#include <algorithm>

#include "fusion.h"

#define THREADS 256

static __device__ float gelu1(float x)
{
	const float k0 = 0.7978845608f; /* sqrt(2 / pi) */
	const float k1 = 0.044715f;

	return 0.5f * x * (1.0f + tanhf(k0 * (x + k1 * x * x * x)));
}

/* cols % 4 == 0: float4 over the matrix; c4 = cols / 4. */
static __global__ void __launch_bounds__(THREADS)
bias_gelu4(const float4 *__restrict__ x, const float4 *__restrict__ b,
	   float4 *__restrict__ y, size_t total4, size_t c4)
{
	size_t stride = (size_t)gridDim.x * THREADS;

	for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < total4;
	     i += stride) {
		float4 v = x[i], g = b[i % c4];

		y[i] = make_float4(gelu1(v.x + g.x), gelu1(v.y + g.y),
				   gelu1(v.z + g.z), gelu1(v.w + g.w));
	}
}

static __global__ void __launch_bounds__(THREADS)
bias_gelu1(const float *__restrict__ x, const float *__restrict__ b,
	   float *__restrict__ y, size_t total, size_t cols)
{
	size_t stride = (size_t)gridDim.x * THREADS;

	for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < total;
	     i += stride)
		y[i] = gelu1(x[i] + b[i % cols]);
}

/* The launch configuration, with the default stream's priority. */
static cudaLaunchConfig_t config(size_t items, cudaLaunchAttribute *attr)
{
	static int sms, least = -1, greatest;
	cudaLaunchConfig_t cfg = {};

	if (!sms) {
		int dev;

		CUDA_CHECK(cudaGetDevice(&dev));
		CUDA_CHECK(cudaDeviceGetAttribute(&sms,
						  cudaDevAttrMultiProcessorCount,
						  dev));
		CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
	}
	cfg.gridDim = dim3((unsigned int)std::min<size_t>(
		std::max<size_t>(wb_ceil_div(items, THREADS), 1),
		(size_t)sms * 16));
	cfg.blockDim = dim3(THREADS);
	cfg.dynamicSmemBytes = 0;
	cfg.stream = 0;
	attr->id = cudaLaunchAttributePriority;
	attr->val.priority = least; /* the default: no change */
	cfg.attrs = attr;
	cfg.numAttrs = 1;
	return cfg;
}

void bias_gelu(const float *x, const float *b, float *y, size_t rows,
	       size_t cols)
{
	cudaLaunchAttribute attr;
	cudaLaunchConfig_t cfg;

	if (cols % 4 == 0) {
		cfg = config(rows * cols / 4, &attr);
		CUDA_CHECK(cudaLaunchKernelEx(&cfg, bias_gelu4, (const float4 *)x,
					      (const float4 *)b, (float4 *)y,
					      rows * cols / 4, cols / 4));
	} else {
		cfg = config(rows * cols, &attr);
		CUDA_CHECK(cudaLaunchKernelEx(&cfg, bias_gelu1, x, b, y,
					      rows * cols, cols));
	}
}
