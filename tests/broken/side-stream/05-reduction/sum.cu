/* SPDX-License-Identifier: MIT */
/*
 * Gaming the timer on purpose: a correct sum launched on a non-blocking
 * stream, returning before it finishes. CUDA events on the default stream
 * would see almost nothing; the grader's tail event after a device-wide
 * synchronisation sees all of it (docs/grading.md, section 4). Expected:
 * PASS, under the speed of light (share < 1; untimed work would be far
 * above it), at what honest code of the same kind earns: the H100 of
 * 2026-11-25 measured 5.49x, 78%, as ladder step 2 (74%).
 */
#include "reduction.h"

__global__ void sum_hidden(const float *in, size_t n, float *out)
{
	__shared__ float s[256];
	unsigned int tid = threadIdx.x;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float acc = 0.0f;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + tid; i < n; i += stride)
		acc += in[i];
	s[tid] = acc;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (tid < step)
			s[tid] += s[tid + step];
		__syncthreads();
	}
	if (tid == 0)
		atomicAdd(out, s[0]);
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	static cudaStream_t side;
	size_t blocks = wb_ceil_div(n, 256);

	(void)work;
	if (!side)
		CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
	if (blocks > 132 * 8)
		blocks = 132 * 8;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), side));
	sum_hidden<<<blocks, 256, 0, side>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
