/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 5: constant - a solution.
 *
 * At most 32 lanes: list each lane's element once, then count distinct
 * values with a small set. The constant cache serialises on addresses,
 * so the passes are the distinct elements; a global load moves sectors,
 * so the sectors are the distinct elements / 8 (4-byte elements, 32-byte
 * sectors, a 256-byte aligned table). The expected distinct entries of
 * `lanes` uniform draws: each entry is missed by every lane with chance
 * (1 - 1/entries)^lanes, and expectations add.
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
	for (int t = 0; t < r->lanes; t++)
		miss *= 1.0 - 1.0 / r->entries;
	p->random_passes = r->entries * (1.0 - miss);
}
