/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 4: softmax                    (you edit this file only)
 *
 * Task: the softmax of every row, in one kernel:
 *
 *     m       = max_j x[r][j]
 *     y[r][c] = exp(x[r][c] - m) / sum_j exp(x[r][j] - m)
 *
 * Subtracting m changes nothing mathematically, but without it exp()
 * overflows: the inputs lie in [-100, 100], and expf is inf above 88.7.
 * The naive reference (naive.cu) runs three kernels: the row maxima; y =
 * exp(x - m) with the row sums; then y /= sum. That is 5 passes over
 * memory (x twice, y written twice and read once) where 2 suffice.
 *
 * Contract
 *   x, y  device pointers to rows x cols floats, row-major, contiguous;
 *         x is read only and finite, y is poisoned (NaN) on entry. The
 *         base pointers are 256-byte aligned; row r starts at r * cols
 *         floats, so rows are 16-byte aligned only when cols % 4 == 0.
 *   Any rows, cols >= 1 with rows * cols < 2^31. Rows may be all very
 *   negative, or hold one spike far above the rest, anywhere.
 *   Launch on the default stream. CUB's block and warp primitives are
 *   allowed. Tolerance: 1e-9 + 1e-5 * |expected| (expf or __expf both
 *   pass; probabilities below 1e-9 may come out as 0).
 *
 * Hint: read x once and write y once. A row of 4096 floats is 16 KiB: a
 * block can hold its part of the row in registers (a few float4 per
 * thread) while it finds the maximum and then the sum, each a block-wide
 * reduction, and only then write y. (Or keep a running maximum and
 * rescale the running sum when it grows: the "online" softmax.)
 */
#include "fusion.h"

/* ---- your kernel: about 60 lines ---- */


void softmax(const float *x, float *y, size_t rows, size_t cols)
{
	(void)x, (void)y, (void)rows, (void)cols;

	/* ---- your launch: about 8 lines; then delete the line below ---- */
	WB_TODO("write softmax's fused kernel and launch it");
}
