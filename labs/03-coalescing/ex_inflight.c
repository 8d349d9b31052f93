/* SPDX-License-Identifier: MIT */
/*
 * ex_inflight.c - lab 03's inflight (a host exercise): the memory systems
 * it asks about, the checks of its answers (the rule's where answers.c is
 * linked, the worked cases and properties where not) and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "coalescing.h"
#include "lab_hooks.h"

/* ---- inflight ---- */

/*
 * The lab's rule, where the instructor's copy has it (answers.c, as for
 * sectors); without it (the handout) the worked cases
 * (inflight_worked.h) are checked exactly, and every other answer by
 * what the rule implies (inflight_props(), the twin).
 */
__attribute__((weak)) void (*inflight_rule)(const struct mem_system *s,
					    struct inflight_pred *p);

#include "inflight_worked.h"

#define IF_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The GPUs of the README (section 17): an H100 SXM's data-sheet
 * bandwidth and a T4's, at the ~700 ns a loaded DRAM takes (lab 05). */
static const struct {
	const char *name;
	double latency_ns, bw_gbps;
	int sms;
} if_gpus[] = {
	{ "H100 SXM", 700, 3352, 132 },
	{ "T4", 700, 320, 40 },
};

/* The lab's kernels' loads: a thread per element with 4-byte loads
 * (matvec's and mean_dim0's naives), float4 loads, and four float4s in
 * flight (lab 05's sum solution); at full and at half occupancy. */
static const int if_kernels[][3] = {
	{ 2048, 4, 1 }, { 2048, 16, 1 }, { 2048, 16, 4 }, { 1024, 4, 1 },
	{ 1024, 16, 2 }, { 256, 4, 1 },
};

#define IF_MAX 600
#define IF_RANDOM_COUNT 500

struct if_case {
	struct mem_system s;
	int lab; /* 1: one of the README's GPUs and kernels */
};

static double if_abs(double x)
{
	return x < 0 ? -x : x;
}

/* Is the rule's loads per thread within 1e-9 of a whole number, or
 * the kernel's rate within 1e-9 of the bandwidth (either answer is a
 * rounding's choice)? Never without the rule: no drawn case then. */
static int if_near_edge(const struct mem_system *s)
{
	struct inflight_pred p;
	double loads, kept;

	if (!inflight_rule)
		return 0;
	inflight_rule(s, &p);
	loads = p.need_per_sm / s->threads_per_sm / s->load_bytes;
	kept = p.have_bytes / s->latency_ns;
	return if_abs(loads - (double)(long long)(loads + 0.5)) <=
		       1e-9 * loads ||
	       if_abs(kept - s->bw_gbps) <= 1e-9 * s->bw_gbps;
}

int lab03_inflight_setup(struct wb_ctx *c)
{
	static struct if_case scratch[2 * IF_MAX];
	struct if_case *in;
	int n = 0;

	switch (c->size->n[0]) {
	case IF_LAB:
		for (size_t g = 0; g < IF_COUNT(if_gpus); g++)
			for (size_t k = 0; k < IF_COUNT(if_kernels); k++) {
				struct if_case *x = &scratch[n++];

				memset(x, 0, sizeof(*x));
				x->s = (struct mem_system){
					if_gpus[g].latency_ns,
					if_gpus[g].bw_gbps, if_gpus[g].sms,
					if_kernels[k][0], if_kernels[k][1],
					if_kernels[k][2] };
				x->lab = 1;
			}
		break;
	case IF_WORKED:
		for (size_t i = 0; i < IF_COUNT(inflight_worked); i++) {
			memset(&scratch[n], 0, sizeof(scratch[n]));
			scratch[n++].s = inflight_worked[i].s;
		}
		break;
	default:
		while (n < IF_RANDOM_COUNT) {
			struct if_case *x = &scratch[n];

			memset(x, 0, sizeof(*x));
			x->s.latency_ns = 100 + (double)wb_rng_below(&c->rng,
								      1900);
			x->s.bw_gbps = 50 + (double)wb_rng_below(&c->rng, 9950);
			x->s.sms = 1 + (int)wb_rng_below(&c->rng, 256);
			x->s.threads_per_sm =
				32 * (1 + (int)wb_rng_below(&c->rng, 64));
			x->s.load_bytes = 1 << wb_rng_below(&c->rng, 5);
			x->s.loads_in_flight =
				1 + (int)wb_rng_below(&c->rng, 16);
			if (!if_near_edge(&x->s))
				n++;
		}
	}
	/* The twins: twice the latency at half the bandwidth. */
	for (int i = 0; i < n; i++) {
		scratch[n + i] = scratch[i];
		scratch[n + i].s.latency_ns *= 2;
		scratch[n + i].s.bw_gbps /= 2;
		scratch[n + i].lab = 0;
	}
	in = wb_input(c, "systems", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "predictions",
		  2 * (size_t)n * sizeof(struct inflight_pred));
	return 0;
}

enum { IF_CASES, IF_PREDS };

static size_t if_count(const struct wb_ctx *c)
{
	return c->buf[IF_CASES].bytes / sizeof(struct if_case) / 2;
}

