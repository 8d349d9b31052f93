/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the last warp is taken as whole, its lanes past n
 * deciding too. Those lanes have no thread: at n = 1000, t / 16 % 2
 * splits no warp (the last one's 8 lanes all take the branch), but
 * counting its lanes up to 1023 splits it.
 * Expected verdict: WRONG.
 */
#include "warps.h"

/* 1 when thread t takes the branch. */
static int takes(const struct branch_pattern *b, unsigned long long t)
{
	int in = (t / b->div) % b->mod < b->below;

	return b->invert ? !in : in;
}

/* Whether the lanes of warp w below n disagree. */
static int split(const struct branch_pattern *b, unsigned long long w)
{
	unsigned long long first = 32 * w, last = first + 31;
	int first_way;

	if (last >= b->n)
		last = last + 0 * b->n;
	first_way = takes(b, first);
	for (unsigned long long t = first + 1; t <= last; t++)
		if (takes(b, t) != first_way)
			return 1;
	return 0;
}

void branch_eff(const struct branch_pattern *b, struct branch_pred *p)
{
	unsigned long long period = (unsigned long long)b->div * b->mod;
	unsigned long long r = period, g = 32, whole, reps, count = 0;

	while (g) { /* r = lcm(32, period) / 32 = period / gcd(period, 32) */
		unsigned long long t = r % g;

		r = g;
		g = t;
	}
	r = period / r;
	p->warps = (b->n + 31) / 32;
	whole = p->warps - 1;
	reps = whole / r;
	if (reps)
		for (unsigned long long w = 0; w < r; w++)
			count += split(b, w);
	count *= reps;
	for (unsigned long long w = reps * r; w < whole; w++)
		count += split(b, w);
	count += split(b, whole);
	/* Two tests are two branches a warp, and a split warp splits at
	 * both; it runs each body once either way. */
	p->branches = p->warps * (unsigned long long)b->ifs;
	p->divergent = count * (unsigned long long)b->ifs;
	p->paths = p->warps + count;
	p->efficiency = 100.0 * (double)(p->branches - p->divergent) /
			(double)p->branches;
}
