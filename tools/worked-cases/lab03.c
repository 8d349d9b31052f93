/* SPDX-License-Identifier: MIT */
/*
 * lab03.c - lab 03's worked cases, with its rule's answers: sectors'
 * warp loads and inflight's memory systems. Built with the lab's
 * answers.c by tools/worked-cases.sh (WORKED_LAB=3);
 * tools/worked-cases.c's top comment says what they are for.
 */
#include <stdio.h>

#include "../worked-cases.h"
#include "coalescing.h"

/* ---- lab 03: sectors ---- */

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

void write_cases(const char *dir, struct wb_rng *rng)
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
