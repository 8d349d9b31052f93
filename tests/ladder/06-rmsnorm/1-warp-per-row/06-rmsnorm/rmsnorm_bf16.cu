/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (rmsnorm_bf16): one warp per row, one 2-byte value per
 * load, blocks of one warp.
 */
#include <cuda_bf16.h>

#include "rmsnorm.h"

__global__ void rms16_warp(const __nv_bfloat16 *x, const __nv_bfloat16 *w,
			   __nv_bfloat16 *y, size_t hidden, float eps)
{
	const __nv_bfloat16 *xr = x + (size_t)blockIdx.x * hidden;
	__nv_bfloat16 *yr = y + (size_t)blockIdx.x * hidden;
	float sum = 0.0f, scale;

	for (size_t i = threadIdx.x; i < hidden; i += 32) {
		float v = __bfloat162float(xr[i]);

		sum += v * v;
	}
	for (int mask = 16; mask > 0; mask /= 2)
		sum += __shfl_xor_sync(0xffffffffu, sum, mask);
	scale = rsqrtf(sum / hidden + eps);
	for (size_t i = threadIdx.x; i < hidden; i += 32)
		yr[i] = __float2bfloat16(__bfloat162float(xr[i]) * scale *
					 __bfloat162float(w[i]));
}

void rmsnorm_bf16(const bf16_bits *x, const bf16_bits *w, bf16_bits *y,
		  size_t rows, size_t hidden, float eps)
{
	rms16_warp<<<rows, 32>>>((const __nv_bfloat16 *)x,
				 (const __nv_bfloat16 *)w, (__nv_bfloat16 *)y,
				 hidden, eps);
	CUDA_CHECK_LAUNCH();
}
