/* SPDX-License-Identifier: MIT */
/*
 * ex_passes.c - lab 07's passes (a host exercise): the chains it asks
 * about (the lab's own at the shapes of the table, hand-made, drawn), the
 * checks of its answers (the rules' where answers.c is linked, the worked
 * cases and properties where not) and its hooks for the table in lab.c. A
 * file per exercise keeps lab.c the table alone.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "fusion.h"
#include "lab_hooks.h"

/* ---- passes ---- */

/*
 * The lab's rules, where the instructor's copy has them: answers.c
 * (lab.mk's ANSWERS) replaces this weak NULL with them, and every count
 * is checked against them. The student handout has no answers.c: there
 * the worked cases (passes_worked.h, the rules' own answers) are checked
 * exactly, and every other count by what the rules imply (pass_props(),
 * chain_twin()), which does not give the answer away.
 */
__attribute__((weak)) void (*passes_rule)(const struct chain *ch,
					  struct chain_bytes *eager,
					  struct chain_bytes *fused);

#include "passes_worked.h"

/* The chains of one size: the lab's four at each of their shapes, the
 * hand-made ones, or PASS_RANDOM_COUNT drawn from the seed. */
#define PASS_MAX 1024
#define PASS_RANDOM_COUNT 1000

/* The lab's own count of the fewest bytes, for the chain's check. */
static void chain_task_bytes(int op, const struct wb_size *s,
			     struct wb_traffic *t)
{
	memset(t, 0, sizeof(*t));
	switch (op) {
	case PASS_GELU: lab07_gelu_traffic(s, t); break;
	case PASS_BIAS_GELU: lab07_bias_gelu_traffic(s, t); break;
	case PASS_ADD_RMSNORM: lab07_add_rmsnorm_traffic(s, t); break;
	default: lab07_softmax_traffic(s, t);
	}
}

/* Each exercise's checked shapes, its benchmarks first. */
static const struct wb_size pass_gelu_shapes[] = {
	{ "n=64M", { 64u << 20 } }, { "n=256K", { 256u << 10 } }, GELU_SIZES
};
static const struct wb_size pass_bias_shapes[] = {
	{ "8192x8192", { 8192, 8192 } }, { "64x4096", { 64, 4096 } },
	BIAS_GELU_SIZES
};
static const struct wb_size pass_add_shapes[] = {
	{ "16384x4096", { 16384, 4096 } }, ADD_RMSNORM_SIZES
};
static const struct wb_size pass_softmax_shapes[] = {
	{ "16384x4096", { 16384, 4096 } }, { "256x1024", { 256, 1024 } },
	SOFTMAX_SIZES
};

#define PASS_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const struct wb_size *shapes;
	size_t count;
	const char *ex;
} pass_ops[] = {
	[PASS_GELU] = { pass_gelu_shapes, PASS_COUNT(pass_gelu_shapes),
			"gelu" },
	[PASS_BIAS_GELU] = { pass_bias_shapes, PASS_COUNT(pass_bias_shapes),
			     "bias_gelu" },
	[PASS_ADD_RMSNORM] = { pass_add_shapes, PASS_COUNT(pass_add_shapes),
			       "add_rmsnorm" },
	[PASS_SOFTMAX] = { pass_softmax_shapes,
			   PASS_COUNT(pass_softmax_shapes), "softmax" },
};

/* Any chain the contract allows: sizes from 1 float to 2^28, some
 * shared, kernels with up to four distinct inputs and outputs. */