int lab03_inflight_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct inflight_pred got[2 * IF_MAX];
	const struct if_case *in = c->buf[IF_CASES].host;
	size_t n = 2 * if_count(c);

	if (impl != WB_STUDENT || !inflight)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct mem_system s = in[i].s;

		memset(&got[i], 0xff, sizeof(got[i]));
		inflight(&s, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, IF_PREDS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

#define IF_RTOL 1e-12

static int if_near(double got, double want)
{
	return if_abs(got - want) <= IF_RTOL * if_abs(want);
}

static int if_agrees(const struct inflight_pred *a,
		     const struct inflight_pred *b)
{
	return a->need_loads == b->need_loads &&
	       if_near(a->need_bytes, b->need_bytes) &&
	       if_near(a->need_per_sm, b->need_per_sm) &&
	       if_near(a->have_bytes, b->have_bytes) &&
	       if_near(a->gbps, b->gbps);
}

/*
 * Without the rule: what the README's law implies of any right answer p
 * for s: the need per SM is the need over the SMs; the loads per thread
 * the fewest whole loads that carry a thread's share of it; the rate no
 * more than the bandwidth, and the bandwidth exactly when the kernel
 * keeps the need in flight. 0, or 1 with why not.
 */
static int if_props(const struct mem_system *s, const struct inflight_pred *p,
		    char *why, size_t len)
{
	double share = p->need_per_sm / s->threads_per_sm;
	double loads = p->need_loads;

	if (!(p->need_bytes > 0) || !(p->have_bytes > 0))
		snprintf(why, len, "bytes in flight are positive");
	else if (!if_near(p->need_per_sm, p->need_bytes / s->sms))
		snprintf(why, len, "per SM is your need over the %d SMs, "
			 "%.6g bytes", s->sms, p->need_bytes / s->sms);
	else if (loads * s->load_bytes < share * (1 - 1e-12) ||
		 (loads - 1) * s->load_bytes >= share * (1 + 1e-12))
		snprintf(why, len, "each of %d threads carries %.6g bytes of "
			 "your need per SM: the fewest whole loads of %d "
			 "bytes that do", s->threads_per_sm, share,
			 s->load_bytes);
	else if (p->gbps > s->bw_gbps * (1 + 1e-12))
		snprintf(why, len, "no kernel streams faster than the "
			 "memory's %.6g GB/s", s->bw_gbps);
	else if (p->have_bytes >= p->need_bytes * (1 + 1e-9) &&
		 !if_near(p->gbps, s->bw_gbps))
		snprintf(why, len, "with your %.6g bytes in flight, over your "
			 "need of %.6g, the memory's bandwidth is the limit",
			 p->have_bytes, p->need_bytes);
	else
		return 0;
	return 1;
}

/* A twin (twice the latency, half the bandwidth) against its case: the
 * same need and the same bytes in flight; half the rate. */
static int if_twin_wrong(const struct inflight_pred *t,
			 const struct inflight_pred *o, char *why, size_t len)
{
	if (t->need_loads == o->need_loads &&
	    if_near(t->need_bytes, o->need_bytes) &&
	    if_near(t->need_per_sm, o->need_per_sm) &&
	    if_near(t->have_bytes, o->have_bytes) &&
	    if_near(t->gbps, o->gbps / 2))
		return 0;
	snprintf(why, len, "at twice the latency and half the bandwidth you "
		 "said %.6g bytes needed, %d loads, %.6g bytes kept, %.6g "
		 "GB/s: the product, the need and the bytes kept stay, the "
		 "rate halves", o->need_bytes, o->need_loads, o->have_bytes,
		 o->gbps);
	return 1;
}

static void if_show(struct wb_ctx *c, const char *who,
		    const struct inflight_pred *p)
{
	wb_fail(c, "  %s: need %.9g bytes (%.9g per SM, %d loads a thread), "
		   "keeps %.9g bytes, %.9g GB/s", who, p->need_bytes,
		p->need_per_sm, p->need_loads, p->have_bytes, p->gbps);
}

void lab03_inflight_check(struct wb_ctx *c)
{
	const struct if_case *in = c->buf[IF_CASES].host;
	const struct inflight_pred *got = c->buf[IF_PREDS].host;
	size_t n = if_count(c), bad = 0;

	for (size_t i = 0; i < 2 * n; i++) {
		const struct mem_system *s = &in[i].s;
		struct inflight_pred w;
		const char *who = NULL;
		char why[320];
		int wrong;

		if (inflight_rule) {
			inflight_rule(s, &w);
			who = "the rule";
		} else if (c->size->n[0] == IF_WORKED && i < n) {
			w = inflight_worked[i].p;
			who = "the worked case";
		}
		if (who)
			wrong = !if_agrees(&got[i], &w);
		else if (i >= n)
			wrong = if_twin_wrong(&got[i], &got[i - n], why,
					      sizeof(why));
		else
			wrong = if_props(s, &got[i], why, sizeof(why));
		if (!wrong || bad++ >= 3)
			continue;
		wb_fail(c, "case %zu%s: %.6g ns at %.6g GB/s, %d SMs of %d "
			   "threads, %d-byte loads, %d in flight each", i,
			i >= n ? " (a twin)" : "", s->latency_ns, s->bw_gbps,
			s->sms, s->threads_per_sm, s->load_bytes,
			s->loads_in_flight);
		if_show(c, "you", &got[i]);
		if (who)
			if_show(c, who, &w);
		else
			wb_fail(c, "  but %s", why);
	}
	if (bad)
		wb_fail(c, "%zu of %zu cases wrong, twins included (loads "
			   "exact, the rest to 1e-12)", bad, 2 * n);
	else if (c->size->n[0] == IF_LAB)
		for (size_t i = 0; i < n; i++)
			if (in[i].lab && i % IF_COUNT(if_kernels) == 0)
				printf("  %s at %.0f ns: yours %.2f MB in "
				       "flight, %.1f KB per SM; at 2048 "
				       "threads, 4-byte loads a thread: %d\n",
				       if_gpus[i / IF_COUNT(if_kernels)].name,
				       in[i].s.latency_ns,
				       got[i].need_bytes / 1e6,
				       got[i].need_per_sm / 1e3,
				       got[i].need_loads);
}
