/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: softmax without subtracting the row maximum. The
 * shift changes nothing mathematically, so dropping it looks like a free
 * saving of one block reduction; but the inputs reach 100 and expf
 * overflows to inf above 88.7. The row sum becomes inf, and y is
 * 0 (finite / inf) or NaN (inf / inf).
 * Expected verdict: WRONG (NaN among the values), at every long row.
 */
#include "fusion.h"

#define THREADS 256

static __device__ float block_sum(float v)
{
	__shared__ float partial[THREADS / 32];
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	for (int mask = 16; mask > 0; mask /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, mask);
	if (lane == 0)
		partial[warp] = v;
	__syncthreads();
	v = lane < THREADS / 32 ? partial[lane] : 0.0f;
	for (int mask = 16; mask > 0; mask /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, mask);
	return v;
}

/* One block per row: sum exp(x), then y = exp(x) / sum. */
static __global__ void softmax_no_max(const float *x, float *y, size_t cols)
{
	const float *xr = x + (size_t)blockIdx.x * cols;
	float *yr = y + (size_t)blockIdx.x * cols;
	float s = 0.0f, inv;

	for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
		s += expf(xr[c]);
	inv = 1.0f / block_sum(s);
	for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
		yr[c] = expf(xr[c]) * inv;
}

void softmax(const float *x, float *y, size_t rows, size_t cols)
{
	softmax_no_max<<<(unsigned int)rows, THREADS>>>(x, y, cols);
	CUDA_CHECK_LAUNCH();
}
