/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 2 (matvec): coalesced, scalar. A warp per row, lane t
 * reading elements t, t + 32, ...: each warp-wide load is 128 contiguous
 * bytes (4 sectors per request), and a shuffle tree adds the lanes' sums.
 * One float per load and no unrolling, for every n. Meant for tier 2; the
 * solution adds float4 loads where rows are aligned, four in flight.
 */
#include "coalescing.h"

#define ROWS 8

static __global__ void matvec_warp_scalar(const float *a, const float *x,
					  float *y, size_t m, size_t n)
{
	size_t r = (size_t)blockIdx.x * ROWS + threadIdx.x / 32;
	unsigned int lane = threadIdx.x % 32;
	float acc = 0.0f;

	if (r >= m)
		return;
	for (size_t j = lane; j < n; j += 32)
		acc += a[r * n + j] * x[j];
	for (int mask = 16; mask > 0; mask /= 2)
		acc += __shfl_xor_sync(0xffffffffu, acc, mask);
	if (lane == 0)
		y[r] = acc;
}

void matvec(const float *a, const float *x, float *y, size_t m, size_t n)
{
	matvec_warp_scalar<<<wb_ceil_div(m, ROWS), 32 * ROWS>>>(a, x, y, m, n);
	CUDA_CHECK_LAUNCH();
}
