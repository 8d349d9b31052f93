/* SPDX-License-Identifier: MIT */
/*
 * lab04.c - lab 04's worked cases, with its rule's answers: roofline's
 * kernels, peak's GPUs and constant's reads. Built with the lab's
 * answers.c by tools/worked-cases.sh (WORKED_LAB=4);
 * tools/worked-cases.c's top comment says what they are for.
 */
#include <math.h>
#include <stdio.h>

#include "../worked-cases.h"
#include "tiling.h"

/* ---- lab 04: roofline ---- */

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

/* ---- lab 04: constant ---- */

extern void (*constant_rule)(const struct const_read *r,
			     struct const_pred *p);

static void constant_case(FILE *f, long long base, long long step, int group,
			  int entries, int lanes)
{
	struct const_read r = { base, step, group, entries, lanes };
	struct const_pred p;

	constant_rule(&r, &p);
	fprintf(f, "\t{ { %lld, %lld, %d, %d, %d }, { %d, %d, %.17g } },\n",
		base, step, group, entries, lanes, p.passes, p.sectors,
		p.random_passes);
}

/* The README's reads (section 13: a stencil's weights, a table by lane,
 * by pairs, by half-warp, a stride of a sector, a wrap, a walk down, a
 * partial warp, a lookup by the data), the edges (one entry, the
 * largest table, the farthest base and step), then reads drawn. */
static void write_constant(const char *dir, struct wb_rng *rng)
{
	FILE *f = open_out(dir, "constant_worked.h");

	header(f, "constant_worked.h", "lab 04's constant");
	fprintf(f, "struct constant_worked {\n\tstruct const_read r;\n"
		   "\tstruct const_pred p;\n};\n\n"
		   "static const struct constant_worked constant_worked[] = {\n");
	constant_case(f, 4, 0, 1, 9, 32);
	constant_case(f, 0, 1, 1, 256, 32);
	constant_case(f, 0, 1, 2, 256, 32);
	constant_case(f, 0, 1, 16, 256, 32);
	constant_case(f, 0, 8, 1, 256, 32);
	constant_case(f, 3, 1, 1, 8, 32);
	constant_case(f, 5, -1, 1, 16, 32);
	constant_case(f, 0, 1, 1, 256, 7);
	constant_case(f, 0, 0, 1, 256, 32);
	constant_case(f, 7, 3, 1, 1, 32);
	constant_case(f, 16383, 1, 1, 16384, 32);
	constant_case(f, 1LL << 40, -((1LL << 40) - 1), 1, 16384, 32);
	constant_case(f, 9, 5, 4, 12, 30);
	for (int i = 0; i < 24; i++)
		constant_case(f, (long long)wb_rng_below(rng, 1u << 20),
			      (long long)wb_rng_below(rng, 129) - 64,
			      1 << wb_rng_below(rng, 6),
			      1 + (int)wb_rng_below(rng, 2u << wb_rng_below(rng,
									  14)),
			      1 + (int)wb_rng_below(rng, 32));
	fprintf(f, "};\n");
	fclose(f);
}

void write_cases(const char *dir, struct wb_rng *rng)
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
	write_constant(dir, rng);
}
