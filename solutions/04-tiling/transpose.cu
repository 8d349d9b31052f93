/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 1: transpose - a solution.
 *
 * What it changes from the naive, and why:
 *  - A 64 x 64 piece of a goes through shared memory: the block reads it
 *    row by row (each warp 128 contiguous bytes), and after a barrier
 *    writes it to b row by row too, reading the tile down its columns.
 *    Both global sides are coalesced; only shared memory is accessed
 *    across the grain, and it does not care about sectors.
 *  - The tile's rows are padded to 65 floats. A warp reading a column of
 *    an unpadded tile hits addresses 64 words apart, all in the same bank:
 *    a 32-way conflict, 32 passes for one load. With 65, element (i, j)
 *    sits in bank (i + j) % 32 and a column spans all 32 banks.
 *  - 32 x 8 threads move 16 elements each, and each thread issues all 16
 *    loads before its first shared store: 64 bytes in flight per thread,
 *    enough for DRAM's latency (a 32 x 32 tile with 4 per thread has 16).
 *  - Partial tiles at the right and bottom edges are guarded element by
 *    element, on both the read and the write side.
 */
#include "tiling.h"

#define TP_TILE 64     /* a 64 x 64 tile of a per block */
#define TP_X 32        /* 32 x 8 threads */
#define TP_Y 8
#define TP_PAD 1       /* rows of 65 floats: no bank conflicts */

static __global__ void __launch_bounds__(TP_X * TP_Y)
transpose_tile64(const float *__restrict__ a, float *__restrict__ b,
		 size_t rows, size_t cols)
{
	__shared__ float t[TP_TILE][TP_TILE + TP_PAD];
	unsigned int x = threadIdx.x, y = threadIdx.y;
	size_t r0 = (size_t)blockIdx.y * TP_TILE;
	size_t c0 = (size_t)blockIdx.x * TP_TILE;

	/* Read: a[r0 + i][c0 + j] into t[i][j], i = y + 8 s, j = x + 32 h. */
#pragma unroll
	for (int s = 0; s < TP_TILE / TP_Y; s++)
#pragma unroll
		for (int h = 0; h < TP_TILE / TP_X; h++) {
			size_t r = r0 + y + s * TP_Y, c = c0 + x + h * TP_X;

			if (r < rows && c < cols)
				t[y + s * TP_Y][x + h * TP_X] = a[r * cols + c];
		}
	__syncthreads();
	/* Write: b[c0 + i][r0 + j] = t[j][i], i = y + 8 s, j = x + 32 h. */
#pragma unroll
	for (int s = 0; s < TP_TILE / TP_Y; s++)
#pragma unroll
		for (int h = 0; h < TP_TILE / TP_X; h++) {
			size_t br = c0 + y + s * TP_Y, bc = r0 + x + h * TP_X;

			if (br < cols && bc < rows)
				b[br * rows + bc] =
					t[x + h * TP_X][y + s * TP_Y];
		}
}

void transpose(const float *a, float *b, size_t rows, size_t cols)
{
	dim3 grid((unsigned int)wb_ceil_div(cols, TP_TILE),
		  (unsigned int)wb_ceil_div(rows, TP_TILE));

	transpose_tile64<<<grid, dim3(TP_X, TP_Y)>>>(a, b, rows, cols);
	CUDA_CHECK_LAUNCH();
}
