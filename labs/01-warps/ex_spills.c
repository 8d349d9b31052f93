/* SPDX-License-Identifier: MIT */
/*
 * ex_spills.c - lab 01's spills (a host exercise): the kernels it asks
 * about, the checks of its answers (the rule's where answers.c is linked,
 * the worked cases and properties where not) and its hooks for the table
 * in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "warps.h"
#include "lab_hooks.h"

/* ---- spills ---- */

/*
 * The lab's rule, where the instructor's copy has it (answers.c);
 * without it (the handout) the worked cases (spills_worked.h) are
 * checked exactly, and every other answer by what the rule implies
 * (sp_props(), the twin).
 */
__attribute__((weak)) void (*spills_rule)(const struct reg_kernel *k,
					  struct reg_pred *p);

#include "spills_worked.h"

/*
 * The lab's kernels under __launch_bounds__ (occ_kernels.cu: 96, 128
 * and 320 accumulators live, -Xptxas -v gives them 64, 96 and 255
 * registers, all spilling); the same without min_blocks; a runtime-
 * indexed array of 16 floats; a lean kernel with room to spare.
 */
static const struct reg_kernel sp_lab_kernels[] = {
	{ 1024, 1, 96, 0 }, { 640, 1, 128, 0 }, { 256, 1, 320, 0 },
	{ 1024, 0, 96, 0 }, { 256, 4, 40, 0 }, { 256, 2, 40, 16 },
	{ 128, 0, 32, 0 }, { 96, 3, 200, 64 },
};

#define SP_MAX 600
#define SP_RANDOM_COUNT 500

int lab01_spills_setup(struct wb_ctx *c)
{
	static struct reg_kernel scratch[2 * SP_MAX];
	struct reg_kernel *in;
	int n = 0;

	switch (c->size->n[0]) {
	case SP_LAB:
		for (size_t i = 0; i < BE_COUNT(sp_lab_kernels); i++)
			scratch[n++] = sp_lab_kernels[i];
		break;
	case SP_WORKED:
		for (size_t i = 0; i < BE_COUNT(spills_worked); i++)
			scratch[n++] = spills_worked[i].k;
		break;
	default:
		while (n < SP_RANDOM_COUNT) {
			struct reg_kernel *k = &scratch[n++];

			k->max_threads = 1 + (int)wb_rng_below(&c->rng, 1024);
			k->min_blocks = (int)wb_rng_below(&c->rng, 33);
			k->live_regs = 1 + (int)wb_rng_below(&c->rng, 400);
			k->array_floats = wb_rng_below(&c->rng, 2) ? 0 :
					  (int)wb_rng_below(&c->rng, 4087);
			/* 32 blocks of 1024 threads leave no register a
			 * thread: the contract keeps a block that fits. */
			if ((k->min_blocks ? k->min_blocks : 1) *
			    ((k->max_threads + 31) / 32 * 32) > 8192)
				n--;
		}
	}
	/* The twins: ten more floats in the array. */
	for (int i = 0; i < n; i++) {
		scratch[n + i] = scratch[i];
		scratch[n + i].array_floats += 10;
	}
	in = wb_input(c, "kernels", 2 * (size_t)n * sizeof(*in));
	memcpy(in, scratch, 2 * (size_t)n * sizeof(*in));
	wb_output(c, "predictions", 2 * (size_t)n * sizeof(struct reg_pred));
	return 0;
}

enum { SP_KERNELS, SP_PREDS };

static size_t sp_count(const struct wb_ctx *c)
{
	return c->buf[SP_KERNELS].bytes / sizeof(struct reg_kernel) / 2;
}