static void chain_random(struct chain *ch, struct wb_rng *rng)
{
	int written[CHAIN_MAX_BUFS] = { 0 }, any = 0;

	memset(ch, 0, sizeof(*ch));
	ch->nbufs = 1 + (int)wb_rng_below(rng, CHAIN_MAX_BUFS);
	ch->nkernels = 1 + (int)wb_rng_below(rng, CHAIN_MAX_KERNELS);
	for (int b = 0; b < ch->nbufs; b++)
		ch->floats[b] = wb_rng_below(rng, 2) ?
			1 + wb_rng_below(rng, 1000) :
			1ull << wb_rng_below(rng, 29);
	for (int i = 0; i < ch->nkernels; i++) {
		struct chain_kernel *k = &ch->k[i];
		int nin = (int)wb_rng_below(rng, KERNEL_MAX_ARGS + 1);
		int nout = 1 + (int)wb_rng_below(rng, KERNEL_MAX_ARGS);
		int in0 = (int)wb_rng_below(rng, (uint64_t)ch->nbufs);
		int out0 = (int)wb_rng_below(rng, (uint64_t)ch->nbufs);

		/* distinct buffers: a random start, then consecutive ones */
		for (int a = 0; a < nin && a < ch->nbufs; a++)
			k->in[k->nin++] = (in0 + a) % ch->nbufs;
		for (int a = 0; a < nout && a < ch->nbufs; a++) {
			k->out[k->nout++] = (out0 + a) % ch->nbufs;
			written[(out0 + a) % ch->nbufs] = 1;
		}
	}
	for (int b = 0; b < ch->nbufs; b++) {
		ch->result[b] = written[b] && wb_rng_below(rng, 2);
		any |= ch->result[b];
	}
	/* at least one result: the last kernel's first output */
	if (!any)
		ch->result[ch->k[ch->nkernels - 1].out[0]] = 1;
}

/* Every group fits: the largest is the random one. */
/*
 * Chain i's twin, asked after the group: its buffers numbered the other
 * way round (b is nbufs - 1 - b) and each twice as large. Every count is
 * twice chain i's: without the rules (the handout) that is checked of
 * every chain.
 */
static void chain_twin(const struct chain *ch, struct chain *t)
{
	int last = ch->nbufs - 1;

	*t = *ch;
	for (int b = 0; b < ch->nbufs; b++) {
		t->floats[last - b] = 2 * ch->floats[b];
		t->result[last - b] = ch->result[b];
	}
	for (int i = 0; i < ch->nkernels; i++) {
		for (int a = 0; a < ch->k[i].nin; a++)
			t->k[i].in[a] = last - ch->k[i].in[a];
		for (int a = 0; a < ch->k[i].nout; a++)
			t->k[i].out[a] = last - ch->k[i].out[a];
	}
}

#define PASS_WORKED_COUNT (sizeof(pass_worked) / sizeof(pass_worked[0]))

_Static_assert(PASS_RANDOM_COUNT <= PASS_MAX && PASSES_HAND_MADE <= PASS_MAX &&
	       PASS_WORKED_COUNT <= PASS_MAX, "PASS_MAX holds every group");

/* The wrong chains shown: each takes four lines. */
#define SHOWN_CHAINS 3

enum { PS_CHAINS, PS_BYTES };

/* The group's chains, then their twins (chain_twin()). */
int lab07_passes_setup(struct wb_ctx *c)
{
	static struct chain scratch[2 * PASS_MAX];
	int op = (int)c->size->n[0], n = 0;
	struct chain *in;

	if (op <= PASS_SOFTMAX) {
		for (size_t s = 0; s < pass_ops[op].count; s++)
			chain_of(op, pass_ops[op].shapes[s].n[0],
				 pass_ops[op].shapes[s].n[1], &scratch[n++]);
	} else if (op == PASS_IN_PLACE) {
		n = chain_hand_made(scratch);
	} else if (op == PASS_WORKED) {
		for (n = 0; n < (int)PASS_WORKED_COUNT; n++)
			scratch[n] = pass_worked[n].ch;
	} else {
		for (n = 0; n < PASS_RANDOM_COUNT; n++)
			chain_random(&scratch[n], &c->rng);
	}
	for (int i = 0; i < n; i++)
		chain_twin(&scratch[i], &scratch[n + i]);
	in = wb_input(c, "chains", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "bytes", 2 * (size_t)n * 2 * sizeof(struct chain_bytes));
	return 0;
}

