/* SPDX-License-Identifier: MIT */
/*
 * ex_constant.c - lab 04's constant (a host exercise): the warp-wide reads
 * of a __constant__ table it asks about, the check of their answers (the
 * rule's where answers.c is linked, the worked cases and properties where
 * not) and its hooks for the table in lab.c.
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#include "harness.h"
#include "tiling.h"
#include "lab_hooks.h"

/*
 * The lab's rule, where the instructor's copy has it: answers.c (lab.mk's
 * ANSWERS) replaces this weak NULL with it, and every answer is checked
 * against it. The student handout has no answers.c: there the worked
 * cases (constant_worked.h, the rule's own answers) are checked exactly,
 * and every other answer by what the README's model implies
 * (const_props(), the twin), which does not give the answer away.
 */
__attribute__((weak)) void (*constant_rule)(const struct const_read *r,
					    struct const_pred *p);

#include "constant_worked.h"

#define CONST_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* One question: a read, and where it came from (for the messages). */
struct const_case {
	struct const_read r;
	int named; /* index into const_named, or -1 */
	int twin;  /* 1: the case before it with the step negated and the
		    * base moved by a whole table */
};

/*
 * The reads section 13 of the README walks through, as a kernel of this
 * lab would issue them: a 3 x 3 stencil's weights (every lane the same
 * tap), a table indexed by the lane, by pairs and half-warps of lanes,
 * by the block, a sector apart, wrapping around a small table, walking
 * down, from a partial warp.
 */
static const struct {
	const char *name;
	struct const_read r;
} const_named[] = {
	{ "stencil weight w[4]", { 4, 0, 1, 9, 32 } },
	{ "c[lane]", { 0, 1, 1, 256, 32 } },
	{ "c[lane / 2]", { 0, 1, 2, 256, 32 } },
	{ "c[lane / 16]", { 0, 1, 16, 256, 32 } },
	{ "c[blockIdx.x], block 37", { 37, 0, 1, 256, 32 } },
	{ "c[8 lane]", { 0, 8, 1, 256, 32 } },
	{ "c[(3 + lane) % 8]", { 3, 1, 1, 8, 32 } },
	{ "c[(5 - lane) mod 16]", { 5, -1, 1, 16, 32 } },
	{ "c[lane], 7 lanes", { 0, 1, 1, 256, 7 } },
};

#define CONST_MAX 600
#define CONST_RANDOM_COUNT 500
#define CONST_SHOWN 3
#define CONST_BASE_MAX (1LL << 40)

enum { CN_READS, CN_PREDS };

static void const_add(struct const_case *c, int *n, const struct const_read *r,
		      int named)
{
	memset(&c[*n], 0, sizeof(c[*n]));
	c[*n].r = *r;
	c[*n].named = named;
	(*n)++;
}

/* A drawn read: any base, a step near 0 one time in two (lanes a few
 * elements apart) and anywhere below 2^40 otherwise, tables from 1 entry
 * to 64 KB (log-uniform, so that small tables wrap), any group, mostly
 * whole warps. */
static void const_draw(struct wb_rng *rng, struct const_read *r)
{
	r->base = (long long)wb_rng_below(rng, (uint64_t)CONST_BASE_MAX -
							  16384);
	if (wb_rng_below(rng, 2))
		r->step = (long long)wb_rng_below(rng, 129) - 64;
	else
		r->step = (long long)wb_rng_below(rng, 2 * (uint64_t)
							    CONST_BASE_MAX -
							    1) -
			  (CONST_BASE_MAX - 1);
	r->group = wb_rng_below(rng, 2) ? 1 << wb_rng_below(rng, 6) :
					  1 + (int)wb_rng_below(rng, 32);
	r->entries = 1 + (int)wb_rng_below(rng, 2u << wb_rng_below(rng, 14));
	r->lanes = wb_rng_below(rng, 2) ? 32 : 1 + (int)wb_rng_below(rng, 32);
}

