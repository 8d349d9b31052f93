/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the sum h = x + residual written back into x as well
 * as into residual (the const cast away), "so the norm can read it from
 * either". residual and y are right; x is not the caller's any more.
 * Expected verdict: WRONG, "modified its input 'x' ... inputs are
 * read-only".
 */
#include "fusion.h"

#define THREADS 256

/*
 * One block per row: h into both buffers while the squares are summed,
 * shuffles and shared memory for the block's sum, then y from h.
 */
static __global__ void add_rmsnorm_row(float *x, float *residual,
				       const float *w, float *y, size_t hidden,
				       float eps)
{
	__shared__ float partial[THREADS / 32];
	__shared__ float scale;
	float *xr = x + (size_t)blockIdx.x * hidden;
	float *rr = residual + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	float ss = 0.0f;

	for (size_t i = threadIdx.x; i < hidden; i += blockDim.x) {
		float h = xr[i] + rr[i];

		xr[i] = h;
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
	__syncthreads();
	for (size_t i = threadIdx.x; i < hidden; i += blockDim.x)
		yr[i] = xr[i] * scale * w[i];
}

void add_rmsnorm(const float *x, float *residual, const float *w, float *y,
		 size_t rows, size_t hidden, float eps)
{
	add_rmsnorm_row<<<rows, THREADS>>>((float *)x, residual, w, y, hidden,
					   eps);
	CUDA_CHECK_LAUNCH();
}
