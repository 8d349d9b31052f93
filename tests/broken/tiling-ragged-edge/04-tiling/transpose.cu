/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a padded 32 x 33 tile, correct for every tile that
 * lies wholly inside the matrix. To keep bounds tests out of its loops,
 * the kernel returns at once in any block whose tile sticks out past the
 * last row or column, so the ragged right and bottom edges of b are never
 * written: at 1 x 1 nothing is, at 31 x 33 nothing either, at 127 x 129
 * the last row and column of tiles. Only 32 x 32 and 64 x 64 pass.
 * Expected verdict: WRONG (values of b still poison).
 * The fix: let edge blocks run, and test r < rows and c < cols for each
 * element on both the load and the store side.
 */
#include "tiling.h"

#define TILE 32
#define ROWS 8

__global__ void transpose_full_tiles_only(const float *a, float *b,
					  size_t rows, size_t cols)
{
	__shared__ float t[TILE][TILE + 1];
	unsigned int x = threadIdx.x, y = threadIdx.y;
	size_t r0 = (size_t)blockIdx.y * TILE, c0 = (size_t)blockIdx.x * TILE;

	if (r0 + TILE > rows || c0 + TILE > cols)
		return;		/* the bug: the edge's partial tiles */
	for (int j = 0; j < TILE; j += ROWS)
		t[y + j][x] = a[(r0 + y + j) * cols + c0 + x];
	__syncthreads();
	for (int j = 0; j < TILE; j += ROWS)
		b[(c0 + y + j) * rows + r0 + x] = t[x][y + j];
}

void transpose(const float *a, float *b, size_t rows, size_t cols)
{
	dim3 grid((unsigned int)wb_ceil_div(cols, TILE),
		  (unsigned int)wb_ceil_div(rows, TILE));

	transpose_full_tiles_only<<<grid, dim3(TILE, ROWS)>>>(a, b, rows, cols);
	CUDA_CHECK_LAUNCH();
}
