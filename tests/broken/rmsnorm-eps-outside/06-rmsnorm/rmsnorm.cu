/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: RMSNorm with eps added outside the square root,
 * y = x / (sqrt(mean(x^2)) + eps) * w instead of x / sqrt(mean(x^2) + eps)
 * * w. One block of 256 threads per row.
 *
 * Why the old checks passed it, about one seed in three: rows of x in
 * [-2, 2] have mean(x^2) ~ 1.3, where the two differ by under 1e-6
 * relative against a tolerance of 1e-4. Only one-element rows (1x1, 31x1) could
 * tell: there y = x / sqrt(x^2 + eps) * w, and the two differ by more than
 * the tolerance when |x| < 0.066, 3.3% of such rows; 32 of them all stay
 * above with probability 0.967^32 = 0.34 (13 of 30 seeds replayed on the
 * host passed).
 * Why the new ones fail it, by construction: every size of 4 rows or more
 * now has rows of magnitude 1e-4 and 1e-20 (labs/06-rmsnorm/lab.c). At
 * 1e-4, mean(x^2) ~ 1.3e-8 is under eps and y = x / ~1e-3; this kernel
 * divides by ~1.2e-4 instead: y 8.6 times too large. At 1e-20 it divides
 * by ~1e-6 instead of ~1e-3: 1000 times too large, and the check scales
 * its absolute tolerance to such rows. Every element of those rows fails,
 * from 31x1 on.
 * Expected verdict: WRONG, at 31x1 and every larger size.
 */
#include "rmsnorm.h"

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

static __global__ void rms_eps_outside(const float *x, const float *w,
				       float *y, size_t hidden, float eps)
{
	const float *xr = x + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	float ss = 0.0f, d;

	for (size_t i = threadIdx.x; i < hidden; i += THREADS)
		ss += xr[i] * xr[i];
	/* the bug: eps belongs under the root */
	d = sqrtf(block_sum(ss) / hidden) + eps;
	for (size_t i = threadIdx.x; i < hidden; i += THREADS)
		yr[i] = xr[i] / d * w[i];
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	rms_eps_outside<<<(unsigned int)rows, THREADS>>>(x, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
