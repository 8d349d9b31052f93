/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 5: constant                   (you edit this file only)
 *
 * Task: predict what one warp-wide read of a __constant__ table costs
 * (README, section 13): the passes the constant cache makes for it, the
 * sectors the same read would touch as a global load, and the passes a
 * data-dependent lookup would cost on average. Plain host C: no GPU, no
 * CUDA call.
 *
 *     index(t)       (base + (t / group) * step) mod entries, for active
 *                    lanes t = 0 .. lanes-1: the remainder in
 *                    0 .. entries-1, negative sums included
 *     passes         one per distinct address the active lanes read: all
 *                    lanes on one address is a single pass, broadcast
 *     sectors        the distinct 32-byte sectors holding those elements
 *                    (4 bytes each, the table 256-byte aligned)
 *     random_passes  the passes expected were each active lane to read an
 *                    entry drawn uniformly and independently at random
 *
 * Contract
 *   r    struct const_read in tiling.h: group 1 to 32, entries 1 to
 *        16384, lanes 1 to 32, base 0 to 2^40, |step| < 2^40.
 *   Fill every field of *p: passes and sectors exactly, random_passes to
 *   1e-9 relative (1 - 1/entries rounds: a formula in another order
 *   differs by a few 1e-12).
 *
 * Hint: C's % keeps the sign of a negative dividend. For random_passes,
 * ask of each entry the chance that no lane picks it. The report prints
 * your passes and sectors for section 13's reads: a stencil's weights, a
 * table indexed by the lane, by the block, by the data.
 */
#include "tiling.h"

/* ---- your helpers, if any ---- */


void constant_passes(const struct const_read *r, struct const_pred *p)
{
	(void)r;
	p->passes = p->sectors = 0;
	p->random_passes = 0;

	/* ---- the lanes' indices, two counts and an expectation: about 20
	 * lines; then delete the line below ---- */
	WB_TODO("write constant_passes");
}