int lab04_constant_setup(struct wb_ctx *c)
{
	static struct const_case scratch[2 * CONST_MAX];
	struct const_case *in;
	struct const_read r;
	int n = 0;

	switch (c->size->n[0]) {
	case CONST_LAB:
		for (size_t i = 0; i < CONST_COUNT(const_named); i++)
			const_add(scratch, &n, &const_named[i].r, (int)i);
		break;
	case CONST_WORKED:
		for (size_t i = 0; i < CONST_COUNT(constant_worked); i++)
			const_add(scratch, &n, &constant_worked[i].r, -1);
		break;
	default:
		while (n < CONST_RANDOM_COUNT) {
			const_draw(&c->rng, &r);
			const_add(scratch, &n, &r, -1);
		}
	}
	/* The twins: the step negated, the base a whole table away. */
	for (int i = 0; i < n; i++) {
		struct const_read *t = &scratch[n + i].r;

		scratch[n + i] = scratch[i];
		scratch[n + i].named = -1;
		scratch[n + i].twin = 1;
		t->step = -t->step;
		t->base += t->base >= t->entries ? -t->entries : t->entries;
	}
	in = wb_input(c, "reads", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "passes", 2 * (size_t)n * sizeof(struct const_pred));
	return 0;
}

static size_t const_count(const struct wb_ctx *c)
{
	return c->buf[CN_READS].bytes / sizeof(struct const_case) / 2;
}

