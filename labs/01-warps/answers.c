/* SPDX-License-Identifier: MIT */
/*
 * answers.c - lab 01's answer key: the rules its host exercises
 * `branch_eff` and `spills` are graded against. It computes exactly
 * what the exercises ask a student to write, so it is the instructor's copy only, as lab
 * 03's and lab 04's keys are (labs/04-tiling/answers.c says how the
 * handout does without it: the worked cases of branch_eff_worked.h and
 * spills_worked.h, and properties of the rules).
 */
#include "warps.h"

/* Does thread t take the branch? */
static int lab_taken(const struct branch_pattern *b, unsigned long long t)
{
	return ((t / b->div) % b->mod < b->below) != (b->invert != 0);
}

/* Do the active lanes of warp w disagree? */
static int lab_splits(const struct branch_pattern *b, unsigned long long w)
{
	int seen[2] = { 0, 0 };

	for (unsigned long long t = 32 * w; t < 32 * w + 32 && t < b->n; t++)
		seen[lab_taken(b, t)] = 1;
	return seen[0] && seen[1];
}

static unsigned long long lab_gcd(unsigned long long a, unsigned long long b)
{
	while (b) {
		unsigned long long r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * The README's rule (section 15): a warp splits when its active lanes
 * disagree; the pattern repeats every div x mod threads, so the warps
 * repeat every lcm(32, div x mod) / 32 warps. Whole repeats are counted
 * once and multiplied; the rest, and the last warp, which may be
 * partial, are counted one by one. Each warp executes one branch per
 * test, and a split warp splits at each; it runs both bodies either way.
 * Branch efficiency is ncu's: the uniform branches' share.
 */
static void lab_branch_eff(const struct branch_pattern *b,
			   struct branch_pred *p)
{
	unsigned long long period = (unsigned long long)b->div * b->mod;
	unsigned long long q = period / lab_gcd(period, 32); /* warps */
	unsigned long long full, per = 0, rest = 0;

	p->warps = (b->n + 31) / 32;
	full = p->warps - 1; /* every warp but the last is whole */
	for (unsigned long long w = 0; w < q && w < full; w++)
		per += lab_splits(b, w);
	for (unsigned long long w = full / q * q; w < full; w++)
		rest += lab_splits(b, w);
	per = (full / q) * per + rest + lab_splits(b, p->warps - 1);
	p->branches = (unsigned long long)b->ifs * p->warps;
	p->divergent = (unsigned long long)b->ifs * per;
	p->paths = p->warps + per;
	p->efficiency = 100.0 * (double)(p->branches - p->divergent) /
			(double)p->branches;
}

/*
 * spills' rule (README, section 16; section 7 states the cap): 65536
 * registers per SM shared by min_blocks blocks of max_threads threads,
 * the threads counted in whole warps, rounded down to the allocation
 * unit of 8 and to at most 255 a thread; with no min_blocks, one block.
 * What is live beyond the cap spills, 4 bytes a value; a runtime-indexed
 * array lives in local memory whatever the cap.
 */
static void lab_spills(const struct reg_kernel *k, struct reg_pred *p)
{
	int blocks = k->min_blocks ? k->min_blocks : 1;
	int threads = (k->max_threads + 31) / 32 * 32;
	int cap = 65536 / (blocks * threads) / 8 * 8;
	int over;

	p->cap = cap > 255 ? 255 : cap;
	over = k->live_regs > p->cap ? k->live_regs - p->cap : 0;
	p->spills = over > 0;
	p->local_bytes = 4 * (over + k->array_floats);
}

void (*spills_rule)(const struct reg_kernel *k,
		    struct reg_pred *p) = lab_spills;

/* What lab.c calls: its weak, empty branch_eff_rule is replaced by this
 * one. */
void (*branch_eff_rule)(const struct branch_pattern *b,
			struct branch_pred *p) = lab_branch_eff;
