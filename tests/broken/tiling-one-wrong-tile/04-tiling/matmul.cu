/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a matmul that is wrong in one 4 x 4 tile of c. The
 * kernel is the textbook 16 x 16 shared-memory tiling, one element per
 * thread; at 4096 x 4096 (the benchmark), the 16 elements of c at rows
 * and columns 2048 .. 2051 leave out the last k-tile, the 16 terms
 * p = k - 16 .. k - 1. It stands for any bug confined to one tile: a race
 * in one block, a wrong predicate at one tile's edge.
 *
 * Why the old checks passed it: above 2^27 multiply-adds they compared
 * 10 whole rows and 10 whole columns of c: rows 0 and 4095 and 8 random
 * rows, the same for columns. The tile is hit only if one of the 8 random
 * rows falls in 2048 .. 2051, or one of the 8 random columns: per check
 * 1 - (1 - 4 / 4096)^16 = 1.6%. The benchmark's output was checked three
 * times (before and after timing, and on the other input set), so the
 * case passed in 95% of runs.
 * Why the new ones fail it, by construction: every element is now
 * checked, against the GPU's double-precision reference (labs/04-tiling/
 * ref.cu). Each of the 16 elements misses a sum of 16 products of values
 * in [-1, 1), of standard deviation 1.33, against a tolerance of 5e-6 x
 * sum_p |a[i][p] b[p][j]| ~ 5e-3 (the sum is ~1024 at k = 4096): one
 * such element passes with probability ~3e-3, all 16 with ~1e-40.
 * Expected verdict: WRONG, at 4096^3 (checked before timing).
 */
#include "tiling.h"

#define TILE 16

static __global__ void matmul_tiled(const float *a, const float *b, float *c,
				    size_t m, size_t k, size_t n)
{
	__shared__ float as[TILE][TILE], bs[TILE][TILE];
	size_t row = (size_t)blockIdx.y * TILE + threadIdx.y;
	size_t col = (size_t)blockIdx.x * TILE + threadIdx.x;
	size_t tiles = (k + TILE - 1) / TILE;
	/* the bug, in one 4 x 4 tile of the benchmark's c */
	int short_k = m >= 4096 && n >= 4096 && row / 4 == m / 8 &&
		      col / 4 == n / 8;
	float acc = 0.0f;

	for (size_t t = 0; t < tiles; t++) {
		size_t ka = t * TILE + threadIdx.x, kb = t * TILE + threadIdx.y;
		unsigned int ty = threadIdx.y, tx = threadIdx.x;

		as[ty][tx] = row < m && ka < k ? a[row * k + ka] : 0.0f;
		bs[ty][tx] = kb < k && col < n ? b[kb * n + col] : 0.0f;
		__syncthreads();
		if (!(short_k && t == tiles - 1))
			for (int p = 0; p < TILE; p++)
				acc += as[threadIdx.y][p] * bs[p][threadIdx.x];
		__syncthreads();
	}
	if (row < m && col < n)
		c[row * n + col] = acc;
}

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	dim3 block(TILE, TILE);
	dim3 grid((unsigned int)wb_ceil_div(n, TILE),
		  (unsigned int)wb_ceil_div(m, TILE));

	matmul_tiled<<<grid, block>>>(a, b, c, m, k, n);
	CUDA_CHECK_LAUNCH();
}
