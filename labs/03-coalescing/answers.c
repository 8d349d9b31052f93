/* SPDX-License-Identifier: MIT */
/*
 * answers.c - lab 03's answer key: the rule its host exercise `sectors`
 * is graded against. It computes exactly what the exercise asks a
 * student to write, so it is the instructor's copy only:
 *
 *   - lab.mk names it (ANSWERS) and links it into the lab where it is;
 *   - tools/handout.sh leaves every file a lab.mk names in ANSWERS out of
 *     the student handout, and tools/handout-check.sh fails a handout
 *     that holds this file, its code, or a definition of a function it
 *     defines;
 *   - without it (the handout), lab.c grades `sectors` by the worked
 *     cases in sectors_worked.h and by properties of the rule, not by
 *     the rule itself (docs/grading.md, "Prediction exercises").
 *
 * lab.c defines sectors_rule, a pointer to the rule, weak and NULL: the
 * definition at the end of this file replaces it with lab_sectors().
 * With it, every answer is checked against the rule, and so are the
 * worked cases (tools/worked-cases.sh writes them from this file).
 * Weak data, not a weak reference: the grader takes a lab object's
 * weak references for the exercises' entry points (grader/inspect/inspect.sh),
 * which a submission may define.
 */
#include "coalescing.h"

/*
 * The lab's rule: a request costs every 32-byte sector that holds a byte
 * some active lane reads, each once however many lanes share it. An
 * aligned element of up to 16 bytes never straddles two sectors, but the
 * rule does not rely on that: first and last byte are both counted.
 */
static int lab_sectors(const struct warp_load *w)
{
	long long seen[2 * 32];
	int n = 0;

	for (int t = 0; t < w->lanes; t++) {
		long long a = w->addr + t * w->stride * w->elem_bytes;
		long long ends[2] = { a / SECTOR_BYTES,
				      (a + w->elem_bytes - 1) / SECTOR_BYTES };

		for (int e = 0; e < 2; e++) {
			int k = 0;

			while (k < n && seen[k] != ends[e])
				k++;
			if (k == n)
				seen[n++] = ends[e];
		}
	}
	return n;
}

/*
 * inflight's rule, Little's law as the README (section 17) states it: to
 * sustain a bandwidth B with a latency L, B L bytes must be in flight
 * (GB/s x ns = bytes); each SM's share of them over its resident
 * threads, in whole loads, is what each thread must keep in flight; a
 * kernel that keeps fewer reaches only the bytes it has in flight over
 * the latency.
 */
static void lab_inflight(const struct mem_system *s, struct inflight_pred *p)
{
	double per_thread, rate;

	p->need_bytes = s->latency_ns * s->bw_gbps;
	p->need_per_sm = p->need_bytes / s->sms;
	per_thread = p->need_per_sm / s->threads_per_sm / s->load_bytes;
	p->need_loads = (int)per_thread;
	if (p->need_loads < per_thread)
		p->need_loads++; /* whole loads: rounded up */
	p->have_bytes = (double)s->sms * s->threads_per_sm * s->load_bytes *
			s->loads_in_flight;
	rate = p->have_bytes / s->latency_ns;
	p->gbps = rate < s->bw_gbps ? rate : s->bw_gbps;
}

void (*inflight_rule)(const struct mem_system *s,
		      struct inflight_pred *p) = lab_inflight;

/* What lab.c calls: its weak, empty sectors_rule is replaced by this one. */
int (*sectors_rule)(const struct warp_load *w) = lab_sectors;
