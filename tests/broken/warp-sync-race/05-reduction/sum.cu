/* SPDX-License-Identifier: MIT */
/*
 * Racy on purpose: the classic "warp-synchronous" last steps of a tree
 * reduction, written for GPUs before Volta. The last 32 threads add
 * neighbours in shared memory with no barrier and no __syncwarp, trusting
 * the warp to run in lockstep. Since Volta, threads of a warp may be
 * scheduled independently: this is a data race, even though it almost
 * always gives the right sum.
 * Expected verdict: PASS when graded plainly; RACE with SANITIZE=1.
 * The fix: __syncwarp() between the steps, or warp shuffles.
 */
#include "reduction.h"

__global__ void sum_warp_sync(const float *in, size_t n, float *out)
{
	__shared__ float s[256];
	unsigned int tid = threadIdx.x;
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float acc = 0.0f;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + tid; i < n; i += stride)
		acc += in[i];
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
		atomicAdd(out, s[0]);
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	size_t blocks = wb_ceil_div(n, 256);

	(void)work;
	if (blocks > 1024)
		blocks = 1024;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_warp_sync<<<blocks, 256>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
