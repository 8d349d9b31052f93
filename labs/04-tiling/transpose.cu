/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 1: transpose                  (you edit this file only)
 *
 * Task: write the transpose of a rows x cols matrix, as fast as the memory
 * allows:
 *
 *     b[c][r] = a[r][c]      for every r < rows, c < cols
 *
 * Contract
 *   a     device pointer, rows x cols floats, row-major, read only.
 *   b     device pointer, cols x rows floats, row-major; poisoned (NaN) on
 *         entry, every element must be written. Both are 256-byte
 *         aligned; rows start 16-byte aligned only when the row length is
 *         a multiple of 4.
 *   Any rows, cols from 1 to 10^6 (rows x cols < 2^31): most sizes are
 *   not multiples of your tile. Launch on the default stream; no
 *   libraries (cuBLAS's geam is the peer you are compared with). The
 *   check is exact: a transpose moves bits, it computes nothing.
 *
 * Hint: the naive (naive.cu) reads rows and writes columns, so every
 * warp's store lands in 32 different sectors. Stage a tile in shared
 * memory (32 x 32 floats is 4 KiB), so that both the read of a and the
 * write of b go along rows, and only shared memory is read across the
 * grain. Then count banks: a column of a 32 x 32 float tile sits in one
 * bank. Give each thread several elements, loads first. Speed of light:
 * 8 x rows x cols bytes at the copy bandwidth.
 */
#include "tiling.h"

/* ---- your kernel: about 30 lines ---- */


void transpose(const float *a, float *b, size_t rows, size_t cols)
{
	(void)a, (void)b, (void)rows, (void)cols;

	/* ---- your launch: about 5 lines; then delete the line below ---- */
	WB_TODO("write transpose's tiled kernel and launch it");
}
