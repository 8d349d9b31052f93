/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 2: branch                     (you edit this file only)
 *
 * Task: the same results as the naive kernel, without its divergence.
 *
 *     out[i] = branch_a(in[i])  if i is even
 *     out[i] = branch_b(in[i])  if i is odd
 *
 * branch_a and branch_b (warps.h) are 32 rounds of dependent integer
 * arithmetic each, ~100 instructions. The naive reference (naive.cu) gives
 * element i to thread i, so every warp holds 16 lanes of each kind and
 * runs both chains one after the other, each with half its lanes idle.
 *
 * Contract
 *   in    device pointer, n unsigned ints, 256-byte aligned, read only.
 *         Any n with 1 <= n < 2^31: odd, not a multiple of 32 or of 4.
 *   out   device pointer, n unsigned ints, poisoned on entry: write every
 *         element. Results must match exactly (integer arithmetic).
 *   Use branch_a and branch_b as they are (no tables, no precomputed
 *   results). Launch on the default stream; everything you launch counts.
 *
 * Hint: which element a thread handles is yours to choose. Map threads to
 * elements so that all 32 lanes of a warp take the same side (warp w of
 * a pair takes the even elements, the other the odd ones), or give each
 * thread both an even and an odd element. The arithmetic then runs once
 * per element instead of twice per warp: up to 2x. Mind the tail when n
 * is not a multiple of what a warp (or a thread) covers.
 */
#include "warps.h"

/* ---- your kernel: about 20 lines ---- */


void branch(const unsigned int *in, unsigned int *out, size_t n)
{
	(void)in, (void)out, (void)n;

	/* ---- your launch: about 5 lines; then delete the line below ---- */
	WB_TODO("write branch's kernel and launch it");
}
