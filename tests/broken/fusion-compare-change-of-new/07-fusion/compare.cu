/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: each figure's change taken as a share of the new
 * version's value, not of the baseline's, as ncu's baseline column
 * shows it. Expected verdict: WRONG.
 */
#include "fusion.h"

static double per(double num, double den)
{
	return den != 0 ? num / den : 0;
}

static double pick(const struct cmp_version *v, int f)
{
	const double all[CMP_NFIGURES] = {
		v->time_ns, v->dram_bytes, v->dram_pct, v->sm_pct, v->l2_pct,
	};

	return all[f];
}

void compare(const struct cmp_pair *p, struct cmp_answer *a)
{
	int quick;

	a->speedup = per(p->v[0].time_ns, p->v[1].time_ns);
	for (int f = 0; f < CMP_NFIGURES; f++)
		a->change[f] = per(pick(&p->v[1], f) - pick(&p->v[0], f),
				   pick(&p->v[1], f)) * 100;
	for (int k = 0; k < 2; k++) {
		a->side[k].gbps = per(p->v[k].dram_bytes, p->v[k].time_ns);
		a->side[k].peak_gbps = per(a->side[k].gbps,
					   p->v[k].dram_pct / 100);
		a->side[k].intensity = per(p->flops, p->v[k].dram_bytes);
		a->side[k].gflops = per(p->flops, p->v[k].time_ns);
	}
	quick = p->v[1].time_ns < p->v[0].time_ns ? 1 : 0;
	/* left by more than ncu's run-to-run noise: a tenth */
	a->faster_left = a->side[quick].intensity <
			 0.9 * a->side[1 - quick].intensity;
}
