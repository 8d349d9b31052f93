/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 7: compare                    (you edit this file only)
 *
 * Task: read two versions of one task side by side, as Nsight Compute's
 * baseline shows them (README, section 16): how much faster the second
 * is, how each figure moved, where each version sits on the roofline,
 * and against which DRAM peak its throughput was measured. The pairs
 * are real: the ladders of labs 01 to 07 (naive, steps, solution),
 * recorded on an H100; then pairs drawn around them. Plain host C: no
 * GPU, no CUDA call.
 *
 *     speedup      v[0].time_ns / v[1].time_ns
 *     change[f]    100 (v[1]'s f - v[0]'s f) / v[0]'s f, in %, for each
 *                  figure of enum cmp_figure (fusion.h)
 *     gbps         dram_bytes / time_ns (a byte a nanosecond is a GB/s)
 *     peak_gbps    the DRAM peak of which gbps is dram_pct percent
 *     intensity    flops / dram_bytes: the task's flops over the bytes
 *                  this version moved from and to DRAM
 *     gflops       flops / time_ns
 *     faster_left  1 when the faster version moved left of the slower:
 *                  its intensity under 0.9 times the slower's
 *
 * Contract
 *   p    struct cmp_pair in fusion.h: two versions of the same task on
 *        the same GPU, v[0] the baseline. A ratio whose denominator is 0
 *        is 0 (no flops counted: intensity and GFLOP/s 0).
 *   Fill every field of *a. The numbers are checked to 1e-9 relative
 *   (1e-9 absolute below 1), faster_left exactly. No drawn pair has two
 *   times within 1e-9 of each other, nor an intensity within 1e-9 of
 *   0.9 times the other's.
 *
 * Hint: one line a field, and a loop over the figures. The report
 * prints your reading of each recorded pair: find the one that got
 * faster and moved left.
 */
#include "fusion.h"

/* ---- your helpers, if any ---- */


void compare(const struct cmp_pair *p, struct cmp_answer *a)
{
	(void)p;
	a->speedup = 0;
	for (int i = 0; i < CMP_NFIGURES; i++)
		a->change[i] = 0;
	for (int v = 0; v < 2; v++)
		a->side[v].gbps = a->side[v].peak_gbps = a->side[v].intensity =
			a->side[v].gflops = 0;
	a->faster_left = 0;

	/* ---- the speedup, the changes and the two sides: about 20 lines;
	 * then delete the line below ---- */
	WB_TODO("write compare");
}
