/* SPDX-License-Identifier: MIT */
/*
 * Racy on purpose: a block per row whose sum of squares ends with the
 * pre-Volta "warp-synchronous" steps: the last 32 threads add neighbours
 * in shared memory through a volatile pointer, with no barrier and no
 * __syncwarp, trusting the warp to run in lockstep. Since Volta the
 * threads of a warp may be scheduled apart, so this is a data race even
 * though it almost always gives the right rows.
 * Expected verdict: PASS graded plainly; RACE with SANITIZE=1.
 * The fix: __syncwarp() between the steps, or shuffles (the solution).
 */
#include "rmsnorm.h"

#define THREADS 256

/*
 * One block per row: each thread sums the squares of a strided slice, the
 * block adds them in shared memory (barriers down to 64 values, then the
 * unsynchronised warp steps), and thread 0 turns the sum into the scale.
 */
static __global__ void rms_block(const float *x, const float *w, float *y,
				 size_t hidden, float eps)
{
	__shared__ float s[THREADS];
	__shared__ float scale;
	const float *xr = x + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	unsigned int tid = threadIdx.x;
	float acc = 0.0f;

	for (size_t i = tid; i < hidden; i += blockDim.x)
		acc += xr[i] * xr[i];
	s[tid] = acc;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 32; step /= 2) {
		if (tid < step)
			s[tid] += s[tid + step];
		__syncthreads();
	}
	if (tid < 32) {
		volatile float *v = s;

		v[tid] += v[tid + 32];
		v[tid] += v[tid + 16];
		v[tid] += v[tid + 8];
		v[tid] += v[tid + 4];
		v[tid] += v[tid + 2];
		v[tid] += v[tid + 1];
	}
	if (tid == 0)
		scale = rsqrtf(s[0] / hidden + eps);
	__syncthreads();
	for (size_t i = tid; i < hidden; i += blockDim.x)
		yr[i] = xr[i] * scale * w[i];
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	rms_block<<<rows, THREADS>>>(x, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}
