/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the ideal taken for the answer. The bytes the lanes
 * ask for, rounded up to whole sectors, plus one when the first lane
 * does not start a sector: right for consecutive elements from any
 * alignment, blind to the stride.
 * Expected verdict: WRONG in every group. First the naive matvec's load
 * of A at 16384x8192: "you said 4, expected 32: bytes 0..1015811 span
 * sectors 0..31744, but lanes 32768 bytes apart skip 31713 of them";
 * then its load of x, a broadcast: 4 where 1 sector is fetched.
 */
#include "coalescing.h"

int sectors_per_request(const struct warp_load *w)
{
	long long bytes = (long long)w->lanes * w->elem_bytes;

	return (int)((bytes + SECTOR_BYTES - 1) / SECTOR_BYTES) +
	       (w->addr % SECTOR_BYTES != 0);
}
