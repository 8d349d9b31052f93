/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the solution's count, with the stride read as bytes
 * rather than elements. Lane t of a float load then sits 4 times too
 * close to lane 0: consecutive floats look like 32 bytes in 1 sector,
 * a row n floats apart like n bytes apart.
 * Expected verdict: WRONG in every group. The warp-per-row matvec's
 * coalesced loads: "you said 2, expected 4: bytes 0..127 span sectors
 * 0..3, all touched" (lanes 1 byte apart, 4 bytes each, reach byte 34
 * only); byte loads, as the naive grayscale's, pass.
 */
#include "coalescing.h"

static int add_sector(long long *seen, int n, long long s)
{
	for (int k = 0; k < n; k++)
		if (seen[k] == s)
			return n;
	seen[n] = s;
	return n + 1;
}

int sectors_per_request(const struct warp_load *w)
{
	long long seen[2 * 32];
	int n = 0;

	for (int t = 0; t < w->lanes; t++) {
		long long a = w->addr + t * w->stride;

		n = add_sector(seen, n, a / SECTOR_BYTES);
		n = add_sector(seen, n, (a + w->elem_bytes - 1) / SECTOR_BYTES);
	}
	return n;
}
