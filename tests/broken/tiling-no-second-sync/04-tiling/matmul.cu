/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the 16 x 16 tiled matmul with the second
 * __syncthreads() of its tile loop removed. The kernel prefetches the
 * next tiles' two elements into registers before the multiply-adds (a
 * good idea) and stores them into the shared tiles as soon as its own 16
 * multiply-adds are done. Without a barrier between the last read of a
 * tile and that store, a warp that finishes early overwrites rows of bs
 * that slower warps of the block have not read yet: they multiply with
 * the next tile's values. Which warps and how often depends on
 * scheduling; at the benchmark size (65536 blocks x 256 tiles each) it
 * happens in many places, and the sampled check sees it.
 * Expected verdict: WRONG. (compute-sanitizer --tool racecheck names the
 * hazard at any size: a write after read on bs.)
 * The fix: __syncthreads() after the multiply-adds, or two buffers that
 * alternate, so the next stores go where nobody is reading.
 */
#include "tiling.h"

#define TILE 16

__global__ void matmul_one_barrier(const float *a, const float *b, float *c,
				   size_t m, size_t k, size_t n)
{
	__shared__ float as[TILE][TILE];
	__shared__ float bs[TILE][TILE];
	unsigned int tx = threadIdx.x, ty = threadIdx.y;
	size_t row = (size_t)blockIdx.y * TILE + ty;
	size_t col = (size_t)blockIdx.x * TILE + tx;
	float acc = 0.0f, na, nb;

	na = row < m && tx < k ? a[row * k + tx] : 0.0f;
	nb = ty < k && col < n ? b[ty * n + col] : 0.0f;
	for (size_t k0 = 0; k0 < k; k0 += TILE) {
		as[ty][tx] = na;
		bs[ty][tx] = nb;
		__syncthreads();
		if (k0 + TILE < k) {
			size_t kn = k0 + TILE;

			na = row < m && kn + tx < k ?
			     a[row * k + kn + tx] : 0.0f;
			nb = kn + ty < k && col < n ?
			     b[(kn + ty) * n + col] : 0.0f;
		}
		for (int p = 0; p < TILE; p++)
			acc += as[ty][p] * bs[p][tx];
		/* the bug: no __syncthreads() here */
	}
	if (row < m && col < n)
		c[row * n + col] = acc;
}

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	dim3 grid((unsigned int)wb_ceil_div(n, TILE),
		  (unsigned int)wb_ceil_div(m, TILE));

	matmul_one_barrier<<<grid, dim3(TILE, TILE)>>>(a, b, c, m, k, n);
	CUDA_CHECK_LAUNCH();
}
