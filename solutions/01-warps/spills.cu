/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 6: spills - a solution.
 *
 * The register file is allocated a warp at a time, so a block of 100
 * threads costs what 128 do; each thread's share is then rounded down
 * to the 8-register unit, and 255 is the most any thread may address.
 */
#include "warps.h"

void spills(const struct reg_kernel *k, struct reg_pred *p)
{
	int warps = (k->max_threads + 31) / 32;
	int resident = (k->min_blocks > 0 ? k->min_blocks : 1) * warps * 32;
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
