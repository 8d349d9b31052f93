/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the tiles are counted by m / tile_m and n / tile_n,
 * rounded down, so a partial tile at the edge loads nothing. Right where
 * tiles divide the matrix (4096^3), wrong at 1000 x 1001 x 999 and
 * wherever a tile is wider than the matrix (0 tiles, nothing loaded).
 * Expected verdict: WRONG.
 */
#include "tiling.h"

static unsigned long long ceil_div(unsigned long long x,
				   unsigned long long y)
{
	return x / y;
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
