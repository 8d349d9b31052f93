/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a sum that loses one block's partial sum, and only
 * at the benchmark size. Each block of 256 threads sums a contiguous chunk
 * of CHUNK = 4096 elements; the last block's chunk is meant to be the
 * ragged rest, but its length is written n % CHUNK instead of
 * n - blockIdx.x * CHUNK. The two agree unless n is a multiple of CHUNK,
 * and then the last block sums nothing: elements n - 4096 .. n - 1 are
 * lost.
 *
 * Why the old checks passed it: no checked size is a multiple of 4096,
 * so only the benchmark, n = 64M = 16384 x 4096, lost a block. Its inputs
 * were uniform in [-1, 1) and the tolerance 1e-5 x sum|x| ~ 335; the lost
 * block's sum has a standard deviation of sqrt(4096 / 3) ~ 37, so it
 * passed unless that sum exceeded 9 standard deviations (p ~ 1e-19; in
 * 20 seeds replayed on the host, the largest was 0.19 of the tolerance).
 * Why the new ones fail it, by construction: the benchmark's inputs are
 * exact-sum inputs (labs/05-reduction/lab.c): integers, one value in
 * 1..7 in every group of 32 elements at 64M, sum|x| < 2^24, compared
 * exactly. The lost 4096 elements hold 128 whole groups, so the result is
 * at least 128 short of the exact sum, which every correct float32 sum of
 * these inputs returns to the last bit.
 * Expected verdict: WRONG, at n=64M (checked before timing).
 */
#include "reduction.h"

#define THREADS 256
#define CHUNK 4096

static __global__ void sum_chunks(const float *in, size_t n, float *out)
{
	__shared__ float warp_sums[THREADS / 32];
	size_t start = (size_t)blockIdx.x * CHUNK;
	/* the bug: n - start, not n % CHUNK, is what the last block has */
	size_t len = blockIdx.x == gridDim.x - 1 ? n % CHUNK : CHUNK;
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	float acc = 0.0f;

	for (size_t i = threadIdx.x; i < len; i += THREADS)
		acc += in[start + i];
	for (int offset = 16; offset > 0; offset /= 2)
		acc += __shfl_down_sync(0xffffffffu, acc, offset);
	if (lane == 0)
		warp_sums[warp] = acc;
	__syncthreads();
	if (warp == 0) {
		acc = lane < THREADS / 32 ? warp_sums[lane] : 0.0f;
		for (int offset = 16; offset > 0; offset /= 2)
			acc += __shfl_down_sync(0xffffffffu, acc, offset);
		if (lane == 0)
			atomicAdd(out, acc);
	}
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	unsigned int blocks = (unsigned int)wb_ceil_div(n, CHUNK);

	(void)work;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_chunks<<<blocks, THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
