/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 7: compare - a solution.
 *
 * Everything is a quotient of two recorded numbers; the one guard is a
 * zero denominator. A byte a nanosecond is 10^9 bytes a second: GB/s
 * needs no factor, and neither does GFLOP/s. ncu's dram_pct is the
 * bandwidth as a share of the peak, so the peak is the bandwidth over
 * that share. The roofline's x is the DRAM bytes this version moved,
 * not the task's: the same flops over more bytes sit further left.
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
				   pick(&p->v[0], f)) * 100;
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