int lab01_spills_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct reg_pred got[2 * SP_MAX];
	const struct reg_kernel *in = c->buf[SP_KERNELS].host;
	size_t n = 2 * sp_count(c);

	if (impl != WB_STUDENT || !spills)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct reg_kernel k = in[i];

		memset(&got[i], 0xff, sizeof(got[i]));
		spills(&k, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, SP_PREDS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

/*
 * Without the rule: what the README's rule implies of any right answer:
 * a cap a multiple of 8 or 255, no more than 255, whose registers fit
 * the SM's 65536 for the blocks asked, the largest such; a spill
 * exactly when the live values exceed it; local memory 4 bytes for each
 * value over it and each float of the array. 0, or 1 with why not.
 */
static int sp_props(const struct reg_kernel *k, const struct reg_pred *p,
		    char *why, size_t len)
{
	long threads = (long)(k->max_threads + 31) / 32 * 32 *
		       (k->min_blocks ? k->min_blocks : 1);
	int over = k->live_regs > p->cap ? k->live_regs - p->cap : 0;

	if (p->cap < 0 || p->cap > 255 || (p->cap % 8 && p->cap != 255))
		snprintf(why, len, "a cap is a multiple of 8 registers, or "
			 "255, and at most 255");
	else if ((long)p->cap * threads > 65536)
		snprintf(why, len, "%d registers for %ld threads are more than "
			 "the SM's 65536", p->cap, threads);
	else if (p->cap < 255 && (long)(p->cap + 8) * threads <= 65536)
		snprintf(why, len, "%d registers a thread still fit: the "
			 "compiler takes all it may", p->cap + 8);
	else if (p->spills != (over > 0))
		snprintf(why, len, "%d values live against a cap of %d: %s",
			 k->live_regs, p->cap, over ? "spills" : "no spill");
	else if (p->local_bytes != 4 * (over + k->array_floats))
		snprintf(why, len, "4 bytes of local memory for each value "
			 "over the cap and each float of the array: %d",
			 4 * (over + k->array_floats));
	else
		return 0;
	return 1;
}

static void sp_show(struct wb_ctx *c, const char *who,
		    const struct reg_pred *p)
{
	wb_fail(c, "  %s: cap %d registers, %s, %d bytes of local memory",
		who, p->cap, p->spills ? "spills" : "no spill",
		p->local_bytes);
}

void lab01_spills_check(struct wb_ctx *c)
{
	const struct reg_kernel *in = c->buf[SP_KERNELS].host;
	const struct reg_pred *got = c->buf[SP_PREDS].host;
	size_t n = sp_count(c), bad = 0;

	for (size_t i = 0; i < 2 * n; i++) {
		struct reg_pred w;
		const char *who = NULL;
		char why[320];
		int wrong;

		if (spills_rule) {
			spills_rule(&in[i], &w);
			who = "the rule";
		} else if (c->size->n[0] == SP_WORKED && i < n) {
			w = spills_worked[i].p;
			who = "the worked case";
		}
		if (who)
			wrong = got[i].cap != w.cap ||
				got[i].spills != w.spills ||
				got[i].local_bytes != w.local_bytes;
		else
			wrong = sp_props(&in[i], &got[i], why, sizeof(why));
		if (!wrong && !who && i >= n &&
		    (got[i].cap != got[i - n].cap ||
		     got[i].local_bytes != got[i - n].local_bytes + 40)) {
			snprintf(why, sizeof(why), "ten more floats in the "
				 "array: the same cap, 40 more bytes");
			wrong = 1;
		}
		if (!wrong || bad++ >= 3)
			continue;
		wb_fail(c, "case %zu%s: __launch_bounds__(%d, %d), %d values "
			   "live, an indexed array of %d floats", i,
			i >= n ? " (a twin)" : "", in[i].max_threads,
			in[i].min_blocks, in[i].live_regs, in[i].array_floats);
		sp_show(c, "you", &got[i]);
		if (who)
			sp_show(c, who, &w);
		else
			wb_fail(c, "  but %s", why);
	}
	if (bad)
		wb_fail(c, "%zu of %zu kernels wrong, twins included", bad,
			2 * n);
	else if (c->size->n[0] == SP_LAB)
		for (size_t i = 0; i < 3; i++)
			printf("  __launch_bounds__(%d, %d): yours %d "
			       "registers (ptxas for sm_90: %d)\n",
			       in[i].max_threads, in[i].min_blocks, got[i].cap,
			       (int[]){ 64, 96, 255 }[i]);
}
