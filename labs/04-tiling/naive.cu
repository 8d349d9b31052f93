/* SPDX-License-Identifier: MIT */
/*
 * naive.cu - the naive references the grader times the submissions against.
 *
 * Each is the first kernel one writes: one thread per output element (or a
 * few), global memory read directly, no shared memory. None is slowed down
 * on purpose; each is slow for the reason the lab is about:
 *
 *   transpose  reads rows (coalesced) and writes columns: each warp's
 *              store touches 32 different 32-byte sectors
 *   matmul     every thread reads a whole row of a and a whole column of b:
 *              2k loads per 2k flops, with no reuse other than the caches'
 */
#include "tiling.h"

/* ---- transpose: coalesced reads, strided writes ---- */

#define NT_TILE 32 /* a block covers a 32 x 32 piece of a */
#define NT_ROWS 8  /* of 32 x 8 threads: four rows each */

/*
 * The layout of NVIDIA's transpose examples, without shared memory: thread
 * (x, y) copies a[r][c] to b[c][r] for r = y, y + 8, y + 16, y + 24 of the
 * block's 32 rows. A warp (fixed y, x = 0..31) reads 32 neighbours of one
 * row of a (128 bytes) and writes them down one column of b, 4 * rows
 * bytes apart.
 */
static __global__ void naive_transpose_kernel(const float *a, float *b,
					      size_t rows, size_t cols)
{
	size_t c = (size_t)blockIdx.x * NT_TILE + threadIdx.x;
	size_t r0 = (size_t)blockIdx.y * NT_TILE + threadIdx.y;

	if (c >= cols)
		return;
#pragma unroll
	for (int j = 0; j < NT_TILE; j += NT_ROWS)
		if (r0 + j < rows)
			b[c * rows + r0 + j] = a[(r0 + j) * cols + c];
}

void naive_transpose(const float *a, float *b, size_t rows, size_t cols)
{
	dim3 grid((unsigned int)wb_ceil_div(cols, NT_TILE),
		  (unsigned int)wb_ceil_div(rows, NT_TILE));

	naive_transpose_kernel<<<grid, dim3(NT_TILE, NT_ROWS)>>>(a, b, rows,
								  cols);
	CUDA_CHECK_LAUNCH();
}

/* ---- matmul: one thread per element of c ---- */

#define NM_BLOCK 16 /* 16 x 16 threads, as in the textbook and the seed */

/*
 * threadIdx.x walks the columns, so a warp (two rows of 16 threads) reads
 * 16 neighbouring floats of a row of b (coalesced) and one float of a per
 * row (a broadcast), and stores 16 neighbours of c. Each thread runs the
 * whole dot product of length k from global memory: the same row of a is
 * read by the n threads of its row, the same column of b by m threads,
 * and only L1 and L2 stand between that and DRAM.
 */
static __global__ void naive_matmul_kernel(const float *a, const float *b,
					   float *c, size_t m, size_t k,
					   size_t n)
{
	size_t col = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t row = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
	const float *ar = a + row * k;
	float acc = 0.0f;

	if (row >= m || col >= n)
		return;
	for (size_t p = 0; p < k; p++)
		acc += ar[p] * b[p * n + col];
	c[row * n + col] = acc;
}

void naive_matmul(const float *a, const float *b, float *c, size_t m,
		  size_t k, size_t n)
{
	dim3 grid((unsigned int)wb_ceil_div(n, NM_BLOCK),
		  (unsigned int)wb_ceil_div(m, NM_BLOCK));

	naive_matmul_kernel<<<grid, dim3(NM_BLOCK, NM_BLOCK)>>>(a, b, c, m, k,
								 n);
	CUDA_CHECK_LAUNCH();
}
