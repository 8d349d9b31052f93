/* SPDX-License-Identifier: MIT */
/*
 * worked-cases.c - the worked cases of a lab's prediction exercise, with
 * the answers of the lab's rule (its answers.c), as a C header the lab's
 * lab.c includes. Built and run by tools/worked-cases.sh, once per lab:
 *
 *   cc -DWORKED_LAB=3 -Ilabs/03-coalescing ... worked-cases.c \
 *      labs/03-coalescing/answers.c common/rng.c
 *   ./worked-cases DIR        writes DIR/sectors_worked.h
 *
 * WORKED_LAB picks the lab: 1 (branch_eff), 3 (sectors, inflight), 4
 * (roofline, peak), 7 (passes). The
 * cases are the README's worked examples, the lab's own kernels and
 * chains at some of their shapes, the edges the groups of lab.c reach,
 * and loads, kernels or chains drawn from a fixed seed. The header ships
 * in the student handout, where no rule is linked: there these answers
 * are the exact check (docs/grading.md, "Prediction exercises"), so they
 * must be enough to catch the mistakes of tests/broken/ (make test's
 * handout section grades those there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

/* Each header's comment, after its first line. */
static const char header_text[] =
	" * with the answers of the lab's rule. Written from the rule\n"
	" * (the instructor's answers.c) by tools/worked-cases.sh: do not\n"
	" * edit. lab.c asks them as the group \"worked\" and checks them\n"
	" * exactly, with or without the rule (docs/grading.md,\n"
	" * \"Prediction exercises\").\n"
	" */\n";

static void header(FILE *f, const char *name, const char *ex)
{
	fprintf(f, "/* SPDX-License-Identifier: MIT */\n/*\n"
		   " * %s - the worked cases of %s,\n%s", name, ex,
		header_text);
}

/* DIR/NAME for writing, or exit 2. */
static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	return f;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#if WORKED_LAB == 1
/* ---- lab 01: branch_eff ---- */
#include "warps.h"

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
static void write_cases(const char *dir, struct wb_rng *rng)
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

#elif WORKED_LAB == 3
/* ---- lab 03: sectors ---- */
#include "coalescing.h"

extern int (*sectors_rule)(const struct warp_load *w);

static void load(FILE *f, long long addr, long long stride, int elem,
		 int lanes)
{
	struct warp_load w = { addr, stride, elem, lanes };

	fprintf(f, "\t{ { %lld, %lld, %d, %d }, %d },\n", addr, stride, elem,
		lanes, sectors_rule(&w));
}

/* The README's table (section 12): one step of each kernel. */
static void readme_loads(FILE *f)
{
	load(f, 0, 8192, 4, 32);	/* naive matvec, A */
	load(f, 0, 0, 4, 32);		/* naive matvec, x */
	load(f, 0, 1024, 4, 32);	/* naive mean_dim0 */
	load(f, 0, 1, 4, 32);		/* a thread per output */
	load(f, 0, 1, 16, 32);		/* the same, float4 */
	for (int c = 0; c < 3; c++) {
		load(f, c, 3, 1, 32);	/* naive grayscale, R G B */
		load(f, 16 * c, 3, 16, 32); /* 16 pixels a thread */
	}
}

/* The lab's kernels at a few checked shapes: first and last warp (a
 * partial one), first and last step. */
static void kernel_loads(FILE *f)
{
	static const long long mv[][2] = { { 31, 33 }, { 33, 31 }, { 5, 4097 },
					   { 1000, 3 } };
	static const long long mean[][3] = { { 7, 33, 31 }, { 3, 1023, 1025 } };

	for (size_t s = 0; s < COUNT(mv); s++) {
		long long m = mv[s][0], n = mv[s][1];
		long long r0[2] = { 0, (m - 1) / 32 * 32 };
		long long js[2] = { 0, n - 1 };

		long long j0 = (n - 1) / 32 * 32;

		for (int w = 0; w < 2; w++) {
			long long left = m - r0[w];

			/* naive: a row a lane */
			for (int j = 0; j < 2; j++)
				load(f, (r0[w] * n + js[j]) * 4, n, 4,
				     left < 32 ? (int)left : 32);
			/* a warp per row: its last, partial step */
			load(f, (r0[w] * n + j0) * 4, 1, 4, (int)(n - j0));
		}
	}
	for (size_t s = 0; s < COUNT(mean); s++) {
		long long l = mean[s][1], m = mean[s][2], lm = l * m;
		long long i0 = (l - 1) / 32 * 32;

		load(f, (i0 * m + m - 1) * 4, m, 4, (int)(l - i0));
		/* a thread per output: slice 1, misaligned */
		load(f, (lm + 32) * 4, 1, 4, 32);
	}
	/* grayscale at 17 pixels, 4 a thread */
	for (int c = 0; c < 3; c++)
		load(f, c * 4, 3, 4, 4);
}

