/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 2: matmul                     (you edit this file only)
 *
 * Task: multiply two float32 matrices:
 *
 *     c[i][j] = sum over p < k of a[i][p] * b[p][j]
 *
 * a is m x k, b is k x n, c is m x n, all row-major. 2 m n k flops: at
 * 4096^3, 137 GFLOP, far more arithmetic than memory traffic, so this
 * kernel can be compute-bound; the naive (one thread per element of c,
 * all operands from global memory) is not even close.
 *
 * Contract
 *   a, b  device pointers, read only. c: device pointer, poisoned (NaN)
 *         on entry. All 256-byte aligned; rows start 16-byte aligned only
 *         when their length is a multiple of 4 (k for a, n for b and c).
 *   Any m, k, n from 1 to 10^6, each matrix below 2^31 elements; most
 *   are not multiples of your tile, and k need not be a multiple of 4.
 *   Compute in float32 with CUDA cores: no cuBLAS or other library GEMM,
 *   no tensor cores (wmma, mma, wgmma), no TF32. Launch on the default
 *   stream. Tolerance: 5e-6 x sum_p |a[i][p] b[p][j]| per element (any
 *   float32 summation order passes; TF32 does not).
 *
 * Hint, in two steps. (1) Tiles: a block loads a tile of a and a tile of
 * b into shared memory, __syncthreads(), accumulates, __syncthreads()
 * again (why both? the README says), and moves along k: every global
 * load is then used by a whole tile of threads. (2) Register blocking:
 * that alone is limited by shared memory's bandwidth (two shared loads
 * per multiply-add), so let each thread compute a small block of c (4 x 4,
 * then 8 x 8) from values it holds in registers: 8 loaded values feed 16
 * multiply-adds, 16 feed 64. The report shows your TFLOP/s against
 * cuBLAS's in the same run.
 */
#include "tiling.h"

/* ---- your kernels: about 80 lines ---- */


void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	(void)a, (void)b, (void)c, (void)m, (void)k, (void)n;

	/* ---- your launch: about 8 lines; then delete the line below ---- */
	WB_TODO("write matmul's tiled kernel and launch it");
}
