/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a race in the block reduction. Thread 0 adds up the
 * eight per-warp sums and publishes the row's scale in shared memory, but
 * no __syncthreads() separates that write from the other threads' reads.
 * Warps 1..7 read `scale` straight after the first barrier, while thread
 * 0 is still working through eight shared-memory loads and a square root:
 * they get whatever that shared memory held (the scale of a row an
 * earlier block on this SM did, or garbage). Rows short enough to sit in
 * warp 0 usually come out right (its other lanes wait for thread 0 where
 * the branch rejoins), which is how this bug hides in small tests.
 * Expected verdict: WRONG (y), from hidden = 768 up.
 */
#include "fusion.h"

#define THREADS 256

static __global__ void add_rmsnorm_racy(const float *x, float *residual,
					const float *w, float *y,
					size_t hidden, float eps)
{
	__shared__ float partial[THREADS / 32];
	__shared__ float scale;
	const float *xr = x + (size_t)blockIdx.x * hidden;
	float *rr = residual + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	float ss = 0.0f;

	for (size_t i = threadIdx.x; i < hidden; i += blockDim.x) {
		float h = xr[i] + rr[i];

		rr[i] = h;
		ss += h * h;
	}
	for (int offset = 16; offset > 0; offset /= 2)
		ss += __shfl_down_sync(0xffffffffu, ss, offset);
	if (lane == 0)
		partial[warp] = ss;
	__syncthreads();
	if (threadIdx.x == 0) {
		float total = 0.0f;

		for (int i = 0; i < THREADS / 32; i++)
			total += partial[i];
		scale = rsqrtf(total / (float)hidden + eps);
	}
	/* The bug: a __syncthreads() belongs here. */
	for (size_t i = threadIdx.x; i < hidden; i += blockDim.x)
		yr[i] = rr[i] * scale * w[i];
}

void add_rmsnorm(const float *x, float *residual, const float *w, float *y,
		 size_t rows, size_t hidden, float eps)
{
	add_rmsnorm_racy<<<(unsigned int)rows, THREADS>>>(x, residual, w, y,
							  hidden, eps);
	CUDA_CHECK_LAUNCH();
}
