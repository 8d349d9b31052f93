/* SPDX-License-Identifier: MIT */
/*
 * naive.cu - the naive references: one thread per row.
 *
 * Each thread walks its own row twice (sum of squares, then the scaled
 * output). Neighbouring threads read addresses `hidden` floats apart, so
 * every warp-wide load touches 32 different rows: no coalescing, and with
 * rows x 1 threads there is little parallelism besides.
 */
#include <cuda_bf16.h>

#include "rmsnorm.h"

#define NAIVE_THREADS 128

static __global__ void naive_rmsnorm_kernel(const float *x, const float *w, float *y,
				     size_t rows, size_t hidden, float eps)
{
	size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float sum = 0.0f, scale;

	if (r >= rows)
		return;
	for (size_t i = 0; i < hidden; i++)
		sum += x[r * hidden + i] * x[r * hidden + i];
	scale = rsqrtf(sum / hidden + eps);
	for (size_t i = 0; i < hidden; i++)
		y[r * hidden + i] = x[r * hidden + i] * scale * w[i];
}

void naive_rmsnorm(const float *x, const float *w, float *y, size_t rows,
		   size_t hidden, float eps)
{
	naive_rmsnorm_kernel<<<wb_ceil_div(rows, NAIVE_THREADS), NAIVE_THREADS>>>(
		x, w, y, rows, hidden, eps);
	CUDA_CHECK_LAUNCH();
}

static __global__ void naive_rmsnorm_bf16_kernel(const __nv_bfloat16 *x,
					  const __nv_bfloat16 *w,
					  __nv_bfloat16 *y, size_t rows,
					  size_t hidden, float eps)
{
	size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float sum = 0.0f, scale;

	if (r >= rows)
		return;
	for (size_t i = 0; i < hidden; i++) {
		float v = __bfloat162float(x[r * hidden + i]);

		sum += v * v;
	}
	scale = rsqrtf(sum / hidden + eps);
	for (size_t i = 0; i < hidden; i++)
		y[r * hidden + i] = __float2bfloat16(__bfloat162float(x[r * hidden + i]) *
						     scale * __bfloat162float(w[i]));
}

void naive_rmsnorm_bf16(const bf16_bits *x, const bf16_bits *w, bf16_bits *y,
			size_t rows, size_t hidden, float eps)
{
	naive_rmsnorm_bf16_kernel<<<wb_ceil_div(rows, NAIVE_THREADS), NAIVE_THREADS>>>(
		(const __nv_bfloat16 *)x, (const __nv_bfloat16 *)w,
		(__nv_bfloat16 *)y, rows, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
