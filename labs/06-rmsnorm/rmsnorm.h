/* SPDX-License-Identifier: MIT */
/*
 * rmsnorm.h - the entry points of lab 06 (RMSNorm).
 *
 * For each of `rows` rows of `hidden` values (row-major, contiguous):
 *
 *     y[r][i] = x[r][i] / sqrt(mean_i(x[r][i]^2) + eps) * w[i]
 *
 * Host functions taking device pointers; choose grid, block and shared
 * memory inside. Everything launched counts in the time.
 *
 * rows * hidden < 2^31: no size the grader can check reaches 2^31
 * elements on the GPUs students have; 32-bit element indices are enough.
 * Rows may be all zeros, or tiny (1e-20), where eps alone keeps y finite
 * and right.
 */
#ifndef RMSNORM_H
#define RMSNORM_H

#include <stddef.h>
#include <stdint.h>
#include "workbook.h"

/*
 * A bfloat16 as its 16 raw bits, so that this header is plain C. In a .cu
 * file, cast the pointer: (const __nv_bfloat16 *)x (from <cuda_bf16.h>).
 */
typedef uint16_t bf16_bits;

#ifdef __cplusplus
extern "C" {
#endif

/* float32 in, float32 out; 1 <= hidden <= 16384, rows >= 1. */
void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps);

/* bfloat16 in and out, float32 arithmetic inside. */
void rmsnorm_bf16(const bf16_bits *x, const bf16_bits *w, bf16_bits *y,
		  size_t rows, size_t hidden, float eps);

/* The naive references (naive.cu): one thread per row. */
void naive_rmsnorm(const float *x, const float *w, float *y, size_t rows,
		   size_t hidden, float eps);
void naive_rmsnorm_bf16(const bf16_bits *x, const bf16_bits *w, bf16_bits *y,
			size_t rows, size_t hidden, float eps);

#ifdef __cplusplus
}
#endif

#endif /* RMSNORM_H */
