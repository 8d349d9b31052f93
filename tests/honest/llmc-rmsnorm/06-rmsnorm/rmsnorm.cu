/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): RMSNorm as llm.c's dev/cuda kernels
 * write it. One warp per row; warpReduceSum with xor shuffles; a
 * 128-bit (float4) path when rows are 16-byte aligned and a scalar one
 * otherwise; a cudaCheck macro and ceil_div in the launcher; and, as
 * llm.c's forward pass does for its backward pass, each row's 1/rms kept
 * in a device buffer the launcher allocates with cudaMalloc (grown, never
 * per call). Expected: PASS; statically BUILT, technique ok.
 */
#include "rmsnorm.h"

#define WARP_SIZE 32
#define cudaCheck(err) CUDA_CHECK(err)

/* llm.c keeps rstd for the backward pass; here only the forward runs. */
static float *rstd_buf;
static size_t rstd_cap;

static int ceil_div(size_t a, int b)
{
	return (int)((a + b - 1) / b);
}

static __device__ float warpReduceSum(float val)
{
	for (int offset = 16; offset > 0; offset /= 2)
		val += __shfl_xor_sync(0xffffffffu, val, offset);
	return val;
}

/* C % 4 == 0: every row starts 16-byte aligned. */
static __global__ void rmsnorm_forward_kernel4(float *__restrict__ out,
					       float *__restrict__ rstd,
					       const float *__restrict__ inp,
					       const float *__restrict__ weight,
					       int N, int C, float eps)
{
	int lane_id = threadIdx.x % WARP_SIZE;
	int warp_id = threadIdx.x / WARP_SIZE;
	int num_warps = blockDim.x / WARP_SIZE;
	int idx = blockIdx.x * num_warps + warp_id;
	const float4 *x, *w;
	float4 *o;
	float sum = 0.0f, s;

	if (idx >= N)
		return;
	x = reinterpret_cast<const float4 *>(inp + (size_t)idx * C);
	w = reinterpret_cast<const float4 *>(weight);
	o = reinterpret_cast<float4 *>(out + (size_t)idx * C);
	for (int i = lane_id; i < C / 4; i += WARP_SIZE) {
		float4 v = x[i];

		sum += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
	}
	sum = warpReduceSum(sum);
	s = rsqrtf(sum / C + eps);
	if (lane_id == 0)
		__stcs(rstd + idx, s);
	for (int i = lane_id; i < C / 4; i += WARP_SIZE) {
		float4 v = x[i], g = w[i];

		__stcs(o + i, make_float4(v.x * s * g.x, v.y * s * g.y,
					  v.z * s * g.z, v.w * s * g.w));
	}
}

/* Any C, one float at a time. */
static __global__ void rmsnorm_forward_kernel1(float *__restrict__ out,
					       float *__restrict__ rstd,
					       const float *__restrict__ inp,
					       const float *__restrict__ weight,
					       int N, int C, float eps)
{
	int lane_id = threadIdx.x % WARP_SIZE;
	int idx = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
	const float *x;
	float sum = 0.0f, s;

	if (idx >= N)
		return;
	x = inp + (size_t)idx * C;
	for (int i = lane_id; i < C; i += WARP_SIZE)
		sum += x[i] * x[i];
	sum = warpReduceSum(sum);
	s = rsqrtf(sum / C + eps);
	if (lane_id == 0)
		rstd[idx] = s;
	for (int i = lane_id; i < C; i += WARP_SIZE)
		out[(size_t)idx * C + i] = x[i] * s * weight[i];
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	const int block_size = 256;
	const int grid_size = ceil_div(rows * WARP_SIZE, block_size);
	int N = (int)rows, C = (int)hidden;

	if (rows > rstd_cap) {
		if (rstd_buf)
			cudaCheck(cudaFree(rstd_buf));
		cudaCheck(cudaMalloc(&rstd_buf, rows * sizeof(float)));
		rstd_cap = rows;
	}
	if (C % 4 == 0)
		rmsnorm_forward_kernel4<<<grid_size, block_size>>>(y, rstd_buf, x,
								   w, N, C, eps);
	else
		rmsnorm_forward_kernel1<<<grid_size, block_size>>>(y, rstd_buf, x,
								   w, N, C, eps);
	cudaCheck(cudaGetLastError());
}
