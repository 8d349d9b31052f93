/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the fused residual add and RMSNorm, with eps added
 * outside the square root: y = h / (sqrt(mean(h^2)) + eps) * w. One block
 * of 256 threads per row; h = x + residual is written back, as it must.
 *
 * Why the old checks passed it, about 93 seeds in 100: x and the residual
 * were uniform in [-1, 1], so mean(h^2) ~ 0.67 on rows of many values,
 * where the two forms differ by under 1e-6 relative against a tolerance
 * of 1e-4. Only the one-element row of size 1x1 could tell: with
 * h = x + residual, the forms differ by more than the tolerance when
 * |h| < 0.066, which the sum of two uniform values does with probability
 * ~0.065.
 * Why the new ones fail it, by construction: every size of 4 rows or more
 * now has rows where h is of magnitude 1e-4 and 1e-20 (labs/07-fusion/
 * lab.c). At 1e-4, mean(h^2) ~ 7e-9 is under eps, and this kernel divides
 * by ~8e-5 instead of ~1e-3: y 12 times too large; at 1e-20, 1000 times.
 * Expected verdict: WRONG, from 33x768 on.
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

static __global__ void add_rms_eps_outside(const float *x, float *residual,
					   const float *w, float *y,
					   size_t hidden, float eps)
{
	size_t off = (size_t)blockIdx.x * hidden;
	float ss = 0.0f, d;

	/* each thread reads back only the h it wrote itself */
	for (size_t i = threadIdx.x; i < hidden; i += THREADS) {
		float h = x[off + i] + residual[off + i];

		residual[off + i] = h;
		ss += h * h;
	}
	/* the bug: eps belongs under the root */
	d = sqrtf(block_sum(ss) / hidden) + eps;
	for (size_t i = threadIdx.x; i < hidden; i += THREADS)
		y[off + i] = residual[off + i] / d * w[i];
}

void add_rmsnorm(const float *x, float *residual, const float *w, float *y,
		 size_t rows, size_t hidden, float eps)
{
	add_rms_eps_outside<<<(unsigned int)rows, THREADS>>>(x, residual, w, y,
							     hidden, eps);
	CUDA_CHECK_LAUNCH();
}
