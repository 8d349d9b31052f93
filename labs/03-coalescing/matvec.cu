/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 1: matvec                     (you edit this file only)
 *
 * Task: multiply a row-major matrix by a vector, as fast as the memory
 * allows.
 *
 *     y[r] = a[r][0] * x[0] + a[r][1] * x[1] + ... + a[r][n-1] * x[n-1]
 *
 * Contract
 *   a     device pointer to m x n floats, row-major (row r starts at
 *         a + r * n), read only. The base is 256-byte aligned; row r is
 *         16-byte aligned only when n % 4 == 0.
 *   x     device pointer to n floats, 256-byte aligned, read only.
 *   y     device pointer to m floats, poisoned (NaN) on entry.
 *   m, n >= 1, m * n < 2^31: any shape, n not necessarily a multiple of
 *   4 or of 32. Launch on the default stream; no cuBLAS or other library
 *   matrix-vector product. Tolerance per row: 1e-5 * sum_j |a[r][j] x[j]|.
 *
 * Hint: the speed of light is one read of A (4mn bytes at your GPU's
 * bandwidth); x is small and stays in cache. The naive gives each row to
 * one thread, so the 32 lanes of a warp read 32 different rows. Give a
 * row to a warp instead, with neighbouring lanes reading neighbouring
 * elements, 16 bytes at a time where the rows are 16-byte aligned, and
 * add the 32 partial sums with warp shuffles. Benchmark: 16384 x 8192.
 */
#include "coalescing.h"

/* ---- your kernels: about 40 lines (a float4 one and a scalar one) ---- */


void matvec(const float *a, const float *x, float *y, size_t m, size_t n)
{
	(void)a, (void)x, (void)y, (void)m, (void)n;

	/* ---- your launch: about 8 lines; then delete the line below ---- */
	WB_TODO("write matvec's kernels and launch them");
}
