/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 4: sectors                    (you edit this file only)
 *
 * Task: predict what Nsight Compute will count for one warp-wide load:
 * the number of 32-byte sectors its request touches (the numerator of
 * "sectors per request"). Plain host C: no GPU, no CUDA call.
 *
 *     lane t (0 <= t < lanes) reads the elem_bytes bytes at
 *         addr + t * stride * elem_bytes
 *     byte b lies in sector b / 32 (integer division)
 *     sectors = how many different sectors hold a byte some lane reads
 *
 * A sector is counted once however many lanes share it, and a sector no
 * active lane reads is not counted even when lanes on both sides of it
 * are.
 *
 * Contract
 *   w->elem_bytes  1, 2, 4, 8 or 16.
 *   w->addr        >= 0, a multiple of elem_bytes.
 *   w->stride      in elements; 0 (all lanes one address), positive, or
 *                  negative (lanes walk down); no lane's address is < 0.
 *   w->lanes       1 to 32 active lanes, 0 .. lanes-1.
 *   Return the number of sectors, 1 to 32. SECTOR_BYTES (coalescing.h)
 *   is 32.
 *
 * Hint: the loads you are asked about are those of this lab's kernels at
 * the sizes the grader runs them (the naive matvec's a[(r0 + t) n + j]
 * and x[j], a warp per row, the naive and the coalesced mean_dim0,
 * grayscale's 1-, 4- and 16-byte loads), then struct fields, every
 * alignment, partial warps, negative strides and random loads. A closed
 * form for one case (bytes / 32, +1 when misaligned) fails another;
 * counting is safe. The report prints, for each of the lab's kernels,
 * the average your answers give: what `make profile` measures.
 */
#include "coalescing.h"

/* ---- your helpers, if any ---- */


int sectors_per_request(const struct warp_load *w)
{
	(void)w;

	/* ---- the rule: about 15 lines; then delete the line below ---- */
	WB_TODO("write sectors_per_request");
	return 0;
}
