/* SPDX-License-Identifier: MIT */
/*
 * Lab 08, exercise 2: hgemm                      (you edit this file only)
 *
 * Task: multiply two bfloat16 matrices on the tensor cores, accumulating
 * and writing float32:
 *
 *     c[i][j] = sum over p < k of a[i][p] * b[p][j]
 *
 * a is m x k, b is k x n (bf16), c is m x n (float32), all row-major.
 * 2 m n k flops: 137 GFLOP at 4096^3. An H100's tensor cores do ~16 times
 * the CUDA cores' fp32 rate, so the arithmetic is cheap and feeding it is
 * the work: every byte from global memory must be reused from shared
 * memory and registers many times.
 *
 * Contract
 *   a, b  device pointers, read only. c: device pointer, poisoned (NaN)
 *         on entry. All 256-byte aligned; k and n are multiples of 8, so
 *         every row of a and of b starts 16-byte aligned; m is any.
 *   1 <= m, k, n <= 65536, each matrix below 2^31 elements; most are
 *   not multiples of your tiles. Use tensor-core instructions (mma.sync,
 *   wmma or wgmma); no cuBLAS or other library GEMM. Launch on the
 *   default stream. Tolerance: 1e-5 x the row's largest sum_p |a[i][p]
 *   b[p][j]| (float32 accumulation in any order passes; bf16 does not).
 *
 * The instruction (README): mma.sync.aligned.m16n8k16.row.col.f32.bf16.
 * bf16.f32 multiplies a 16 x 16 tile of a by a 16 x 8 tile of b into a
 * 16 x 8 tile of c, one warp at a time; each thread holds 4 registers of
 * a (8 bf16), 2 of b and 4 floats of c, in the layout the README draws.
 * ldmatrix.x4 loads the a fragment from shared memory in one instruction;
 * ldmatrix.x2.trans (or .x4.trans for two) the b fragment, since b is
 * stored k-major. Steps: (1) wmma from <mma.h> to see it work; (2) tiles
 * of a and b in shared memory, ldmatrix, mma.sync, a warp computing a
 * 64 x 32 block of c; (3) cp.async and a multi-stage pipeline so the
 * loads of tile t + 3 fly while tile t is multiplied; (4) swizzle the
 * shared rows (XOR the 16-byte column by the row) against bank conflicts.
 * Edges: cp.async's zero-fill (src-size 0) pads the tiles past m, n, k.
 */
#include <cuda_bf16.h>

#include "tensor_cores.h"

/* ---- your kernels: about 150 lines ---- */


void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	(void)a, (void)b, (void)c, (void)m, (void)k, (void)n;

	/* ---- your launch: about 10 lines; then delete the line below ---- */
	WB_TODO("write hgemm's tensor-core kernel and launch it");
}