/* Consecutive and every-other elements from many aligned starts. */
static void offset_loads(FILE *f)
{
	for (int a = 0; a < 128; a += 4)
		load(f, a, 1, 4, 32);
	for (int a = 0; a < 32; a += 3)
		load(f, a, 1, 1, 32);
	for (int a = 0; a < 128; a += 16)
		load(f, a, 1, 16, 32);
	for (int a = 0; a < 128; a += 8)
		load(f, a, 2, 8, 32);
}

/* Partial warps of patterns that pack, spill over a sector, stride and
 * broadcast; one field of structures. */
static void partial_loads(FILE *f)
{
	static const struct warp_load pats[] = {
		{ 0, 1, 4, 0 }, { 4, 1, 4, 0 }, { 124, 1, 4, 0 },
		{ 0, 8, 4, 0 }, { 16, 1, 16, 0 }, { 3, 3, 1, 0 },
		{ 40, 0, 8, 0 }, { 0, 0, 16, 0 },
	};
	static const int lanes[] = { 1, 2, 7, 8, 9, 16, 17, 31, 32 };
	static const int widths[] = { 1, 2, 4, 8, 16 };
	static const long long strides[] = { 2, 3, 8, 9, 33, 1000 };

	for (size_t p = 0; p < COUNT(pats); p++)
		for (size_t n = 0; n < COUNT(lanes); n++)
			load(f, pats[p].addr, pats[p].stride,
			     pats[p].elem_bytes, lanes[n]);
	for (size_t e = 0; e < COUNT(widths); e++)
		for (size_t s = 0; s < COUNT(strides); s++) {
			load(f, 0, strides[s], widths[e], 32);
			load(f, 7 * 128 + (strides[s] - 1) * widths[e],
			     strides[s], widths[e], 32);
		}
}

/* Lanes walking down, the lowest lane 7 elements up. */
static void reversed_loads(FILE *f)
{
	static const long long strides[] = { -1, -2, -3, -8, -33 };
	static const int lanes[] = { 32, 17, 1 }, widths[] = { 1, 4, 16 };

	for (size_t s = 0; s < COUNT(strides); s++)
		for (size_t e = 0; e < COUNT(widths); e++)
			for (size_t n = 0; n < COUNT(lanes); n++)
				load(f, ((lanes[n] - 1) * -strides[s] + 7) *
					     widths[e],
				     strides[s], widths[e], lanes[n]);
}

/* Loads the contract allows, as lab.c's random group draws them. */
static void random_loads(FILE *f, struct wb_rng *rng)
{
	static const int widths[] = { 1, 2, 4, 8, 16 };

	for (int i = 0; i < 100; i++) {
		int w = widths[wb_rng_below(rng, COUNT(widths))];
		int lanes = 1 + (int)wb_rng_below(rng, 32);
		long long stride;

		switch (wb_rng_below(rng, 4)) {
		case 0: stride = (long long)wb_rng_below(rng, 5); break;
		case 1: stride = -(long long)wb_rng_below(rng, 9); break;
		case 2: stride = (long long)wb_rng_below(rng, 71) - 35; break;
		default: stride = (long long)wb_rng_below(rng, 1u << 20);
		}
		load(f, ((stride < 0 ? (lanes - 1) * -stride : 0) +
			 (long long)wb_rng_below(rng, 4096)) * w,
		     stride, w, lanes);
	}
}

/* ---- lab 03: inflight ---- */

extern void (*inflight_rule)(const struct mem_system *s,
			     struct inflight_pred *p);

