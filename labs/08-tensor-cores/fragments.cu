/* SPDX-License-Identifier: MIT */
/*
 * Lab 08, warm-up: fragments                     (you edit this file only)
 *
 * Task: one tensor-core instruction per tile, by hand. For each tile t,
 *
 *     c[t][i][j] = sum over p < 16 of a[t][i][p] * b[t][p][j]
 *
 * a[t] is 16 x 16, b[t] 16 x 8 (bf16), c[t] 16 x 8 (float32), all
 * row-major, one tile after the other. One warp per tile: stage a[t] and
 * b[t] in shared memory, load the fragments with ldmatrix, multiply with
 * one mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32, store c.
 *
 * Contract
 *   a, b device pointers, read only; c poisoned (NaN) on entry; all
 *   256-byte aligned. 1 <= tiles <= 10^6. Must use ldmatrix and
 *   mma.sync.m16n8k16 in inline PTX (asm volatile), not WMMA. Launch on
 *   the default stream. Correctness only (not timed): tolerance 1e-4.
 *
 * The layouts (README, sections 3 and 4), with g = lane / 4, t = lane % 4:
 *   a: 4 registers, (g, 2t..2t+1), (g+8, ..), (g, 2t+8..2t+9), (g+8, ..);
 *      ldmatrix.x4: lane l points at row l % 16, column 8 * (l / 16)
 *   b: 2 registers, (k = 2t..2t+1, n = g), (k = 2t+8..2t+9, n = g); b is
 *      stored k-major, so ldmatrix.x2.trans, lane l (< 16) at row l
 *   c: 4 floats, (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)
 * ldmatrix wants shared-memory addresses: __cvta_generic_to_shared(p).
 */
#include <cuda_bf16.h>

#include "tensor_cores.h"

/* ---- your kernel: about 40 lines ---- */


void fragments(const bf16_bits *a, const bf16_bits *b, float *c, size_t tiles)
{
	(void)a, (void)b, (void)c, (void)tiles;

	/* ---- your launch: about 4 lines; then delete the line below ---- */
	WB_TODO("write the fragments kernel (ldmatrix, mma.sync) and launch it");
}
