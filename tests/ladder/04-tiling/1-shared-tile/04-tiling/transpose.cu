/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (transpose): a 32 x 32 tile in shared memory, 32 x 8
 * threads with four elements each, and no padding. Both global sides are
 * now coalesced, but the write phase reads the tile down a column: 32
 * addresses 32 words apart, all in one bank, a 32-way conflict that
 * serialises every such load. Planning figure on an H200: 3.37x. Meant to
 * land between tiers 1 and 2; step 2 pads the tile.
 */
#include "tiling.h"

#define TILE 32
#define ROWS 8

__global__ void transpose_tile32(const float *a, float *b, size_t rows,
				 size_t cols)
{
	__shared__ float t[TILE][TILE];
	unsigned int x = threadIdx.x, y = threadIdx.y;
	size_t r0 = (size_t)blockIdx.y * TILE, c0 = (size_t)blockIdx.x * TILE;

#pragma unroll
	for (int j = 0; j < TILE; j += ROWS)
		if (r0 + y + j < rows && c0 + x < cols)
			t[y + j][x] = a[(r0 + y + j) * cols + c0 + x];
	__syncthreads();
#pragma unroll
	for (int j = 0; j < TILE; j += ROWS)
		if (c0 + y + j < cols && r0 + x < rows)
			b[(c0 + y + j) * rows + r0 + x] = t[x][y + j];
}

void transpose(const float *a, float *b, size_t rows, size_t cols)
{
	dim3 grid((unsigned int)wb_ceil_div(cols, TILE),
		  (unsigned int)wb_ceil_div(rows, TILE));

	transpose_tile32<<<grid, dim3(TILE, ROWS)>>>(a, b, rows, cols);
	CUDA_CHECK_LAUNCH();
}