/* The group's chains; as many twins follow them. */
static size_t pass_count(const struct wb_ctx *c)
{
	return c->buf[PS_CHAINS].bytes / sizeof(struct chain) / 2;
}

/* Your eager and fused bytes for every chain and its twin, copied to the
 * output. Each call gets its own copy of the chain, and poisoned
 * results. */
int lab07_passes_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct chain_bytes got[4 * PASS_MAX];
	const struct chain *in = c->buf[PS_CHAINS].host;
	size_t n = 2 * pass_count(c);

	if (impl != WB_STUDENT || !chain_traffic)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct chain ch = in[i];

		memset(&got[2 * i], 0xff, 2 * sizeof(got[0]));
		chain_traffic(&ch, &got[2 * i], &got[2 * i + 1]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, PS_BYTES), got,
			      n * 2 * sizeof(got[0]), cudaMemcpyHostToDevice));
	return 0;
}

/* A chain in one line: its buffers (number:floats), then each kernel as
 * inputs>outputs, in launch order. */
static void chain_describe(const struct chain *ch, char *s, size_t len)
{
	size_t at = 0;

	at += (size_t)snprintf(s + at, len - at, "buffers");
	for (int b = 0; b < ch->nbufs && at < len; b++)
		at += (size_t)snprintf(s + at, len - at, " %d:%llu%s", b,
				       ch->floats[b],
				       ch->result[b] ? "(result)" : "");
	for (int i = 0; i < ch->nkernels && at < len; i++) {
		const struct chain_kernel *k = &ch->k[i];

		at += (size_t)snprintf(s + at, len - at, "%s", i ? "; " :
				       "; kernels ");
		for (int a = 0; a < k->nin && at < len; a++)
			at += (size_t)snprintf(s + at, len - at, "%s%d",
					       a ? "," : "", k->in[a]);
		for (int a = 0; a < k->nout && at < len; a++)
			at += (size_t)snprintf(s + at, len - at, "%s%d",
					       a ? "," : ">", k->out[a]);
	}
}

/* Passes of the chain's largest buffer: 21 for gelu's eager chain. */
static double chain_passes(const struct chain *ch, unsigned long long bytes)
{
	unsigned long long most = 0;

	for (int b = 0; b < ch->nbufs; b++)
		most = ch->floats[b] > most ? ch->floats[b] : most;
	return (double)bytes / (4.0 * (double)most);
}

static void passes_print_bench(const struct wb_ctx *c,
			       const struct chain_bytes *got)
{
	const struct chain *ch = c->buf[PS_CHAINS].host;
	int op = (int)c->size->n[0];
	struct chain_bytes e = got[0], f = got[1];

	printf("  %s at %s, in passes over its largest buffer (read + "
	       "written): eager yours %.2f + %.2f", pass_ops[op].ex,
	       pass_ops[op].shapes[0].label, chain_passes(ch, got[0].read),
	       chain_passes(ch, got[0].write));
	if (passes_rule) {
		passes_rule(ch, &e, &f);
		printf(", the rule %.2f + %.2f", chain_passes(ch, e.read),
		       chain_passes(ch, e.write));
	}
	printf("; fused yours %.2f + %.2f", chain_passes(ch, got[1].read),
	       chain_passes(ch, got[1].write));
	if (passes_rule)
		printf(", the rule %.2f + %.2f", chain_passes(ch, f.read),
		       chain_passes(ch, f.write));
	if (f.read + f.write)
		printf(": at the same bandwidth the fused kernel can be %.2fx "
		       "faster%s", (double)(e.read + e.write) /
				   (double)(f.read + f.write),
		       passes_rule ? "" : " by your counts");
	printf(" (measure: make profile LAB=fusion EX=%s WITH=naive,"
	       "solution)\n", pass_ops[op].ex);
}

/* The rules must give the lab's own byte count (traffic()) for its four
 * chains: if not, the lab is wrong, not you. */
