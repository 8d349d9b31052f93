/* SPDX-License-Identifier: MIT */
/*
 * fusion.h - the entry points of lab 07 (kernel fusion).
 *
 * Four memory-bound operations that an eager framework runs as several
 * kernels, each writing its intermediate to global memory for the next to
 * read back. Each exercise file defines one of these host functions; the
 * grader calls it with device pointers (256-byte aligned, from cudaMalloc)
 * and waits for the device afterwards. Launch on the default stream and
 * choose grid, block and shared memory inside: everything launched counts
 * in the time. Matrices are row-major and contiguous: row r of a matrix
 * with `cols` columns starts at element r * cols, so rows are 16-byte
 * aligned only when cols % 4 == 0. Every array has fewer than 2^31
 * elements: no size the grader can check reaches 2^31 elements on the
 * GPUs students have; 32-bit element indices are enough.
 */
#ifndef FUSION_H
#define FUSION_H

#include <stddef.h>
#include "workbook.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * GeLU, tanh form, elementwise over n floats (1 <= n < 2^31):
 *     y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
 */
void gelu(const float *x, float *y, size_t n);

/*
 * y[r][c] = gelu(x[r][c] + b[c]); rows, cols >= 1, rows * cols < 2^31;
 * b has cols floats.
 */
void bias_gelu(const float *x, const float *b, float *y, size_t rows,
	       size_t cols);

/*
 * The residual add and RMSNorm of a transformer block, per row of hidden
 * floats (rows >= 1, 1 <= hidden <= 16384, rows * hidden < 2^31,
 * eps > 0):
 *     h = x + residual, written back into residual (in place)
 *     y = h / sqrt(mean(h^2) + eps) * w
 */
void add_rmsnorm(const float *x, float *residual, const float *w, float *y,
		 size_t rows, size_t hidden, float eps);

/*
 * Row softmax, numerically stable; rows, cols >= 1, rows * cols < 2^31;
 * x finite:
 *     y[r][c] = exp(x[r][c] - m) / sum_j exp(x[r][j] - m),  m = max_j x[r][j]
 */
void softmax(const float *x, float *y, size_t rows, size_t cols);

/*
 * The naive references the grader times against (naive.cu): the eager
 * kernel sequences, one kernel per operation.
 */
void naive_gelu(const float *x, float *y, size_t n);
void naive_bias_gelu(const float *x, const float *b, float *y, size_t rows,
		     size_t cols);
void naive_add_rmsnorm(const float *x, float *residual, const float *w,
		       float *y, size_t rows, size_t hidden, float eps);
void naive_softmax(const float *x, float *y, size_t rows, size_t cols);

#ifdef __cplusplus
}
#endif

#endif /* FUSION_H */
