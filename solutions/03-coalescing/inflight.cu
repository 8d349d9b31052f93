/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 6: inflight - a solution.
 *
 * Little's law: what is in flight is what arrives per unit of time times
 * how long each piece travels. ns x GB/s is bytes, and bytes per ns is
 * GB/s, so no unit needs converting.
 */
#include "coalescing.h"

void inflight(const struct mem_system *s, struct inflight_pred *p)
{
	double per_load, kept_rate;
	int loads = 1;

	p->need_bytes = s->bw_gbps * s->latency_ns;
	p->need_per_sm = p->need_bytes / s->sms;
	/* Each thread's share, counted in loads: round up. */
	per_load = p->need_per_sm / ((double)s->threads_per_sm * s->load_bytes);
	while (loads < per_load)
		loads++;
	p->need_loads = loads;
	p->have_bytes = (double)s->loads_in_flight * s->load_bytes *
			s->threads_per_sm * s->sms;
	kept_rate = p->have_bytes / s->latency_ns;
	p->gbps = kept_rate > s->bw_gbps ? s->bw_gbps : kept_rate;
}