static void system_case(FILE *f, double lat, double bw, int sms,
			int threads, int bytes, int loads)
{
	struct mem_system s = { lat, bw, sms, threads, bytes, loads };
	struct inflight_pred p;

	inflight_rule(&s, &p);
	fprintf(f, "\t{ { %.17g, %.17g, %d, %d, %d, %d },\n"
		   "\t  { %.17g, %.17g, %d, %.17g, %.17g } },\n", lat, bw,
		sms, threads, bytes, loads, p.need_bytes, p.need_per_sm,
		p.need_loads, p.have_bytes, p.gbps);
}

/* The README's H100 SXM and T4 (section 17) with the lab's loads, then
 * hand-made edges (one SM of one thread, a load per thread that is
 * exactly enough), then systems drawn. */
static void write_inflight(const char *dir, struct wb_rng *rng)
{
	static const int kernels[][3] = {
		{ 2048, 4, 1 }, { 2048, 16, 1 }, { 2048, 16, 4 },
		{ 1024, 4, 1 }, { 1024, 16, 2 }, { 256, 4, 1 },
	};
	FILE *f = open_out(dir, "inflight_worked.h");

	header(f, "inflight_worked.h", "lab 03's inflight");
	fprintf(f, "struct inflight_worked {\n\tstruct mem_system s;\n"
		   "\tstruct inflight_pred p;\n};\n\n"
		   "static const struct inflight_worked inflight_worked[] = {\n");
	for (size_t k = 0; k < COUNT(kernels); k++)
		system_case(f, 700, 3352, 132, kernels[k][0], kernels[k][1],
			    kernels[k][2]);
	for (size_t k = 0; k < COUNT(kernels); k++)
		system_case(f, 700, 320, 40, kernels[k][0], kernels[k][1],
			    kernels[k][2]);
	system_case(f, 1000, 1, 1, 1, 1, 1);
	system_case(f, 1000, 2, 1, 1, 1, 1);
	system_case(f, 500, 64, 2, 32, 16, 1);
	system_case(f, 100, 9999, 256, 2048, 16, 16);
	for (int i = 0; i < 20; i++)
		system_case(f, 100 + (double)wb_rng_below(rng, 1900),
			    50 + (double)wb_rng_below(rng, 9950),
			    1 + (int)wb_rng_below(rng, 256),
			    32 * (1 + (int)wb_rng_below(rng, 64)),
			    1 << wb_rng_below(rng, 5),
			    1 + (int)wb_rng_below(rng, 16));
	fprintf(f, "};\n");
	fclose(f);
}

static void write_cases(const char *dir, struct wb_rng *rng)
{
	FILE *f = open_out(dir, "sectors_worked.h");

	header(f, "sectors_worked.h", "lab 03's sectors");
	fprintf(f, "struct sec_worked {\n\tstruct warp_load w;\n"
		   "\tint sectors;\n};\n\n"
		   "static const struct sec_worked sec_worked[] = {\n");
	readme_loads(f);
	kernel_loads(f);
	offset_loads(f);
	partial_loads(f);
	reversed_loads(f);
	random_loads(f, rng);
	fprintf(f, "};\n");
	fclose(f);
	write_inflight(dir, rng);
}

#elif WORKED_LAB == 4
/* ---- lab 04: roofline ---- */
#include <math.h>

#include "tiling.h"

extern void (*roofline_rule)(const struct roof_kernel *k,
			     const struct roof_gpu *g, struct roof_pred *p);

/* lab.c's data sheets: T4, RTX 4090, A100, H100 PCIe, H100 SXM, H200. */
static const struct roof_gpu sheets[] = {
	{ 8141, 320 }, { 82580, 1008 }, { 19500, 2039 },
	{ 51220, 2039 }, { 66910, 3352 }, { 66910, 4800 },
};

/* Within this share of the ridge the bound is a rounding's choice:
 * no worked case lies there (lab.c accepts either within 1e-9). */
#define RIDGE_MARGIN 1e-6

static int near_ridge(const struct roof_gpu *g, const struct roof_pred *p)
{
	double tc = p->flops / (g->peak_gflops * 1e3);
	double tm = p->bytes / (g->bw_gbps * 1e3);

	return fabs(tc - tm) <= RIDGE_MARGIN * (tc > tm ? tc : tm);
}

