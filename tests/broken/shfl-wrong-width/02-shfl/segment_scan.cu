/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the warp-wide scan of a thread-per-element kernel,
 * pasted into a float4 kernel without adapting it. Each lane holds a float4
 * (4 elements), so a 32-element segment is 8 lanes and a warp holds 4
 * segments; but __shfl_up_sync is called without its width argument (so
 * 32) and the guard tests lane >= d instead of (lane % 8) >= d. The scan
 * of the float4 totals then runs across the whole warp: from the second
 * segment of each warp on, every prefix also counts the segments before.
 * Expected verdict: WRONG at every size with a second segment of more
 * than 4 elements (63, 255, ...); n <= 36 still passes.
 * The fix: __shfl_up_sync(mask, t, d, 8) and a guard on lane % 8, so each
 * group of 8 lanes scans on its own.
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

static __global__ void scan_whole_warp(const float *in, size_t n, float *out)
{
	unsigned int lane = threadIdx.x % 32;
	size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = 4 * q;
	float4 v = load4_padded(in, n, q);
	float t;

	v.y += v.x;
	v.z += v.y;
	v.w += v.z;
	t = v.w;
	for (unsigned int d = 1; d < 8; d *= 2) {
		float u = __shfl_up_sync(0xffffffffu, t, d); /* width 32 */

		if (lane >= d)
			t += u;
	}
	t = __shfl_up_sync(0xffffffffu, t, 1);
	if (lane % 8 == 0)
		t = 0.0f;
	if (i < n)
		out[i] = v.x + t;
	if (i + 1 < n)
		out[i + 1] = v.y + t;
	if (i + 2 < n)
		out[i + 2] = v.z + t;
	if (i + 3 < n)
		out[i + 3] = v.w + t;
}

void segment_scan(const float *in, size_t n, float *out)
{
	scan_whole_warp<<<wb_ceil_div(wb_ceil_div(n, 4), THREADS), THREADS>>>(
		in, n, out);
	CUDA_CHECK_LAUNCH();
}