int lab04_constant_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct const_pred got[2 * CONST_MAX];
	const struct const_case *in = c->buf[CN_READS].host;
	size_t n = 2 * const_count(c);

	if (impl != WB_STUDENT || !constant_passes)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct const_read r = in[i].r;

		memset(&got[i], 0xff, sizeof(got[i]));
		constant_passes(&r, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, CN_PREDS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

static double const_abs(double x)
{
	return x < 0 ? -x : x;
}

/* random_passes to 1e-9 relative (tiling.h: 1 - 1/entries rounds). */
static int const_near(double a, double b)
{
	return const_abs(a - b) <= 1e-9 * const_abs(b);
}

static int const_agrees(const struct const_pred *a, const struct const_pred *b)
{
	return a->passes == b->passes && a->sectors == b->sectors &&
	       const_near(a->random_passes, b->random_passes);
}

/* Lane groups with an active lane: ceil(lanes / group). */
static long long const_groups(const struct const_read *r)
{
	return (r->lanes + r->group - 1) / r->group;
}

static long long const_least(long long a, long long b)
{
	return a < b ? a : b;
}

/*
 * Without the rule: what the model implies of any right answer p for
 * read r. One pass exactly when every active lane reads one element (one
 * lane group, or a step a whole number of tables); never more passes
 * than lanes, lane groups or entries; between passes / 8 and passes
 * sectors (8 elements a sector); the expected passes of a random lookup
 * between 1 and the lanes or the entries, 1 for one lane or one entry,
 * the same for every read of the same lanes and entries as a worked
 * case. 0, or 1 with why not.
 */
static int const_props(const struct const_read *r, const struct const_pred *p,
		       char *why, size_t len)
{
	int broadcast = const_groups(r) == 1 || r->step % r->entries == 0;
	long long most = const_least(const_least(r->lanes, r->entries),
				     const_groups(r));
	double rmost = (double)const_least(r->lanes, r->entries);

	for (size_t i = 0; i < CONST_COUNT(constant_worked); i++) {
		const struct constant_worked *w = &constant_worked[i];

		if (w->r.entries == r->entries && w->r.lanes == r->lanes &&
		    !const_near(p->random_passes, w->p.random_passes)) {
			snprintf(why, len, "%d lanes drawing from %d entries "
				 "expect %.17g passes, whatever they read (a "
				 "worked case)", r->lanes, r->entries,
				 w->p.random_passes);
			return 1;
		}
	}
	if (broadcast && p->passes != 1)
		snprintf(why, len, "every active lane reads the same element: "
			 "one pass, broadcast to all");
	else if (!broadcast && p->passes < 2)
		snprintf(why, len, "the lanes read different elements: one "
			 "pass per distinct address, at least 2");
	else if (p->passes < 1 || p->passes > most)
		snprintf(why, len, "at most %lld passes: no more than the "
			 "active lanes, their groups or the entries", most);
	else if (p->sectors < (p->passes + 7) / 8 || p->sectors > p->passes)
		snprintf(why, len, "%d distinct elements lie in %d to %d "
			 "sectors (8 a sector)", p->passes, (p->passes + 7) / 8,
			 p->passes);
	else if (!(p->random_passes >= 1 - 1e-9 &&
		   p->random_passes <= rmost * (1 + 1e-9)))
		snprintf(why, len, "a random lookup makes 1 to %.0f passes on "
			 "average (no more than the lanes or the entries)",
			 rmost);
	else if ((r->lanes == 1 || r->entries == 1) &&
		 !const_near(p->random_passes, 1))
		snprintf(why, len, "one lane, or one entry: a random lookup is "
			 "always one pass");
	else
		return 0;
	return 1;
}

/* A twin (step negated, base a whole table away) against its case: the
 * same set of elements reflected, so the same passes; the same lanes and
 * entries, so the same random lookup. */
static int const_twin_wrong(const struct const_pred *t,
			    const struct const_pred *o, char *why, size_t len)
{
	if (t->passes == o->passes &&
	    const_near(t->random_passes, o->random_passes))
		return 0;
	snprintf(why, len, "with the step negated and the base a whole table "
		 "away you said %d passes and %.17g random; the case before "
		 "it, %d and %.17g: the lanes read the mirror image of the same "
		 "elements, as many of them", t->passes, t->random_passes,
		 o->passes, o->random_passes);
	return 1;
}

static void const_show(struct wb_ctx *c, const char *who,
		       const struct const_pred *p)
{
	wb_fail(c, "  %s: %d passes, %d sectors, %.17g passes for a random "
		   "lookup", who, p->passes, p->sectors, p->random_passes);
}

void lab04_constant_check(struct wb_ctx *c)
{
	const struct const_case *in = c->buf[CN_READS].host;
	const struct const_pred *got = c->buf[CN_PREDS].host;
	size_t n = const_count(c), bad = 0;

	for (size_t i = 0; i < 2 * n; i++) {
		const struct const_read *r = &in[i].r;
		struct const_pred w;
		const char *who = NULL;
		char why[400];
		int wrong;

		if (constant_rule) {
			constant_rule(r, &w);
			who = "the rule";
		} else if (c->size->n[0] == CONST_WORKED && i < n) {
			w = constant_worked[i].p;
			who = "the worked case";
		}
		if (who)
			wrong = !const_agrees(&got[i], &w);
		else if (i >= n)
			wrong = const_twin_wrong(&got[i], &got[i - n], why,
						 sizeof(why));
		else
			wrong = const_props(r, &got[i], why, sizeof(why));
		if (!wrong || bad++ >= CONST_SHOWN)
			continue;
		wb_fail(c, "case %zu%s%s%s: lane t reads element (%lld + (t / "
			   "%d) x %lld) mod %d, %d lanes active", i,
			in[i].twin ? " (a twin)" : "",
			in[i].named >= 0 ? ", the README's " : "",
			in[i].named >= 0 ? const_named[in[i].named].name : "",
			r->base, r->group, r->step, r->entries, r->lanes);
		const_show(c, "you", &got[i]);
		if (who)
			const_show(c, who, &w);
		else
			wb_fail(c, "  but %s", why);
	}
	if (bad)
		wb_fail(c, "%zu of %zu cases wrong, twins included (passes and "
			   "sectors exact, random lookups to 1e-9)", bad, 2 * n);
	else if (c->size->n[0] == CONST_LAB)
		for (size_t i = 0; i < n; i++)
			printf("  %-26s yours: %2d passes, %2d sectors "
			       "(random lookup: %.1f passes)\n",
			       const_named[in[i].named].name, got[i].passes,
			       got[i].sectors, got[i].random_passes);
}