static int kernel(FILE *f, int op, unsigned long long m, unsigned long long k,
		  unsigned long long n, unsigned long long tm,
		  unsigned long long tn, const struct roof_gpu *g)
{
	struct roof_kernel rk = { op, m, k, n, tm, tn };
	struct roof_pred p;

	roofline_rule(&rk, g, &p);
	if (near_ridge(g, &p))
		return 0;
	fprintf(f, "\t{ { %s, %llu, %llu, %llu, %llu, %llu },"
		   " { %.17g, %.17g },\n"
		   "\t  { %.17g, %.17g, %.17g, %d, %.17g, %.17g } },\n",
		op == ROOF_MATMUL ? "ROOF_MATMUL" : "ROOF_TRANSPOSE", m, k, n,
		tm, tn, g->peak_gflops, g->bw_gbps, p.flops, p.bytes,
		p.intensity, p.compute_bound, p.time_us, p.gflops);
	return 1;
}

/* The lab's four matmul kernels at five of its shapes, and its transpose
 * at three, on every data sheet's GPU: the README's table among them. */
static void lab_kernels(FILE *f)
{
	static const unsigned long long tiles[] = { 1, 16, 64, 128 };
	static const unsigned long long mm[][3] = {
		{ 4096, 4096, 4096 }, { 1000, 1001, 999 }, { 255, 1000, 257 },
		{ 129, 8, 127 }, { 1, 515, 257 },
	};
	static const unsigned long long tp[][2] = {
		{ 8192, 8192 }, { 2047, 2053 }, { 1, 33 },
	};

	for (size_t g = 0; g < COUNT(sheets); g++) {
		for (size_t s = 0; s < COUNT(mm); s++)
			for (size_t t = 0; t < COUNT(tiles); t++)
				kernel(f, ROOF_MATMUL, mm[s][0], mm[s][1],
				       mm[s][2], tiles[t], tiles[t],
				       &sheets[g]);
		for (size_t s = 0; s < COUNT(tp); s++)
			kernel(f, ROOF_TRANSPOSE, tp[s][0], 1, tp[s][1], 1, 1,
			       &sheets[g]);
	}
}

/* lab.c's hand-made group: tiles wider or taller than the matrix, of one
 * row or column, k = 1, one element, the largest extents, the ridge. */
static void edges(FILE *f)
{
	const struct roof_gpu *h100 = &sheets[4], *t4 = &sheets[0];

	kernel(f, ROOF_MATMUL, 100, 300, 50, 128, 128, h100);
	kernel(f, ROOF_MATMUL, 4096, 4096, 4096, 128, 64, h100);
	kernel(f, ROOF_MATMUL, 4096, 4096, 4096, 64, 256, t4);
	kernel(f, ROOF_MATMUL, 33, 4096, 4096, 1, 256, h100);
	kernel(f, ROOF_MATMUL, 4096, 4096, 33, 256, 1, h100);
	kernel(f, ROOF_MATMUL, 4096, 1, 4096, 128, 128, h100);
	kernel(f, ROOF_MATMUL, 1, 1, 1, 1, 1, t4);
	kernel(f, ROOF_MATMUL, 1, 1, 1, 128, 128, h100);
	kernel(f, ROOF_MATMUL, 1000000, 1000, 1000, 128, 128, h100);
	kernel(f, ROOF_MATMUL, 1000, 1000000, 1000, 32, 32, t4);
	kernel(f, ROOF_MATMUL, 1000, 1000, 1000000, 1000, 7, t4);
	kernel(f, ROOF_MATMUL, 100, 64, 1000, 7, 1000, h100);
	kernel(f, ROOF_TRANSPOSE, 1, 1, 1, 1, 1, t4);
	kernel(f, ROOF_TRANSPOSE, 1000000, 1, 2000, 32, 32, h100);
	kernel(f, ROOF_MATMUL, 4096, 4096, 4096, 96, 96, h100);
}

/* Up to 2^k with k below `bits`, or below 1000, as lab.c draws them. */
static unsigned long long draw(struct wb_rng *rng, int bits)
{
	return wb_rng_below(rng, 2) ? 1 + wb_rng_below(rng, 1000) :
				      1ull << wb_rng_below(rng, (uint64_t)bits);
}

