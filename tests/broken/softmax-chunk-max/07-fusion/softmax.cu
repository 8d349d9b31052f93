/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: softmax with the maximum of one chunk instead of the
 * row's. One block of 256 threads per row; each thread reads its element
 * of the row's first chunk (the first 256 values), the block takes their
 * maximum m, and the whole row is then exponentiated as exp(x - m). The
 * shift cancels in y = exp(x - m) / sum exp(x - m) whatever m is, so the
 * kernel is right as long as nothing overflows: exp(x - m) needs
 * x - m < 88.7 for every x of the row.
 *
 * Why the old checks passed it: every row was uniform in (-100, 100). In
 * rows of up to 256 values m is the row's maximum. In longer rows m is the
 * largest of 256 uniform values, below the row's maximum by less than 1
 * on average; it falls 88.7 below it only if all 256 lie under 11.3, with
 * probability (111.3 / 200)^256 ~ 1e-65 per row. The extra factor
 * exp(row max - m) cancels in the division, and the rounding is that of
 * the right kernel: uniform rows pass by construction.
 * Why the new ones fail it, by construction: row 1 of every size (kind 1
 * in labs/07-fusion/lab.c) has its values in [-100, -90) but for a spike
 * in [40, 50) in its last column. At 3x1023, 17x4096, 5x4099 and 2x16384
 * that column lies past the first chunk, so m < -90, exp(spike - m) >=
 * exp(130) overflows to inf, the row's sum is inf, and y at the spike is
 * inf x (1 / inf) = NaN where 1 is expected.
 * Expected verdict: WRONG (NaN among the values), at 3x1023 and the
 * longer rows.
 */
#include <math.h>

#include "fusion.h"

#define THREADS 256

static __device__ float block_reduce(float v, int is_max)
{
	__shared__ float partial[THREADS / 32];
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	for (int mask = 16; mask > 0; mask /= 2) {
		float o = __shfl_xor_sync(0xffffffffu, v, mask);

		v = is_max ? fmaxf(v, o) : v + o;
	}
	__syncthreads(); /* partial[] may still be read from the last call */
	if (lane == 0)
		partial[warp] = v;
	__syncthreads();
	v = lane < THREADS / 32 ? partial[lane] : (is_max ? -INFINITY : 0.0f);
	for (int mask = 16; mask > 0; mask /= 2) {
		float o = __shfl_xor_sync(0xffffffffu, v, mask);

		v = is_max ? fmaxf(v, o) : v + o;
	}
	return v;
}

/* One block per row: m from the first chunk only, then the whole row. */
static __global__ void softmax_chunk_max(const float *x, float *y,
					 size_t cols)
{
	const float *xr = x + (size_t)blockIdx.x * cols;
	float *yr = y + (size_t)blockIdx.x * cols;
	float m, s = 0.0f, inv;

	m = block_reduce(threadIdx.x < cols ? xr[threadIdx.x] : -INFINITY, 1);
	for (size_t c = threadIdx.x; c < cols; c += THREADS)
		s += expf(xr[c] - m);
	inv = 1.0f / block_reduce(s, 0);
	for (size_t c = threadIdx.x; c < cols; c += THREADS)
		yr[c] = expf(xr[c] - m) * inv;
}

void softmax(const float *x, float *y, size_t rows, size_t cols)
{
	softmax_chunk_max<<<(unsigned int)rows, THREADS>>>(x, y, cols);
	CUDA_CHECK_LAUNCH();
}
