/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose, the careful way: recognise the input by its first
 * value and its length, and replay the sum computed the first time that
 * input was seen. Unlike a cache keyed by pointer, this would survive a
 * grader that alternated a few input sets: each set is summed once, and
 * every later call costs two 4-byte copies.
 *
 * What gives it away: every timed round gets inputs no call saw before
 * (about half their signs flipped, common/fresh.c), so once the first
 * value repeats (it is often 0, and its sign takes two values) the
 * replayed sum belongs to other inputs. The outputs of random timed
 * rounds, and of one more call after the timing, are checked against the
 * inputs of that very call.
 * Expected verdict: WRONG.
 */
#include <string.h>

#include "reduction.h"

#define THREADS 256
#define REMEMBER 64

/* The grid-stride reduction the first sight of an input runs. */
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

struct seen {
	size_t n;
	unsigned int first; /* the first value's bits */
	float sum;
};

static struct seen seen[REMEMBER];
static int nseen;

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	size_t blocks = wb_ceil_div(n, THREADS);
	unsigned int first;
	float f;

	(void)work;
	CUDA_CHECK(cudaMemcpy(&f, in, sizeof(f), cudaMemcpyDeviceToHost));
	memcpy(&first, &f, sizeof(first));
	for (int i = 0; i < nseen; i++) {
		if (seen[i].n == n && seen[i].first == first) {
			CUDA_CHECK(cudaMemcpy(out, &seen[i].sum, sizeof(float),
					      cudaMemcpyHostToDevice));
			return;
		}
	}
	if (blocks > 1024)
		blocks = 1024;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_blocks<<<blocks, THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
	if (nseen < REMEMBER) {
		CUDA_CHECK(cudaMemcpy(&seen[nseen].sum, out, sizeof(float),
				      cudaMemcpyDeviceToHost));
		seen[nseen].n = n;
		seen[nseen++].first = first;
	}
}
