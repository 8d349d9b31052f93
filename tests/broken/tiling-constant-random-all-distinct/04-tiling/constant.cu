/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a random lookup taken as a read of all different
 * entries, one pass per lane; lanes do collide (32 lanes over a 256-entry
 * table expect 30.1 distinct entries). Expected verdict: WRONG.
 */
#include "tiling.h"

/* How many different values among v[0 .. n-1] (n <= 32). */
static int distinct(const long long *v, int n)
{
	int count = 0;

	for (int i = 0; i < n; i++) {
		int seen = 0;

		for (int j = 0; j < i && !seen; j++)
			seen = v[j] == v[i];
		count += !seen;
	}
	return count;
}

void constant_passes(const struct const_read *r, struct const_pred *p)
{
	long long elem[32], sector[32];
	double miss = 1;

	for (int t = 0; t < r->lanes; t++) {
		long long e = (r->base + (long long)(t / r->group) * r->step) %
			      r->entries;

		if (e < 0)
			e += r->entries; /* C's remainder keeps the sign */
		elem[t] = e;
		sector[t] = e * 4 / 32;
	}
	p->passes = distinct(elem, r->lanes);
	p->sectors = distinct(sector, r->lanes);
	(void)miss;
	p->random_passes = r->lanes < r->entries ? r->lanes : r->entries;
}