static int pass_rule_consistent(struct wb_ctx *c, int op, size_t n)
{
	const struct chain *in = c->buf[PS_CHAINS].host;

	for (size_t i = 0; op <= PASS_SOFTMAX && i < n; i++) {
		struct chain_bytes e, f;
		struct wb_traffic t;

		passes_rule(&in[i], &e, &f);
		chain_task_bytes(op, &pass_ops[op].shapes[i], &t);
		if ((double)f.read != t.read || (double)f.write != t.write) {
			wb_fail(c, "the lab's rule and %s's traffic() disagree "
				   "at %s (a bug in labs/07-fusion/lab.c)",
				pass_ops[op].ex, pass_ops[op].shapes[i].label);
			return -1;
		}
	}
	return 0;
}

/* The worked cases are the rules' answers (tools/worked-cases.sh writes
 * them from them): where the rules are linked, are they still? */
static int pass_worked_stale(void)
{
	for (size_t i = 0; i < PASS_WORKED_COUNT; i++) {
		const struct pass_worked *w = &pass_worked[i];
		struct chain_bytes e, f;

		passes_rule(&w->ch, &e, &f);
		if (e.read != w->eager.read || e.write != w->eager.write ||
		    f.read != w->fused.read || f.write != w->fused.write)
			return 1;
	}
	return 0;
}

/* What chain i's counts must be, where that is known here: the rules'
 * (the instructor's copy), or, without them, a worked case's. */
static int pass_expected(const struct wb_ctx *c, const struct chain *in,
			 size_t n, size_t i, struct chain_bytes *e,
			 struct chain_bytes *f)
{
	if (passes_rule) {
		passes_rule(&in[i], e, f);
		return 1;
	}
	if (c->size->n[0] != PASS_WORKED || i >= n)
		return 0;
	*e = pass_worked[i].eager;
	*f = pass_worked[i].fused;
	return 1;
}

/*
 * Without the rules: what any right counts for chain i of the group
 * satisfy, as the README's rules imply. Returns 0, or 1 with why they
 * cannot be right.
 */
static int pass_props(const struct wb_ctx *c, size_t i,
		      const struct chain_bytes *e, const struct chain_bytes *f,
		      char *why, size_t len)
{
	int op = (int)c->size->n[0], lab = op <= PASS_SOFTMAX;
	struct wb_traffic t = { 0 };

	if (lab)
		chain_task_bytes(op, &pass_ops[op].shapes[i], &t);
	if ((e->read | e->write | f->read | f->write) % 4)
		snprintf(why, len, "every buffer holds floats: bytes come in "
			 "fours");
	else if (f->read > e->read || f->write > e->write)
		snprintf(why, len, "fused, a chain moves no more than eagerly: "
			 "each buffer it reads once, each result it writes "
			 "once, eager moves too");
	else if (!f->write)
		snprintf(why, len, "fused, the chain still writes its results");
	else if (lab && ((double)f->read != t.read ||
			 (double)f->write != t.write))
		snprintf(why, len, "fused, naive.cu's %s chain moves the bytes "
			 "%s is timed against (traffic() in lab.c): %.0f read, "
			 "%.0f written", pass_ops[op].ex, pass_ops[op].ex,
			 t.read, t.write);
	else
		return 0;
	return 1;
}

/* Is the twin's count, t, twice its chain's, o (chain_twin())? */
static int pass_twin_wrong(const struct chain_bytes *t,
			   const struct chain_bytes *o, char *why, size_t len)
{
	if (t[0].read == 2 * o[0].read && t[0].write == 2 * o[0].write &&
	    t[1].read == 2 * o[1].read && t[1].write == 2 * o[1].write)
		return 0;
	snprintf(why, len, "for the same chain with its buffers numbered the "
		 "other way round and half as large you said %llu, %llu "
		 "eager and %llu, %llu fused: the numbering changes nothing, "
		 "twice the floats are twice the bytes", o[0].read,
		 o[0].write, o[1].read, o[1].write);
	return 1;
}

