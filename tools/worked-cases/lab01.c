/* SPDX-License-Identifier: MIT */
/*
 * lab01.c - lab 01's worked cases, with its rule's answers: branch_eff's
 * patterns and spills' kernels. Built with the lab's answers.c by
 * tools/worked-cases.sh (WORKED_LAB=1); tools/worked-cases.c's top
 * comment says what they are for.
 */
#include <stdio.h>

#include "../worked-cases.h"
#include "warps.h"

/* ---- lab 01: branch_eff ---- */

extern void (*branch_eff_rule)(const struct branch_pattern *b,
			       struct branch_pred *p);

static void pattern(FILE *f, unsigned long long n, unsigned div,
		    unsigned mod, unsigned below, int invert, int ifs)
{
	struct branch_pattern b = { n, div, mod, below, invert, ifs };
	struct branch_pred p;

	branch_eff_rule(&b, &p);
	fprintf(f, "\t{ { %lluull, %u, %u, %u, %d, %d },\n"
		   "\t  { %lluull, %lluull, %lluull, %lluull, %.17g } },\n",
		n, div, mod, below, invert, ifs, p.warps, p.branches,
		p.divergent, p.paths, p.efficiency);
}

/* ---- lab 01: spills ---- */

extern void (*spills_rule)(const struct reg_kernel *k, struct reg_pred *p);

static void reg_case(FILE *f, int threads, int blocks, int live, int array)
{
	struct reg_kernel k = { threads, blocks, live, array };
	struct reg_pred p;

	spills_rule(&k, &p);
	fprintf(f, "\t{ { %d, %d, %d, %d }, { %d, %d, %d } },\n", threads,
		blocks, live, array, p.cap, p.spills, p.local_bytes);
}

/* The README's kernels (section 16: occ_kernels.cu's three bounded
 * ones, ptxas's 64, 96 and 255), edges (a block of one thread, 32 blocks
 * of 256, a partial warp), then kernels drawn. */
static void write_spills(const char *dir, struct wb_rng *rng)
{
	FILE *f = open_out(dir, "spills_worked.h");

	header(f, "spills_worked.h", "lab 01's spills");
	fprintf(f, "struct spills_worked {\n\tstruct reg_kernel k;\n"
		   "\tstruct reg_pred p;\n};\n\n"
		   "static const struct spills_worked spills_worked[] = {\n");
	reg_case(f, 1024, 1, 96, 0);
	reg_case(f, 640, 1, 128, 0);
	reg_case(f, 256, 1, 320, 0);
	reg_case(f, 1024, 0, 96, 0);
	reg_case(f, 256, 2, 40, 16);
	reg_case(f, 1, 0, 300, 0);
	reg_case(f, 256, 32, 9, 0);
	reg_case(f, 100, 3, 200, 64);
	reg_case(f, 1000, 2, 32, 0);
	for (int i = 0; i < 20; i++) {
		int t = 1 + (int)wb_rng_below(rng, 1024);
		int b = 1 + (int)wb_rng_below(rng, 8192 / ((t + 31) / 32 * 32));

		reg_case(f, t, b > 32 ? 32 : b,
			 1 + (int)wb_rng_below(rng, 400),
			 (int)wb_rng_below(rng, 100));
	}
	fprintf(f, "};\n");
	fclose(f);
}

/* The README's patterns (section 15), at 32M threads and at 1000, each
 * as if/else and as two tests; hand-made edges (one thread, a constant
 * condition, a period longer than a warp that straddles them); then
 * patterns drawn. */
void write_cases(const char *dir, struct wb_rng *rng)
{
	FILE *f = open_out(dir, "branch_eff_worked.h");
	static const unsigned readme[][3] = {
		{ 1, 2, 1 }, { 32, 2, 1 }, { 256, 2, 1 }, { 1, 32, 24 },
		{ 3, 7, 3 }, { 16, 2, 1 }, { 1, 4, 2 }, { 8, 4, 1 },
	};

	header(f, "branch_eff_worked.h", "lab 01's branch_eff");
	fprintf(f, "struct branch_eff_worked {\n\tstruct branch_pattern b;\n"
		   "\tstruct branch_pred p;\n};\n\n"
		   "static const struct branch_eff_worked "
		   "branch_eff_worked[] = {\n");
	for (int ifs = 1; ifs <= 2; ifs++)
		for (size_t i = 0; i < COUNT(readme); i++) {
			pattern(f, 32u << 20, readme[i][0], readme[i][1],
				readme[i][2], 0, ifs);
			pattern(f, 1000, readme[i][0], readme[i][1],
				readme[i][2], 1, ifs);
		}
	pattern(f, 1, 1, 2, 1, 0, 1);
	pattern(f, 33, 1, 2, 1, 0, 2);
	pattern(f, 1000, 1, 5, 0, 0, 1);
	pattern(f, 1000, 1, 5, 5, 1, 2);
	pattern(f, 1000, 995, 2, 1, 0, 1);
	pattern(f, 100000, 40, 100, 37, 0, 2);
	pattern(f, (1ull << 39) + 7, 64, 64, 63, 0, 1);
	for (int i = 0; i < 24; i++) {
		unsigned div = 1 + (unsigned)wb_rng_below(rng, 64);
		unsigned mod = 1 + (unsigned)wb_rng_below(rng, 4096 / div);
		unsigned below = (unsigned)wb_rng_below(rng, mod + 1);
		int inv = (int)wb_rng_below(rng, 2);
		int ifs = 1 + (int)wb_rng_below(rng, 2);

		pattern(f, 1 + wb_rng_below(rng, 1ull << 30), div, mod, below,
			inv, ifs);
	}
	fprintf(f, "};\n");
	fclose(f);
	write_spills(dir, rng);
}
