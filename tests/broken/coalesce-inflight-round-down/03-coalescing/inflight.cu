/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: each thread's share of the bytes in flight is
 * counted in loads rounded down, so a thread that needs 2.2 loads is
 * told 2, and the memory waits on the missing fifth.
 * Expected verdict: WRONG.
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
	while (loads + 1 <= per_load)
		loads++;
	p->need_loads = loads;
	p->have_bytes = (double)s->loads_in_flight * s->load_bytes *
			s->threads_per_sm * s->sms;
	kept_rate = p->have_bytes / s->latency_ns;
	p->gbps = kept_rate > s->bw_gbps ? s->bw_gbps : kept_rate;
}
