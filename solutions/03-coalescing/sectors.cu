/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 4: sectors - a solution.
 *
 * The sectors a warp's lanes touch, counted: each lane's first and last
 * byte give its sectors (an aligned element of up to 16 bytes lies in
 * one, but nothing here needs that), and a sector goes into the list
 * only if it is not there yet. At most 32 lanes, 2 sectors each: the
 * quadratic search is 2,000 comparisons at worst, and needs no sort.
 *
 * Why not a formula: the sectors between the lowest and the highest byte
 * (hi / 32 - lo / 32 + 1) are all touched only when lanes are at most 32
 * bytes apart; a stride of 12 bytes (n = 3 in the naive matvec) leaves
 * none out, one of 48 bytes (grayscale's uint4) skips every third, and a
 * stride of 32 bytes or more touches one per lane, 32 in all, however far
 * apart. Counting covers all of them, negative strides and partial warps
 * included.
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
		long long a = w->addr + t * w->stride * w->elem_bytes;

		n = add_sector(seen, n, a / SECTOR_BYTES);
		n = add_sector(seen, n, (a + w->elem_bytes - 1) / SECTOR_BYTES);
	}
	return n;
}
