/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a warp per row with float4 loads on every row,
 * whatever n is. Row r starts r * n floats into a, a multiple of 16 bytes
 * only when n % 4 == 0; at 31 x 33, row 1 starts at byte 132 and its
 * first 16-byte load faults. (The scalar tail for n % 4 is there, so the
 * bug is the alignment alone: the sizes before 31 x 33 have a single row
 * or rows too short for a float4, and pass.)
 * Expected verdict: CRASH (cudaErrorMisalignedAddress).
 */
#include "coalescing.h"

#define ROWS 8

static __global__ void matvec_float4_always(const float *a, const float *x,
					    float *y, size_t m, size_t n)
{
	size_t r = (size_t)blockIdx.x * ROWS + threadIdx.x / 32;
	unsigned int lane = threadIdx.x % 32;
	const float4 *row4 = (const float4 *)(a + r * n);
	float acc = 0.0f;

	if (r >= m)
		return;
	for (size_t j = lane; j < n / 4; j += 32) {
		float4 v = row4[j];

		acc += v.x * x[4 * j] + v.y * x[4 * j + 1] +
		       v.z * x[4 * j + 2] + v.w * x[4 * j + 3];
	}
	for (size_t j = n / 4 * 4 + lane; j < n; j += 32)
		acc += a[r * n + j] * x[j];
	for (int mask = 16; mask > 0; mask /= 2)
		acc += __shfl_xor_sync(0xffffffffu, acc, mask);
	if (lane == 0)
		y[r] = acc;
}

void matvec(const float *a, const float *x, float *y, size_t m, size_t n)
{
	matvec_float4_always<<<wb_ceil_div(m, ROWS), 32 * ROWS>>>(a, x, y, m,
								  n);
	CUDA_CHECK_LAUNCH();
}
