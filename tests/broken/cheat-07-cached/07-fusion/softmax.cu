/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: compute once per input pointer and shape, keep y in
 * a private buffer, and on later calls with the same pointer and shape
 * copy it back instead of computing.
 *
 * The grader's timed calls see two input sets in turn, in the same
 * buffers, and one more call after the timing gets the set the last timed
 * call did not: the replayed rows are the other set's.
 * Expected verdict: WRONG (softmax).
 */
#include <math.h>

#include "fusion.h"

/*
 * One warp per row, three sweeps over x: the maximum, the sum of
 * exp(x - max), then y. Shuffles combine the lanes.
 */
static __global__ void softmax_warp(const float *x, float *y, size_t cols)
{
	const float *xr = x + (size_t)blockIdx.x * cols;
	float *yr = y + (size_t)blockIdx.x * cols;
	float m = -INFINITY, s = 0.0f;

	for (size_t i = threadIdx.x; i < cols; i += 32)
		m = fmaxf(m, xr[i]);
	for (int mask = 16; mask > 0; mask /= 2)
		m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, mask));
	for (size_t i = threadIdx.x; i < cols; i += 32)
		s += expf(xr[i] - m);
	for (int mask = 16; mask > 0; mask /= 2)
		s += __shfl_xor_sync(0xffffffffu, s, mask);
	for (size_t i = threadIdx.x; i < cols; i += 32)
		yr[i] = expf(xr[i] - m) / s;
}

void softmax(const float *x, float *y, size_t rows, size_t cols)
{
	static const float *last_x;
	static size_t last_rows, last_cols;
	static void *kept;
	size_t bytes = rows * cols * sizeof(float);

	if (x == last_x && rows == last_rows && cols == last_cols) {
		CUDA_CHECK(cudaMemcpyAsync(y, kept, bytes,
					   cudaMemcpyDeviceToDevice, 0));
		return;
	}
	softmax_warp<<<rows, 32>>>(x, y, cols);
	CUDA_CHECK_LAUNCH();
	if (kept)
		CUDA_CHECK(cudaFree(kept));
	CUDA_CHECK(cudaMalloc(&kept, bytes));
	CUDA_CHECK(cudaMemcpyAsync(kept, y, bytes, cudaMemcpyDeviceToDevice, 0));
	last_x = x;
	last_rows = rows;
	last_cols = cols;
}
