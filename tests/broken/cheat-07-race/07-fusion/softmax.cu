/* SPDX-License-Identifier: MIT */
/*
 * Racy on purpose: a block per row whose maximum and sum both end with
 * the pre-Volta "warp-synchronous" steps: the last 32 threads combine
 * shared-memory neighbours through a volatile pointer, with no barrier and
 * no __syncwarp. Since Volta that is a data race, even though it almost
 * always gives the right rows.
 * Expected verdict: PASS graded plainly; RACE with SANITIZE=1.
 * The fix: __syncwarp() between the steps, or shuffles (the solution).
 */
#include <math.h>

#include "fusion.h"

#define THREADS 256

/*
 * s[0] = op over s[0..THREADS): barriers down to 64 values, then the
 * unsynchronised warp steps; a barrier after, so that every thread may
 * read s[0]. is_max picks fmaxf over +.
 */
static __device__ void block_reduce(float *s, int is_max)
{
	unsigned int tid = threadIdx.x;

	__syncthreads();
	for (unsigned int step = THREADS / 2; step > 32; step /= 2) {
		if (tid < step)
			s[tid] = is_max ? fmaxf(s[tid], s[tid + step]) :
					  s[tid] + s[tid + step];
		__syncthreads();
	}
	if (tid < 32) {
		volatile float *v = s;

		for (unsigned int step = 32; step > 0; step /= 2)
			v[tid] = is_max ? fmaxf(v[tid], v[tid + step]) :
					  v[tid] + v[tid + step];
	}
	__syncthreads();
}

/* One block per row: the maximum, the sum of exp(x - max), then y. */
static __global__ void softmax_block(const float *x, float *y, size_t cols)
{
	__shared__ float s[THREADS];
	const float *xr = x + (size_t)blockIdx.x * cols;
	float *yr = y + (size_t)blockIdx.x * cols;
	unsigned int tid = threadIdx.x;
	float m = -INFINITY, sum = 0.0f;

	for (size_t i = tid; i < cols; i += THREADS)
		m = fmaxf(m, xr[i]);
	s[tid] = m;
	block_reduce(s, 1);
	m = s[0];
	for (size_t i = tid; i < cols; i += THREADS)
		sum += expf(xr[i] - m);
	__syncthreads(); /* everyone has read the maximum */
	s[tid] = sum;
	block_reduce(s, 0);
	sum = s[0];
	for (size_t i = tid; i < cols; i += THREADS)
		yr[i] = expf(xr[i] - m) / sum;
}

void softmax(const float *x, float *y, size_t rows, size_t cols)
{
	softmax_block<<<rows, THREADS>>>(x, y, cols);
	CUDA_CHECK_LAUNCH();
}
