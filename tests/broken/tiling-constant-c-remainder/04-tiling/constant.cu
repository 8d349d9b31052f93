/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: C's % gives a negative remainder for a negative
 * sum, and the read is taken as it comes: a walk down a table counts
 * element -1 and element 15 of 16 as two addresses, and its sectors go
 * negative. Expected verdict: WRONG.
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

		elem[t] = e;
		sector[t] = e * 4 / 32;
	}
	p->passes = distinct(elem, r->lanes);
	p->sectors = distinct(sector, r->lanes);
	for (int t = 0; t < r->lanes; t++)
		miss *= 1.0 - 1.0 / r->entries;
	p->random_passes = r->entries * (1.0 - miss);
}
