/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the sum of squares is kept in bfloat16. With 8 bits
 * of mantissa, once the sum reaches a few hundred each new square of ~1 is
 * below half an ulp and is lost: long rows get a far too small mean.
 * Expected verdict: WRONG (at the long rows).
 */
#include <cuda_bf16.h>

#include "rmsnorm.h"

__global__ void rms16_bf16_sum(const __nv_bfloat16 *x, const __nv_bfloat16 *w,
			       __nv_bfloat16 *y, size_t hidden, float eps)
{
	const __nv_bfloat16 *xr = x + (size_t)blockIdx.x * hidden;
	__nv_bfloat16 *yr = y + (size_t)blockIdx.x * hidden;
	__nv_bfloat16 sum = __float2bfloat16(0.0f);
	float total, scale;

	for (size_t i = threadIdx.x; i < hidden; i += 32)
		sum = __hadd(sum, __hmul(xr[i], xr[i]));
	total = __bfloat162float(sum);
	for (int mask = 16; mask > 0; mask /= 2)
		total += __shfl_xor_sync(0xffffffffu, total, mask);
	scale = rsqrtf(total / hidden + eps);
	for (size_t i = threadIdx.x; i < hidden; i += 32)
		yr[i] = __float2bfloat16(__bfloat162float(xr[i]) * scale *
					 __bfloat162float(w[i]));
}

void rmsnorm_bf16(const bf16_bits *x, const bf16_bits *w, bf16_bits *y,
		  size_t rows, size_t hidden, float eps)
{
	rms16_bf16_sum<<<rows, 32>>>((const __nv_bfloat16 *)x,
				     (const __nv_bfloat16 *)w,
				     (__nv_bfloat16 *)y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
