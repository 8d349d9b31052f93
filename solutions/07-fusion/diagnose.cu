/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 6: diagnose - a solution.
 *
 * The figures first, each from its counters; then the bound from the two
 * throughputs; then the fixes in the order in which one hides the next,
 * as a table, each with the figure that shows it is due.
 */
#include "fusion.h"

static double ratio(double x, double y)
{
	return y > 0 ? x / y : 0;
}

/* Sectors per request over its ideal: its bytes in sectors, at least 1. */
static double excess(double sectors, double requests, double bytes)
{
	double ideal = ratio(bytes, requests) / 32;

	return ratio(sectors, requests) / (ideal < 1 ? 1 : ideal);
}

static double figure(const struct diag_report *r, enum diag_metric m)
{
	double ld = excess(r->ld_sectors, r->ld_requests, r->ld_bytes);
	double st = excess(r->st_sectors, r->st_requests, r->st_bytes);

	switch (m) {
	case DIAG_WAVES: return r->waves;
	case DIAG_SECTOR_EXCESS: return ld > st ? ld : st;
	case DIAG_TRAFFIC: return ratio(r->dram_bytes, r->min_bytes);
	case DIAG_BYTES_PER_FLOP: return ratio(r->ld_bytes, r->flops);
	case DIAG_CONFLICTS: return ratio(r->sh_conflicts, r->sh_wavefronts);
	case DIAG_BRANCH_EFF:
		return r->br_targets > 0 ?
		       100 * r->br_uniform / r->br_targets : 100;
	case DIAG_SM_PCT: return r->sm_pct;
	case DIAG_DRAM_PCT: return r->dram_pct;
	}
	return 0;
}

static const struct {
	enum diag_fix fix;
	enum diag_metric m;
	double limit;
	int when;    /* -1: below the limit; 0: at it or above; 1: above */
	int kernels; /* at least this many */
} fixes[] = {
	{ DIAG_FIX_GRID, DIAG_WAVES, 0.5, -1, 1 },
	{ DIAG_FIX_COALESCE, DIAG_SECTOR_EXCESS, 2.0, 1, 1 },
	{ DIAG_FIX_FUSE, DIAG_TRAFFIC, 1.5, 0, 2 },
	{ DIAG_FIX_TILE, DIAG_BYTES_PER_FLOP, 0.5, 0, 1 },
	{ DIAG_FIX_PAD, DIAG_CONFLICTS, 0.2, 0, 1 },
	{ DIAG_FIX_BRANCH, DIAG_BRANCH_EFF, 50.0, -1, 1 },
};

static int due(double v, double limit, int when)
{
	return when < 0 ? v < limit : when > 0 ? v > limit : v >= limit;
}

void diagnose(const struct diag_report *r, struct diag_answer *a)
{
	double top = r->dram_pct > r->sm_pct ? r->dram_pct : r->sm_pct;

	a->bound = top < 60 ? DIAG_LATENCY :
		   r->dram_pct >= r->sm_pct ? DIAG_MEMORY : DIAG_COMPUTE;
	for (unsigned i = 0; i < sizeof(fixes) / sizeof(fixes[0]); i++) {
		double v = figure(r, fixes[i].m);

		if (r->kernels < fixes[i].kernels ||
		    !due(v, fixes[i].limit, fixes[i].when))
			continue;
		a->fix = fixes[i].fix;
		a->metric = fixes[i].m;
		a->value = v;
		return;
	}
	a->fix = a->bound == DIAG_COMPUTE ? DIAG_FIX_FEWER_INSTR :
		 a->bound == DIAG_LATENCY ? DIAG_FIX_IN_FLIGHT : DIAG_FIX_NONE;
	a->metric = a->bound == DIAG_COMPUTE ? DIAG_SM_PCT : DIAG_DRAM_PCT;
	a->value = figure(r, a->metric);
}