static void random_kernels(FILE *f, struct wb_rng *rng)
{
	int n = 0;

	while (n < 60) {
		struct roof_gpu g = {
			100 + wb_rng_unit(rng) * 199900,
			50 + wb_rng_unit(rng) * 9950,
		};
		int op = wb_rng_below(rng, 8) ? ROOF_MATMUL : ROOF_TRANSPOSE;
		unsigned long long m = draw(rng, 17), k = draw(rng, 17);
		unsigned long long nn = draw(rng, 17), tm = draw(rng, 10);

		n += kernel(f, op, m, k, nn, tm, draw(rng, 10), &g);
	}
}

/* ---- lab 04: peak ---- */

extern void (*peak_rule)(const struct peak_gpu *g, double intensity,
			 struct peak_pred *p);

static void peak_case(FILE *f, int cc, int sms, double clock,
		      double mem_clock, int bus, double intensity)
{
	struct peak_gpu g = { cc, sms, clock, mem_clock, bus };
	struct peak_pred p;

	peak_rule(&g, intensity, &p);
	fprintf(f, "\t{ { %d, %d, %.17g, %.17g, %d }, %.17g,\n"
		   "\t  { %d, %.17g, %.17g, %.17g, %.17g, %.17g } },\n", cc,
		sms, clock, mem_clock, bus, intensity, p.lanes, p.peak_gflops,
		p.bw_gbps, p.ridge, p.gflops, p.fp64_gflops);
}

/* The README's GPUs (section 12: T4, RTX 4090, A100, H100 PCIe and
 * SXM, as their drivers report them) at the lab's intensities, then one
 * GPU of every compute capability lab.c draws, then GPUs drawn. */
static void write_peak(const char *dir, struct wb_rng *rng)
{
	static const struct peak_gpu gpus[] = {
		{ 75, 40, 1590, 5001, 256 }, { 89, 128, 2520, 10501, 384 },
		{ 80, 108, 1410, 1593, 5120 }, { 90, 114, 1755, 1593, 5120 },
		{ 90, 132, 1980, 2619, 5120 },
	};
	static const int ccs[] = { 70, 75, 80, 86, 89, 90, 120 };
	static const double in[] = { 0.25, 3.99, 15.9, 31.5, 682.7 };
	FILE *f = open_out(dir, "peak_worked.h");

	header(f, "peak_worked.h", "lab 04's peak");
	fprintf(f, "struct peak_worked {\n\tstruct peak_gpu g;\n"
		   "\tdouble intensity;\n\tstruct peak_pred p;\n};\n\n"
		   "static const struct peak_worked peak_worked[] = {\n");
	for (size_t i = 0; i < COUNT(gpus); i++)
		for (size_t j = 0; j < COUNT(in); j++)
			peak_case(f, gpus[i].cc, gpus[i].sms, gpus[i].clock_mhz,
				  gpus[i].mem_clock_mhz, gpus[i].bus_bits,
				  in[j]);
	for (size_t i = 0; i < COUNT(ccs); i++)
		peak_case(f, ccs[i], 1, 1000, 1000, 32, 1);
	for (int i = 0; i < 20; i++)
		peak_case(f, ccs[wb_rng_below(rng, COUNT(ccs))],
			  1 + (int)wb_rng_below(rng, 256),
			  300 + (int)wb_rng_below(rng, 2700),
			  400 + (int)wb_rng_below(rng, 12000),
			  32 << wb_rng_below(rng, 8),
			  0.01 * (double)(1 + wb_rng_below(rng, 100000)));
	fprintf(f, "};\n");
	fclose(f);
}

static void write_cases(const char *dir, struct wb_rng *rng)
{
	FILE *f = open_out(dir, "roofline_worked.h");

	header(f, "roofline_worked.h", "lab 04's roofline");
	fprintf(f, "struct roof_worked {\n\tstruct roof_kernel k;\n"
		   "\tstruct roof_gpu g;\n\tstruct roof_pred p;\n};\n\n"
		   "static const struct roof_worked roof_worked[] = {\n");
	lab_kernels(f);
	edges(f);
	random_kernels(f, rng);
	fprintf(f, "};\n");
	fclose(f);
	write_peak(dir, rng);
}