/* Chain i, and which it is, in two lines. */
static void pass_describe(struct wb_ctx *c, const struct chain *in,
			  size_t n, size_t i)
{
	int op = (int)c->size->n[0];
	char what[512];

	chain_describe(&in[i], what, sizeof(what));
	if (op <= PASS_SOFTMAX && i < n)
		wb_fail(c, "chain %zu: naive.cu's %s at %s", i,
			pass_ops[op].ex, pass_ops[op].shapes[i].label);
	else
		wb_fail(c, "chain %zu%s:", i, i >= n ? " (a twin)" : "");
	wb_fail(c, "  %s", what);
}

/* The expected counts beside yours, for those that differ. */
static void pass_show_expected(struct wb_ctx *c, const struct chain_bytes *g,
			       const struct chain_bytes *e,
			       const struct chain_bytes *f)
{
	if (g[0].read != e->read || g[0].write != e->write)
		wb_fail(c, "  eager: you said %llu read, %llu written; "
			   "expected %llu, %llu (every kernel moves every "
			   "buffer it lists, whole)", g[0].read, g[0].write,
			e->read, e->write);
	if (g[1].read != f->read || g[1].write != f->write)
		wb_fail(c, "  fused: you said %llu read, %llu written; "
			   "expected %llu, %llu (read: buffers whose first use "
			   "is a read, once; written: the results, once)",
			g[1].read, g[1].write, f->read, f->write);
}

/*
 * Is chain i wrong (i < n: the group's chains; n and on: their twins)?
 * With expected counts, they must match; without (the handout), a chain
 * must have the rules' properties and a twin twice its chain's counts.
 * Shows it when `show`.
 */
static int pass_wrong(struct wb_ctx *c, const struct chain *in,
		      const struct chain_bytes *got, size_t n, size_t i,
		      int show)
{
	const struct chain_bytes *g = &got[2 * i];
	struct chain_bytes e, f;
	int exact = pass_expected(c, in, n, i, &e, &f);
	char why[320];

	if (exact) {
		if (g[0].read == e.read && g[0].write == e.write &&
		    g[1].read == f.read && g[1].write == f.write)
			return 0;
	} else if (i >= n) {
		if (!pass_twin_wrong(g, &got[2 * (i - n)], why, sizeof(why)))
			return 0;
	} else if (!pass_props(c, i, &g[0], &g[1], why, sizeof(why))) {
		return 0;
	}
	if (!show)
		return 1;
	pass_describe(c, in, n, i);
	if (exact) {
		pass_show_expected(c, g, &e, &f);
		return 1;
	}
	wb_fail(c, "  you said %llu read, %llu written eager; %llu, %llu "
		   "fused", g[0].read, g[0].write, g[1].read, g[1].write);
	wb_fail(c, "  but %s", why);
	return 1;
}

void lab07_passes_check(struct wb_ctx *c)
{
	const struct chain *in = c->buf[PS_CHAINS].host;
	const struct chain_bytes *got = c->buf[PS_BYTES].host;
	int op = (int)c->size->n[0];
	size_t n = pass_count(c), bad = 0;

	if (passes_rule && pass_rule_consistent(c, op, n))
		return;
	if (passes_rule && op == PASS_WORKED && pass_worked_stale()) {
		wb_fail(c, "labs/07-fusion/passes_worked.h is not the rules' "
			   "answers (a bug of the lab: write it again with "
			   "tools/worked-cases.sh)");
		return;
	}
	if (op <= PASS_SOFTMAX)
		passes_print_bench(c, got);
	for (size_t i = 0; i < 2 * n; i++)
		bad += pass_wrong(c, in, got, n, i, bad < SHOWN_CHAINS);
	if (bad)
		wb_fail(c, "%zu of %zu chains wrong, twins included (4 bytes "
			   "per float)", bad, 2 * n);
}
