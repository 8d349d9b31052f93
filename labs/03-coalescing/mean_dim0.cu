/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 2: mean_dim0                  (you edit this file only)
 *
 * Task: average a [k][l][m] tensor over its first dimension.
 *
 *     out[i][j] = (in[0][i][j] + in[1][i][j] + ... + in[k-1][i][j]) / k
 *
 * Contract
 *   in    device pointer to k * l * m floats, read only; in[p][i][j] is
 *         in[(p * l + i) * m + j]. 256-byte aligned; slice p starts at
 *         p * l * m floats, so slices are 16-byte aligned only when
 *         l * m % 4 == 0.
 *   out   device pointer to l * m floats ([l][m]), poisoned (NaN).
 *   k, l, m >= 1, k * l * m < 2^31; l may exceed 65535 (mind the grid's
 *   y and z limits). Launch on the default stream. Tolerance:
 *   1e-6 + 1e-5 * |expected|.
 *
 * Hint: the speed of light is one read of in (4klm bytes). The naive
 * gives each index i to one thread, which loops over j and p: lanes read
 * m floats apart, and only l threads exist. Count the sectors one
 * warp-wide load touches for your thread-to-element mapping: the fastest
 * changing thread index must walk the fastest changing memory index.
 * Benchmark: 64 x 1024 x 1024.
 */
#include "coalescing.h"

/* ---- your kernel: about 15 lines ---- */


void mean_dim0(const float *in, float *out, size_t k, size_t l, size_t m)
{
	(void)in, (void)out, (void)k, (void)l, (void)m;

	/* ---- your launch: about 4 lines; then delete the line below ---- */
	WB_TODO("write mean_dim0's kernel and launch it");
}
