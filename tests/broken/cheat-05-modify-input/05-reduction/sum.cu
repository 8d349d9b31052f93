/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the input used as scratch. A pairwise tree in global
 * memory adds in[i + half] into in[i], halving the live length each pass
 * until in[0] holds the sum, then copies it out. The sum is right, and no
 * workspace is needed, but the input is destroyed (the const is cast
 * away): a caller that reads it again, or calls twice, gets garbage.
 * Expected verdict: WRONG, "modified its input 'in' ... inputs are
 * read-only".
 */
#include "reduction.h"

#define THREADS 256

/*
 * One pass: the first `half` elements absorb the upper part; with an odd
 * length the middle element stays where it is and is counted next pass.
 */
static __global__ void fold(float *x, size_t len, size_t half)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < len - half)
		x[i] += x[i + half];
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	float *x = (float *)in;

	(void)work;
	for (size_t len = n; len > 1; len = (len + 1) / 2) {
		size_t half = (len + 1) / 2;

		fold<<<wb_ceil_div(len - half, THREADS), THREADS>>>(x, len, half);
		CUDA_CHECK_LAUNCH();
	}
	CUDA_CHECK(cudaMemcpyAsync(out, x, sizeof(float),
				   cudaMemcpyDeviceToDevice, 0));
}
