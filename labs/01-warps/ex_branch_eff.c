/* SPDX-License-Identifier: MIT */
/*
 * ex_branch_eff.c - lab 01's branch_eff (a host exercise): the patterns it
 * asks about, the checks of its answers (the rule's where answers.c is
 * linked, the worked cases and properties where not) and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "warps.h"
#include "lab_hooks.h"

/* ---- branch_eff ---- */

/*
 * The lab's rule, where the instructor's copy has it (answers.c, as in
 * labs 03 and 04); without it (the handout) the worked cases
 * (branch_eff_worked.h) are checked exactly, and every other answer by
 * what the rule implies (be_props(), the twin).
 */
__attribute__((weak)) void (*branch_eff_rule)(const struct branch_pattern *b,
					      struct branch_pred *p);

#include "branch_eff_worked.h"

/*
 * The README's patterns (section 15) at this lab's n = 32M and at a
 * partial last warp: the naive branch's t % 2 (lab 01's naive), a
 * warp's worth of each (t / 32 % 2: the solution's grouping), a block's
 * worth (t / 256 % 2), a tail guard (t < n - 5: every warp but one
 * takes it), t % 32 < 24 (a quarter of the lanes idle), a period that
 * straddles warps (t / 3 % 7 < 3); the naive's decision written as two
 * tests.
 */
static const struct branch_pattern be_lab_patterns[] = {
	{ 32u << 20, 1, 2, 1, 0, 1 },
	{ 32u << 20, 32, 2, 1, 0, 1 },
	{ 32u << 20, 256, 2, 1, 0, 1 },
	{ 32u << 20, 1, 32, 24, 0, 1 },
	{ 32u << 20, 3, 7, 3, 0, 1 },
	{ 32u << 20, 1, 2, 1, 0, 2 },
	{ 1000, 1, 2, 1, 0, 1 },
	{ 1000, 32, 2, 1, 1, 2 },
	{ 1000, 16, 2, 1, 0, 1 },
	{ 1000, 1000, 1, 1, 0, 1 },
	{ 1000, 995, 2, 1, 0, 2 },
};

#define BE_MAX 600
#define BE_RANDOM_COUNT 500

int lab01_branch_eff_setup(struct wb_ctx *c)
{
	static struct branch_pattern scratch[2 * BE_MAX];
	struct branch_pattern *in;
	int n = 0;

	switch (c->size->n[0]) {
	case BE_LAB:
		for (size_t i = 0; i < BE_COUNT(be_lab_patterns); i++)
			scratch[n++] = be_lab_patterns[i];
		break;
	case BE_WORKED:
		for (size_t i = 0; i < BE_COUNT(branch_eff_worked); i++)
			scratch[n++] = branch_eff_worked[i].b;
		break;
	default:
		while (n < BE_RANDOM_COUNT) {
			struct branch_pattern *b = &scratch[n++];

			memset(b, 0, sizeof(*b));
			b->div = 1 + (unsigned)wb_rng_below(&c->rng, 64);
			b->mod = 1 + (unsigned)wb_rng_below(&c->rng,
							   4096 / b->div);
			b->below = (unsigned)wb_rng_below(&c->rng, b->mod + 1);
			b->invert = (int)wb_rng_below(&c->rng, 2);
			b->ifs = 1 + (int)wb_rng_below(&c->rng, 2);
			b->n = wb_rng_below(&c->rng, 2) ? 1000 : 1ull << 39;
			b->n = 1 + wb_rng_below(&c->rng, b->n);
		}
	}
	/* The twins: the same pattern, the condition negated. */
	for (int i = 0; i < n; i++) {
		scratch[n + i] = scratch[i];
		scratch[n + i].invert = !scratch[i].invert;
	}
	in = wb_input(c, "patterns", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "predictions", 2 * (size_t)n * sizeof(struct branch_pred));
	return 0;
}

enum { BE_PATTERNS, BE_PREDS };

static size_t be_count(const struct wb_ctx *c)
{
	return c->buf[BE_PATTERNS].bytes / sizeof(struct branch_pattern) / 2;
}

