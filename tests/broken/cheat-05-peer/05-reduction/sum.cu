/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: hand the sum to the lab's library peer
 * (peer_reduce_sum, CUB's DeviceReduce, make bench's comparison) whenever
 * it is linked in, and fall back to an honest kernel when it is not. The
 * weak declaration links either way: the peer is linked only into the
 * lab's info binary, so here it is NULL and the file runs its own kernel;
 * in a runner that had the peer it would be the library's work.
 *
 * A reference to the lab's own code (a naive reference, a peer, anything
 * the lab's objects define) is not the file's own work.
 * Expected verdict: REJECTED (the file is never run).
 */
#include "reduction.h"

extern "C" void peer_reduce_sum(const float *in, size_t n, float *out,
				void *work) __attribute__((weak));

#define THREADS 256

/* A grid-stride reduction with a shared-memory tree per block: correct,
 * and not the point of this file. */
static __global__ void sum_blocks(const float *in, size_t n, float *out)
{
	__shared__ float s[THREADS];
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float acc = 0.0f;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		acc += in[i];
	s[threadIdx.x] = acc;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (threadIdx.x < step)
			s[threadIdx.x] += s[threadIdx.x + step];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicAdd(out, s[0]);
}

static void honest_sum(const float *in, size_t n, float *out)
{
	size_t blocks = wb_ceil_div(n, THREADS);

	if (blocks > 1024)
		blocks = 1024;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_blocks<<<blocks, THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	if (peer_reduce_sum) {
		peer_reduce_sum(in, n, out, work);
		return;
	}
	honest_sum(in, n, out);
}
