/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the solution's count, but over all 32 lanes, as if
 * every warp were full. A warp at the end of a row or of an array has
 * fewer active lanes, and their loads touch fewer sectors.
 * Expected verdict: WRONG in the groups of the lab's kernels, whose last
 * warps are partial (first the 1x1 matvec's one lane: "you said 4,
 * expected 1"), and in partial warps, negative strides and random;
 * struct fields and offsets, full warps only, pass.
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

	for (int t = 0; t < 32; t++) {
		long long a = w->addr + t * w->stride * w->elem_bytes;

		n = add_sector(seen, n, a / SECTOR_BYTES);
		n = add_sector(seen, n, (a + w->elem_bytes - 1) / SECTOR_BYTES);
	}
	return n;
}
