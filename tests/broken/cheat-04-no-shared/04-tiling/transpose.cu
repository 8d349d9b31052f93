/* SPDX-License-Identifier: MIT */
/*
 * Against the rules on purpose: a transpose without the shared-memory
 * tile the lab teaches. Each thread copies four elements, reading a row
 * of a coalesced and writing b strided, the naive's own pattern. It is
 * correct; the technique check finds no shared memory in its PTX.
 * Expected verdict: PASS with the correctness points only (technique
 * failed: whatever its speed, the performance points are withheld).
 */
#include "tiling.h"

#define TILE 32
#define ROWS 8

static __global__ void transpose_direct(const float *a, float *b,
					size_t rows, size_t cols)
{
	size_t c = (size_t)blockIdx.x * TILE + threadIdx.x;
	size_t r0 = (size_t)blockIdx.y * TILE + threadIdx.y;

	if (c >= cols)
		return;
	for (int j = 0; j < TILE; j += ROWS)
		if (r0 + j < rows)
			b[c * rows + r0 + j] = a[(r0 + j) * cols + c];
}

void transpose(const float *a, float *b, size_t rows, size_t cols)
{
	dim3 grid((unsigned int)wb_ceil_div(cols, TILE),
		  (unsigned int)wb_ceil_div(rows, TILE));

	transpose_direct<<<grid, dim3(TILE, ROWS)>>>(a, b, rows, cols);
	CUDA_CHECK_LAUNCH();
}
