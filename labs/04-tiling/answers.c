/* SPDX-License-Identifier: MIT */
/*
 * answers.c - lab 04's answer key: the rules its host exercises
 * `roofline`, `peak` and `constant` are graded against. It computes exactly what the exercise asks a
 * student to write, so it is the instructor's copy only:
 *
 *   - lab.mk names it (ANSWERS) and links it into the lab where it is;
 *   - tools/handout.sh leaves every file a lab.mk names in ANSWERS out of
 *     the student handout, and tools/handout-check.sh fails a handout
 *     that holds this file, its code, or a definition of a function it
 *     defines;
 *   - without it (the handout), lab.c grades `roofline` by the worked
 *     cases in roofline_worked.h and by properties of the rule, not by
 *     the rule itself (docs/grading.md, "Prediction exercises").
 *
 * lab.c defines roofline_rule, a pointer to the rule, weak and NULL: the
 * definition at the end of this file replaces it with lab_roofline().
 * With it, every answer is checked against the rule, and so are the
 * worked cases (tools/worked-cases.sh writes them from this file).
 * Weak data, not a weak reference: the grader takes a lab object's
 * weak references for the exercises' entry points (grader/inspect/inspect.sh),
 * which a submission may define.
 */
#include <math.h>

#include "tiling.h"

/*
 * The lab's rule, as tiling.h and the README (section 11) state it.
 * FLOPs: one multiply-add (2 flops) per term of c, none in a transpose.
 * Bytes: a transpose reads and writes every element once; a matmul block
 * loads the rows of a and the columns of b its tile of c needs, all k of
 * them, and each element of c is stored once: a is read once per column
 * of tiles, b once per row of tiles. The roofline's time is the longer
 * of the FLOPs at the peak and the bytes at the bandwidth.
 */
static void lab_roofline(const struct roof_kernel *k,
			 const struct roof_gpu *g, struct roof_pred *p)
{
	double m = (double)k->m, kk = (double)k->k, n = (double)k->n;
	double tc, tm;

	if (k->op == ROOF_TRANSPOSE) {
		p->flops = 0;
		p->bytes = 8 * m * n;
	} else {
		double col_tiles = (double)((k->n + k->tile_n - 1) / k->tile_n);
		double row_tiles = (double)((k->m + k->tile_m - 1) / k->tile_m);

		p->flops = 2 * m * n * kk;
		p->bytes = 4 * (col_tiles * m * kk + row_tiles * kk * n + m * n);
	}
	p->intensity = p->flops / p->bytes;
	tc = p->flops / (g->peak_gflops * 1e3);
	tm = p->bytes / (g->bw_gbps * 1e3);
	p->compute_bound = tc > tm;
	p->time_us = p->compute_bound ? tc : tm;
	p->gflops = p->flops / (p->time_us * 1e3);
}

/*
 * peak's rule, as tiling.h and the README (section 12) state it. FP32
 * lanes per SM: 64 up to the A100 (sm_70 to sm_80), 128 from sm_86 on.
 * FP64: half the FP32 rate on the data-center chips (sm_70, sm_80,
 * sm_90), 1/32 on Turing (sm_75), 1/64 on the consumer chips since
 * (sm_86, sm_89, sm_120).
 * The peak is a fused multiply-add (2 flops) per lane per clock; the
 * bandwidth 2 transfers per memory clock over the bus, in bytes; the
 * ridge their ratio; the attainable rate the lower of the peak and the
 * bandwidth times the intensity.
 */
static void lab_peak(const struct peak_gpu *g, double intensity,
		     struct peak_pred *p)
{
	double slope;

	p->lanes = g->cc <= 80 ? 64 : 128;
	p->peak_gflops = 2.0 * p->lanes * g->sms * g->clock_mhz / 1e3;
	p->bw_gbps = 2.0 * g->mem_clock_mhz * 1e6 * (g->bus_bits / 8.0) / 1e9;
	p->ridge = p->peak_gflops / p->bw_gbps;
	slope = intensity * p->bw_gbps;
	p->gflops = slope < p->peak_gflops ? slope : p->peak_gflops;
	if (g->cc == 70 || g->cc == 80 || g->cc == 90)
		p->fp64_gflops = p->peak_gflops / 2;
	else
		p->fp64_gflops = p->peak_gflops / (g->cc == 75 ? 32 : 64);
}

void (*peak_rule)(const struct peak_gpu *g, double intensity,
		  struct peak_pred *p) = lab_peak;

/*
 * constant's rule, as tiling.h and the README (section 13) state it. The
 * constant cache serves one address per pass and broadcasts it to every
 * lane that asked for it: the passes are the distinct elements the
 * active lanes read. The same read from global memory costs the distinct
 * 32-byte sectors, 8 elements each from the table's aligned start. The
 * expected distinct entries of `lanes` independent uniform draws from
 * `entries`: each entry is missed by all with chance (1 - 1/entries) to
 * the power lanes; the sum of the chances it is hit (log1p and expm1
 * keep the digits where 1/entries is small).
 */
static void lab_constant(const struct const_read *r, struct const_pred *p)
{
	unsigned char hit[16384] = { 0 }, sec[16384 / 8] = { 0 };
	long long e = r->base % r->entries, d = r->step % r->entries;

	p->passes = p->sectors = 0;
	for (int t = 0; t < r->lanes; t++) {
		/* index(t), stepped group by group, kept in 0 .. entries-1 */
		long long i = ((e + (long long)(t / r->group) % r->entries * d) %
			       r->entries + r->entries) % r->entries;

		p->passes += !hit[i];
		p->sectors += !sec[i / 8];
		hit[i] = sec[i / 8] = 1;
	}
	p->random_passes = -r->entries *
			   expm1(r->lanes * log1p(-1.0 / r->entries));
}

void (*constant_rule)(const struct const_read *r,
		      struct const_pred *p) = lab_constant;

/* What lab.c calls: its weak, empty roofline_rule is replaced by this one. */
void (*roofline_rule)(const struct roof_kernel *k, const struct roof_gpu *g,
		      struct roof_pred *p) = lab_roofline;