#elif WORKED_LAB == 7
/* ---- lab 07: passes ---- */
#include "fusion.h"

extern void (*passes_rule)(const struct chain *ch, struct chain_bytes *eager,
			   struct chain_bytes *fused);

/* Appends kernel (in..., out...) to ch; -1 ends each list. */
static void kernel_add(struct chain *ch, const int *in, const int *out)
{
	struct chain_kernel *k = &ch->k[ch->nkernels++];

	k->nin = k->nout = 0;
	while (*in >= 0)
		k->in[k->nin++] = *in++;
	while (*out >= 0)
		k->out[k->nout++] = *out++;
}

static int buf(struct chain *ch, unsigned long long floats, int result)
{
	ch->floats[ch->nbufs] = floats;
	ch->result[ch->nbufs] = result;
	return ch->nbufs++;
}

#define K(ch, ins, outs) kernel_add(ch, (const int[])ins, (const int[])outs)
#define L(...) { __VA_ARGS__, -1 }
#define NONE { -1 }

/* One chain and the rule's bytes, as an initializer. */
static void chain(FILE *f, const struct chain *ch)
{
	struct chain_bytes e, u;

	passes_rule(ch, &e, &u);
	fprintf(f, "\t{ { %d, %d, {", ch->nbufs, ch->nkernels);
	for (int b = 0; b < ch->nbufs; b++)
		fprintf(f, "%s%llu", b ? ", " : " ", ch->floats[b]);
	fprintf(f, " },\n\t    {");
	for (int b = 0; b < ch->nbufs; b++)
		fprintf(f, "%s%d", b ? ", " : " ", ch->result[b]);
	fprintf(f, " },\n\t    {");
	for (int i = 0; i < ch->nkernels; i++) {
		const struct chain_kernel *k = &ch->k[i];

		fprintf(f, "%s{ %d, %d, {", i ? ",\n\t      " : " ", k->nin,
			k->nout);
		for (int a = 0; a < k->nin; a++)
			fprintf(f, "%s%d", a ? ", " : " ", k->in[a]);
		fprintf(f, "%s}, {", k->nin ? " " : " 0 ");
		for (int a = 0; a < k->nout; a++)
			fprintf(f, "%s%d", a ? ", " : " ", k->out[a]);
		fprintf(f, " } }");
	}
	fprintf(f, " } },\n\t  { %llu, %llu }, { %llu, %llu } },\n", e.read,
		e.write, u.read, u.write);
}

/* naive.cu's nine gelu kernels over x into y (lab.c's chain_gelu_on). */
static void gelu_on(struct chain *ch, int x, unsigned long long n, int y)
{
	int t = buf(ch, n, 0), u = buf(ch, n, 0);

	K(ch, L(x), L(t));
	K(ch, L(t, x), L(t));
	K(ch, L(t), L(t));
	K(ch, L(x, t), L(t));
	K(ch, L(t), L(t));
	K(ch, L(t), L(t));
	K(ch, L(t), L(t));
	K(ch, L(x), L(u));
	K(ch, L(u, t), L(y));
}

/* naive.cu's four chains at their benchmark shapes and a small one. */
static void lab_chains(FILE *f)
{
	typedef unsigned long long u64;
	static const u64 gelu_n[] = { 64u << 20, 1, 33, 1000003 };
	static const u64 rc[][2] = { { 8192, 8192 }, { 5, 3 } };
	static const u64 add[][2] = { { 16384, 4096 }, { 3, 1 } };
	static const u64 sm[][2] = { { 16384, 4096 }, { 7, 31 } };
	struct chain ch;
	int x, b, h, y, res, w, m, sums;

	for (size_t s = 0; s < COUNT(gelu_n); s++) {
		memset(&ch, 0, sizeof(ch));
		x = buf(&ch, gelu_n[s], 0);
		y = buf(&ch, gelu_n[s], 1);
		gelu_on(&ch, x, gelu_n[s], y);
		chain(f, &ch);
	}
	for (size_t s = 0; s < 2; s++) {
		unsigned long long r = rc[s][0], c = rc[s][1];

		memset(&ch, 0, sizeof(ch));
		x = buf(&ch, r * c, 0);
		b = buf(&ch, c, 0);
		h = buf(&ch, r * c, 0);
		y = buf(&ch, r * c, 1);
		K(&ch, L(x, b), L(h));
		gelu_on(&ch, h, r * c, y);
		chain(f, &ch);

		r = add[s][0], c = add[s][1];
		memset(&ch, 0, sizeof(ch));
		x = buf(&ch, r * c, 0);
		res = buf(&ch, r * c, 1);
		w = buf(&ch, c, 0);
		y = buf(&ch, r * c, 1);
		K(&ch, L(res, x), L(res));
		K(&ch, L(res, w), L(y));
		chain(f, &ch);

		r = sm[s][0], c = sm[s][1];
		memset(&ch, 0, sizeof(ch));
		x = buf(&ch, r * c, 0);
		m = buf(&ch, r, 0);
		sums = buf(&ch, r, 0);
		y = buf(&ch, r * c, 1);
		K(&ch, L(x), L(m));
		K(&ch, L(x, m), L(y, sums));
		K(&ch, L(y, sums), L(y));
		chain(f, &ch);
	}
}

