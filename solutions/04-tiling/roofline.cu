/* SPDX-License-Identifier: MIT */
/*
 * Lab 04, exercise 3: roofline - a solution.
 *
 * Matrix by matrix. The blocks form a grid of ceil(m / tile_m) rows by
 * ceil(n / tile_n) columns of tiles. A row of a is needed by every tile
 * of its block row: it is loaded once per column of tiles. A column of b
 * likewise once per row of tiles. c is stored once. Whole numbers stay
 * integers until the ratios, so the counts are exact.
 */
#include "tiling.h"

static unsigned long long ceil_div(unsigned long long x,
				   unsigned long long y)
{
	return (x + y - 1) / y;
}

/* Floats a kernel loads and stores, by the rule above. */
static unsigned long long floats_moved(const struct roof_kernel *k)
{
	unsigned long long a_loads, b_loads;

	if (k->op == ROOF_TRANSPOSE)
		return 2 * k->m * k->n;
	a_loads = k->m * k->k * ceil_div(k->n, k->tile_n);
	b_loads = k->k * k->n * ceil_div(k->m, k->tile_m);
	return a_loads + b_loads + k->m * k->n;
}

void roofline(const struct roof_kernel *k, const struct roof_gpu *g,
	      struct roof_pred *p)
{
	double compute_s, memory_s;

	p->flops = k->op == ROOF_TRANSPOSE ? 0.0 :
		   2.0 * (double)(k->m * k->n * k->k);
	p->bytes = 4.0 * (double)floats_moved(k);
	p->intensity = p->flops / p->bytes;
	compute_s = p->flops / (g->peak_gflops * 1e9);
	memory_s = p->bytes / (g->bw_gbps * 1e9);
	p->compute_bound = compute_s > memory_s;
	p->time_us = 1e6 * (p->compute_bound ? compute_s : memory_s);
	p->gflops = p->flops / (p->time_us * 1e3);
}
