/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: float4 loads on every row, whatever hidden is. When
 * hidden % 4 != 0, row r starts at r * hidden floats, which is not a
 * multiple of 16 bytes: the 16-byte load faults.
 * Expected verdict: CRASH (cudaErrorMisalignedAddress), at hidden = 7.
 */
#include "rmsnorm.h"

__global__ void rms_float4_always(const float *x, const float *w, float *y,
				  size_t hidden, float eps)
{
	const float4 *xr = (const float4 *)(x + (size_t)blockIdx.x * hidden);
	float *yr = y + (size_t)blockIdx.x * hidden;
	float sum = 0.0f, scale;

	for (size_t i = threadIdx.x; i < hidden / 4; i += 32) {
		float4 v = xr[i];

		sum += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
	}
	for (size_t i = hidden / 4 * 4 + threadIdx.x; i < hidden; i += 32)
		sum += x[(size_t)blockIdx.x * hidden + i] *
		       x[(size_t)blockIdx.x * hidden + i];
	for (int mask = 16; mask > 0; mask /= 2)
		sum += __shfl_xor_sync(0xffffffffu, sum, mask);
	scale = rsqrtf(sum / hidden + eps);
	for (size_t i = threadIdx.x; i < hidden; i += 32)
		yr[i] = x[(size_t)blockIdx.x * hidden + i] * scale * w[i];
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	rms_float4_always<<<rows, 32>>>(x, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
