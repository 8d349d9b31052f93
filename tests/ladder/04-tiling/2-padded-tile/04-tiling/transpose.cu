/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 2 (transpose): step 1 with the tile's rows padded to 33
 * floats. Element (i, j) now sits in bank (i + j) % 32, so a column of the
 * tile spans all 32 banks and the write phase's shared loads no longer
 * conflict. One float per row of padding: the textbook fix. Planning
 * figure on an H200: 6.85x (91% of copy). Meant to reach the top tier;
 * the solution (a 64 x 65 tile, 16 elements per thread) goes a little
 * further.
 */
#include "tiling.h"

#define TILE 32
#define ROWS 8

__global__ void transpose_tile33(const float *a, float *b, size_t rows,
				 size_t cols)
{
	__shared__ float t[TILE][TILE + 1];
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

	transpose_tile33<<<grid, dim3(TILE, ROWS)>>>(a, b, rows, cols);
	CUDA_CHECK_LAUNCH();
}
