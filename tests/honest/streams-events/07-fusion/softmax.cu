/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): an online softmax (one read for the
 * maximum and the sum together, one more to write), a block per row, with
 * a host launcher as application code writes one: the block size from a
 * std::vector of candidates and std::min against what
 * cudaOccupancyMaxPotentialBlockSize suggests; the rows split over two
 * streams of the file's own, forked from and joined back into the default
 * stream with events (so all the work is on the default stream's
 * timeline); a device assert; fprintf(stderr) and abort for an impossible
 * shape. Expected: PASS; statically BUILT, technique ok.
 */
#include <algorithm>
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#include "fusion.h"

#define MAX_THREADS 1024

/* Add x to a (maximum, sum of exp(v - maximum)) pair: one expf. */
static __device__ void add(float &m, float &s, float x)
{
	if (x > m) {
		s = (m == -INFINITY ? 0.0f : s * expf(m - x)) + 1.0f;
		m = x;
	} else {
		s += expf(x - m);
	}
}

/* Merge two such pairs. */
static __device__ void merge(float &m, float &s, float m2, float s2)
{
	float mm = fmaxf(m, m2);

	s = (m == -INFINITY ? 0.0f : s * expf(m - mm)) +
	    (m2 == -INFINITY ? 0.0f : s2 * expf(m2 - mm));
	m = mm;
}

static __global__ void softmax_rows(const float *__restrict__ x,
				    float *__restrict__ y, size_t row0,
				    size_t cols)
{
	__shared__ float wm[MAX_THREADS / 32], ws[MAX_THREADS / 32];
	const float *xr = x + (row0 + blockIdx.x) * cols;
	float *yr = y + (row0 + blockIdx.x) * cols;
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	unsigned int warps = blockDim.x / 32;
	float m = -INFINITY, s = 0.0f;

	assert(blockDim.x % 32 == 0);
	for (size_t i = threadIdx.x; i < cols; i += blockDim.x)
		add(m, s, xr[i]);
	for (int off = 16; off > 0; off /= 2)
		merge(m, s, __shfl_xor_sync(0xffffffffu, m, off),
		      __shfl_xor_sync(0xffffffffu, s, off));
	if (lane == 0) {
		wm[warp] = m;
		ws[warp] = s;
	}
	__syncthreads();
	m = lane < warps ? wm[lane] : -INFINITY;
	s = lane < warps ? ws[lane] : 0.0f;
	for (int off = 16; off > 0; off /= 2)
		merge(m, s, __shfl_xor_sync(0xffffffffu, m, off),
		      __shfl_xor_sync(0xffffffffu, s, off));
	s = 1.0f / s;
	for (size_t i = threadIdx.x; i < cols; i += blockDim.x)
		yr[i] = expf(xr[i] - m) * s;
}

/* The block size: the smallest candidate with 4 elements a thread, at
 * most what the occupancy calculator suggests. (A local vector: a static
 * one would be destroyed at exit, which the grader does not allow.) */
static int block_size(size_t cols)
{
	static int suggested;
	std::vector<int> candidates = { 32, 64, 128, 256, 512, 1024 };
	int min_grid;

	if (!suggested)
		CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(
			&min_grid, &suggested, softmax_rows, 0, MAX_THREADS));
	for (int c : candidates)
		if ((size_t)c * 4 >= cols)
			return std::min(c, suggested);
	return std::min(candidates.back(), suggested);
}

void softmax(const float *x, float *y, size_t rows, size_t cols)
{
	static cudaStream_t side[2];
	static cudaEvent_t fork, join[2];
	size_t half = rows / 2, part[2] = { half, rows - half };
	int threads = block_size(cols);

	if (rows > 2 * 2147483647ull) {
		fprintf(stderr, "softmax: %zu rows is more than a grid\n", rows);
		abort();
	}
	if (!side[0]) {
		for (int i = 0; i < 2; i++) {
			CUDA_CHECK(cudaStreamCreateWithFlags(&side[i],
							     cudaStreamNonBlocking));
			CUDA_CHECK(cudaEventCreateWithFlags(&join[i],
							    cudaEventDisableTiming));
		}
		CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
	}
	/* Fork from the default stream, run the halves, join back. */
	CUDA_CHECK(cudaEventRecord(fork, 0));
	for (int i = 0; i < 2; i++) {
		if (!part[i])
			continue;
		CUDA_CHECK(cudaStreamWaitEvent(side[i], fork, 0));
		softmax_rows<<<(unsigned int)part[i], threads, 0, side[i]>>>(
			x, y, i ? half : 0, cols);
		CUDA_CHECK_LAUNCH();
		CUDA_CHECK(cudaEventRecord(join[i], side[i]));
		CUDA_CHECK(cudaStreamWaitEvent(0, join[i], 0));
	}
}
