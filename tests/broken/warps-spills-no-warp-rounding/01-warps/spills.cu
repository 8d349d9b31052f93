/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the block's threads are not counted in whole warps,
 * so a block of 100 threads is given the registers of 100, not of 128,
 * and the cap comes out too high: the blocks would not fit.
 * Expected verdict: WRONG.
 */
#include "warps.h"

void spills(const struct reg_kernel *k, struct reg_pred *p)
{
	int warps = (k->max_threads + 31) / 32;
	int resident = (k->min_blocks > 0 ? k->min_blocks : 1) *
		       k->max_threads + 0 * warps;
	int share = 65536 / resident;
	int extra;

	share -= share % 8;
	p->cap = share < 255 ? share : 255;
	extra = k->live_regs - p->cap;
	if (extra < 0)
		extra = 0;
	p->spills = extra != 0;
	p->local_bytes = 4 * extra + 4 * k->array_floats;
}
