/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 3 (segment_scan): one float4 per thread; each lane scans its
 * 4 elements, then __shfl_up_sync with width 8 scans the 8 totals of its
 * segment. One load in flight per thread and no grid-stride loop: the
 * solution adds four float4 in flight per thread and a wave of blocks.
 */
#include "shfl.h"

#define THREADS 256

static __device__ float4 load4_padded(const float *in, size_t n, size_t q)
{
	size_t i = 4 * q;
	float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

	if (i + 3 < n)
		return ((const float4 *)in)[q];
	if (i < n)
		v.x = in[i];
	if (i + 1 < n)
		v.y = in[i + 1];
	if (i + 2 < n)
		v.z = in[i + 2];
	return v;
}

static __global__ void segscan_float4(const float *in, size_t n, float *out)
{
	size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = 4 * q;
	unsigned int g = threadIdx.x % 8;
	float4 v = load4_padded(in, n, q);
	float t;

	v.y += v.x;
	v.z += v.y;
	v.w += v.z;
	t = v.w;
	for (unsigned int d = 1; d < 8; d *= 2) {
		float u = __shfl_up_sync(0xffffffffu, t, d, 8);

		if (g >= d)
			t += u;
	}
	t = __shfl_up_sync(0xffffffffu, t, 1, 8);
	if (g == 0)
		t = 0.0f;
	if (i + 3 < n) {
		((float4 *)out)[q] = make_float4(v.x + t, v.y + t, v.z + t,
						 v.w + t);
		return;
	}
	if (i < n)
		out[i] = v.x + t;
	if (i + 1 < n)
		out[i + 1] = v.y + t;
	if (i + 2 < n)
		out[i + 2] = v.z + t;
}

void segment_scan(const float *in, size_t n, float *out)
{
	segscan_float4<<<wb_ceil_div(wb_ceil_div(n, 4), THREADS), THREADS>>>(
		in, n, out);
	CUDA_CHECK_LAUNCH();
}
