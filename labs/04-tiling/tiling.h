/* SPDX-License-Identifier: MIT */
/*
 * tiling.h - the entry points of lab 04 (shared-memory tiling).
 *
 * Two kernels whose threads need each other's data: a transpose (every
 * element changes place) and a matrix multiply (every input is used many
 * times). Each exercise file defines one of these host functions; the
 * grader calls it with device pointers (256-byte aligned, from cudaMalloc)
 * and waits for the device afterwards. Launch on the default stream and choose grid,
 * block and shared memory inside: everything launched counts in the time.
 *
 * Matrices are row-major and contiguous: row r of a matrix with `cols`
 * columns starts at element r * cols, so rows are 16-byte aligned only
 * when cols % 4 == 0. Every extent is between 1 and 1,000,000 and every
 * matrix has fewer than 2^31 elements.
 */
#ifndef TILING_H
#define TILING_H

#include <stddef.h>
#include "workbook.h"

#ifdef __cplusplus
extern "C" {
#endif

/* b = a^T: a is rows x cols, b is cols x rows; b[c][r] = a[r][c]. */
void transpose(const float *a, float *b, size_t rows, size_t cols);

/*
 * c = a b in float32: a is m x k, b is k x n, c is m x n;
 *     c[i][j] = sum over p < k of a[i][p] * b[p][j].
 * No cuBLAS (or other library GEMM), no tensor cores, no TF32.
 */
void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n);

/* The naive references the grader times against (naive.cu). */
void naive_transpose(const float *a, float *b, size_t rows, size_t cols);
void naive_matmul(const float *a, const float *b, float *c, size_t m,
		  size_t k, size_t n);

/*
 * Library peers (peers.cu), cuBLAS: cublasSgeam for the transpose and
 * cublasSgemm in fp32 with pedantic math (no TF32) for the multiply.
 * make bench shows both; matmul's is also timed when grading, so the
 * report gives your TFLOP/s as a share of cuBLAS's, measured in the same
 * run. Not for students to call.
 */
void peer_transpose(const float *a, float *b, size_t rows, size_t cols);
void peer_matmul(const float *a, const float *b, float *c, size_t m,
		 size_t k, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* TILING_H */