int lab01_branch_eff_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct branch_pred got[2 * BE_MAX];
	const struct branch_pattern *in = c->buf[BE_PATTERNS].host;
	size_t n = 2 * be_count(c);

	if (impl != WB_STUDENT || !branch_eff)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct branch_pattern b = in[i];

		memset(&got[i], 0xff, sizeof(got[i]));
		branch_eff(&b, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, BE_PREDS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

static int be_near(double got, double want)
{
	double d = got - want;

	return (d < 0 ? -d : d) <= 1e-12 * (want < 0 ? -want : want);
}

static int be_agrees(const struct branch_pred *a, const struct branch_pred *b)
{
	return a->warps == b->warps && a->branches == b->branches &&
	       a->divergent == b->divergent && a->paths == b->paths &&
	       be_near(a->efficiency, b->efficiency);
}

/*
 * Without the rule: what the README's rule implies of any right answer
 * p for b: ceil(n / 32) warps, a branch each per test; the divergent
 * branches a multiple of the tests, no more than there are, none when
 * every thread decides alike (below 0 or mod, or a single thread), all
 * when the condition alternates lane by lane in whole warps (t % 2, n a
 * multiple of 32); a split warp runs both bodies; efficiency the uniform
 * branches' share. 0, or 1 with why not.
 */
static int be_props(const struct branch_pattern *b,
		    const struct branch_pred *p, char *why, size_t len)
{
	unsigned long long warps = (b->n + 31) / 32;
	unsigned long long ifs = (unsigned long long)b->ifs;
	int same = b->below == 0 || b->below >= b->mod || b->n == 1;

	if (p->warps != warps)
		snprintf(why, len, "%llu threads make %llu warps, the last "
			 "one partial or not", b->n, warps);
	else if (p->branches != ifs * warps)
		snprintf(why, len, "each of %llu warps executes %llu "
			 "branch%s", warps, ifs, ifs > 1 ? "es" : "");
	else if (p->divergent > p->branches || p->divergent % ifs)
		snprintf(why, len, "a warp that splits splits at each of the "
			 "%llu tests, and no more branches split than the "
			 "%llu there are", ifs, p->branches);
	else if (same && p->divergent)
		snprintf(why, len, "every thread decides the same way: no "
			 "warp splits");
	else if (b->div == 1 && b->mod == 2 && b->below == 1 &&
		 b->n % 32 == 0 && p->divergent != p->branches)
		snprintf(why, len, "lanes alternate in every warp: all %llu "
			 "branches split", p->branches);
	else if (p->paths != p->warps + p->divergent / ifs)
		snprintf(why, len, "a uniform warp runs one body, a split one "
			 "both: %llu", p->warps + p->divergent / ifs);
	else if (!be_near(p->efficiency, 100.0 * (double)(p->branches -
							   p->divergent) /
						 (double)p->branches))
		snprintf(why, len, "the efficiency is the uniform branches' "
			 "share of your branches, in %%");
	else
		return 0;
	return 1;
}

static void be_show(struct wb_ctx *c, const char *who,
		    const struct branch_pred *p)
{
	wb_fail(c, "  %s: %llu warps, %llu branches, %llu divergent, %llu "
		   "paths, %.9g%%", who, p->warps, p->branches, p->divergent,
		p->paths, p->efficiency);
}

void lab01_branch_eff_check(struct wb_ctx *c)
{
	const struct branch_pattern *in = c->buf[BE_PATTERNS].host;
	const struct branch_pred *got = c->buf[BE_PREDS].host;
	size_t n = be_count(c), bad = 0;

	for (size_t i = 0; i < 2 * n; i++) {
		struct branch_pred w;
		const char *who = NULL;
		char why[320];
		int wrong;

		if (branch_eff_rule) {
			branch_eff_rule(&in[i], &w);
			who = "the rule";
		} else if (c->size->n[0] == BE_WORKED && i < n) {
			w = branch_eff_worked[i].p;
			who = "the worked case";
		}
		if (who)
			wrong = !be_agrees(&got[i], &w);
		else if (i >= n)
			wrong = got[i].divergent != got[i - n].divergent ||
				be_props(&in[i], &got[i], why, sizeof(why));
		else
			wrong = be_props(&in[i], &got[i], why, sizeof(why));
		if (wrong && !who && i >= n &&
		    got[i].divergent != got[i - n].divergent)
			snprintf(why, sizeof(why), "the condition negated "
				 "splits the same warps: you said %llu "
				 "divergent", got[i - n].divergent);
		if (!wrong || bad++ >= 3)
			continue;
		wb_fail(c, "case %zu%s: n = %llu, taken when ((t / %u) %% %u "
			   "< %u) %s, %s", i, i >= n ? " (a twin)" : "",
			in[i].n, in[i].div, in[i].mod, in[i].below,
			in[i].invert ? "is false" : "is true",
			in[i].ifs == 2 ? "two tests" : "if/else");
		be_show(c, "you", &got[i]);
		if (who)
			be_show(c, who, &w);
		else
			wb_fail(c, "  but %s", why);
	}
	if (bad)
		wb_fail(c, "%zu of %zu patterns wrong, twins included (counts "
			   "exact, the efficiency to 1e-12)", bad, 2 * n);
	else if (c->size->n[0] == BE_LAB)
		for (size_t i = 0; i < 5; i++)
			printf("  n = 32M, taken when (t / %u) %% %u < %u: "
			       "yours %.1f%% branch efficiency\n", in[i].div,
			       in[i].mod, in[i].below, got[i].efficiency);
}
