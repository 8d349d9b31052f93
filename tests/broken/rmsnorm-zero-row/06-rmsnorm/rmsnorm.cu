/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: RMSNorm that divides by zero on a row of zeros. To
 * keep the squares from overflowing (as BLAS's nrm2 does), it first
 * divides the row by its largest |x|, s, and computes
 *     y = (x / s) / sqrt(mean((x / s)^2) + eps / s / s) * w,
 * which is x / sqrt(mean(x^2) + eps) * w for every s > 0. On a row of
 * zeros s = 0 and x / s = 0 / 0 = NaN. One block of 256 threads per row.
 *
 * Why the old checks passed it, by construction: no row was zero (x was
 * uniform in [-2, 2]), so s > 0 on every row and the formula is the right
 * one, rounded a few times more (a few 1e-7 relative against a tolerance
 * of 1e-4; 30 of 30 seeds replayed on the host passed). eps / s / s
 * stays finite: s >= |x| of the row's largest element.
 * Why the new ones fail it, by construction: every size of 4 rows or more
 * now has rows of zeros (labs/06-rmsnorm/lab.c), whose y must be 0; here
 * every element of them is NaN.
 * Expected verdict: WRONG (NaN among the values), at 31x1 and every
 * larger size.
 */
#include "rmsnorm.h"

#define THREADS 256

/* op over the block: the sum (is_max 0) or the maximum, in every thread */
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
	v = lane < THREADS / 32 ? partial[lane] : 0.0f;
	for (int mask = 16; mask > 0; mask /= 2) {
		float o = __shfl_xor_sync(0xffffffffu, v, mask);

		v = is_max ? fmaxf(v, o) : v + o;
	}
	return v;
}

static __global__ void rms_scaled(const float *x, const float *w, float *y,
				  size_t hidden, float eps)
{
	const float *xr = x + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	float s = 0.0f, ss = 0.0f, d;

	for (size_t i = threadIdx.x; i < hidden; i += THREADS)
		s = fmaxf(s, fabsf(xr[i]));
	s = block_reduce(s, 1);
	/* the bug: nothing guards s == 0 */
	for (size_t i = threadIdx.x; i < hidden; i += THREADS)
		ss += (xr[i] / s) * (xr[i] / s);
	d = sqrtf(block_reduce(ss, 0) / hidden + eps / s / s);
	for (size_t i = threadIdx.x; i < hidden; i += THREADS)
		yr[i] = xr[i] / s / d * w[i];
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	rms_scaled<<<(unsigned int)rows, THREADS>>>(x, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
