/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (matmul): 16 x 16 tiles in shared memory, one thread per
 * element of c, the textbook tiled kernel. Each thread loads one element
 * of a's tile and one of b's (zero outside the matrices), the block
 * synchronises, every thread runs 16 multiply-adds out of shared memory,
 * and the block synchronises again before the next tiles overwrite these.
 * Global traffic falls 16x; but each multiply-add still needs two shared
 * loads, and shared memory's bandwidth caps it near 1/8 of the FP32 peak.
 * Planning figure on an H200: 1.48x. Meant to clear tier 1 only.
 */
#include "tiling.h"

#define TILE 16

__global__ void matmul_tile16(const float *a, const float *b, float *c,
			      size_t m, size_t k, size_t n)
{
	__shared__ float as[TILE][TILE];
	__shared__ float bs[TILE][TILE];
	unsigned int tx = threadIdx.x, ty = threadIdx.y;
	size_t row = (size_t)blockIdx.y * TILE + ty;
	size_t col = (size_t)blockIdx.x * TILE + tx;
	float acc = 0.0f;

	for (size_t k0 = 0; k0 < k; k0 += TILE) {
		as[ty][tx] = row < m && k0 + tx < k ?
			     a[row * k + k0 + tx] : 0.0f;
		bs[ty][tx] = k0 + ty < k && col < n ?
			     b[(k0 + ty) * n + col] : 0.0f;
		__syncthreads();
		for (int p = 0; p < TILE; p++)
			acc += as[ty][p] * bs[p][tx];
		__syncthreads();
	}
	if (row < m && col < n)
		c[row * n + col] = acc;
}

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	dim3 grid((unsigned int)wb_ceil_div(n, TILE),
		  (unsigned int)wb_ceil_div(m, TILE));

	matmul_tile16<<<grid, dim3(TILE, TILE)>>>(a, b, c, m, k, n);
	CUDA_CHECK_LAUNCH();
}