/* lab.c's hand-made chains: a result read again, an input updated in
 * place, a buffer written twice, an input read by three kernels, an
 * intermediate of another size, a buffer nobody uses, a fill. */
static void hand_made(FILE *f)
{
	struct chain ch[7];
	int a, b, t, y, z;

	memset(ch, 0, sizeof(ch));
	a = buf(&ch[0], 1000, 0);
	y = buf(&ch[0], 1000, 1);
	K(&ch[0], L(a), L(y));
	K(&ch[0], L(y), L(y));
	a = buf(&ch[1], 4096, 1);
	b = buf(&ch[1], 64, 0);
	K(&ch[1], L(a, b), L(a));
	K(&ch[1], L(a), L(a));
	a = buf(&ch[2], 33, 0);
	y = buf(&ch[2], 33, 1);
	K(&ch[2], L(a), L(y));
	K(&ch[2], L(a), L(y));
	a = buf(&ch[3], 1u << 20, 0);
	y = buf(&ch[3], 1, 1);
	z = buf(&ch[3], 1, 1);
	t = buf(&ch[3], 1, 0);
	K(&ch[3], L(a), L(t));
	K(&ch[3], L(a, t), L(y));
	K(&ch[3], L(a, t), L(z));
	a = buf(&ch[4], 7, 0);
	t = buf(&ch[4], 7 * 5, 0);
	y = buf(&ch[4], 5, 1);
	K(&ch[4], L(a), L(t));
	K(&ch[4], L(t), L(y));
	a = buf(&ch[5], 100, 0);
	buf(&ch[5], 1u << 30, 0);
	y = buf(&ch[5], 100, 1);
	K(&ch[5], L(a), L(y));
	y = buf(&ch[6], 12345, 1);
	t = buf(&ch[6], 12345, 0);
	K(&ch[6], NONE, L(t));
	K(&ch[6], L(t), L(y));
	for (int i = 0; i < 7; i++)
		chain(f, &ch[i]);
}

/* A chain the contract allows, as lab.c's random group draws them. */
static void random_chain(struct chain *ch, struct wb_rng *rng)
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
	if (!any)
		ch->result[ch->k[ch->nkernels - 1].out[0]] = 1;
}

static void write_cases(const char *dir, struct wb_rng *rng)
{
	FILE *f = open_out(dir, "passes_worked.h");
	struct chain ch;

	header(f, "passes_worked.h", "lab 07's passes");
	fprintf(f, "struct pass_worked {\n\tstruct chain ch;\n"
		   "\tstruct chain_bytes eager, fused;\n};\n\n"
		   "static const struct pass_worked pass_worked[] = {\n");
	lab_chains(f);
	hand_made(f);
	for (int i = 0; i < 40; i++) {
		random_chain(&ch, rng);
		chain(f, &ch);
	}
	fprintf(f, "};\n");
	fclose(f);
}

#else
#error "WORKED_LAB: 1, 3, 4 or 7 (tools/worked-cases.sh sets it)"
#endif

int main(int argc, char **argv)
{
	struct wb_rng rng;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	wb_rng_seed(&rng, 20261201u + WORKED_LAB);
	write_cases(argv[1], &rng);
	return 0;
}
