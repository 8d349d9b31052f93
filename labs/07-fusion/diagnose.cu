/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 6: diagnose                   (you edit this file only)
 *
 * Task: read a kernel's Nsight Compute report and say what limits it and
 * which change would help most (README, section 12), as make profile's
 * table and ncu's own sections would tell you. The reports are real:
 * the naive kernels of labs 01 to 07, recorded on an H100; then reports
 * drawn around them. Plain host C: no GPU, no CUDA call.
 *
 *     bound    ncu's speed-of-light rule: the larger of dram_pct and
 *              sm_pct decides (memory or compute) when it reaches 60%;
 *              under 60% for both, the kernel is latency-bound
 *     fix      the first of these the report shows, in this order:
 *                GRID      waves < 0.5
 *                COALESCE  sector excess > 2
 *                FUSE      2 kernels or more, traffic >= 1.5
 *                TILE      load bytes per FLOP >= 0.5
 *                PAD       conflicts >= 0.2
 *                BRANCH    branch efficiency < 50%
 *              otherwise by the bound: FEWER_INSTR (compute), IN_FLIGHT
 *              (latency), NONE (memory)
 *     metric   the figure the fix rests on (enum diag_metric in
 *     value    fusion.h defines each); for the three fixes by the
 *              bound, SM_PCT for FEWER_INSTR, DRAM_PCT for the others
 *
 * Contract
 *   r    one profiled call (struct diag_report in fusion.h: each field
 *        is the ncu metric its comment names). A ratio whose
 *        denominator is 0 is 0; the branch efficiency of a kernel
 *        without branches is 100.
 *   Fill every field of *a. The value is checked to 1e-9 relative. No
 *   drawn report lies within 1e-6 of a limit; a recording may sit on
 *   one exactly (lab 01's naive branch stores at 2.0 sectors a request
 *   over the ideal: not more than 2).
 *
 * Hint: write diag_metric's eight figures as one function first; the
 * rest is a table of six rows and a loop. The report prints your reading
 * of each recording.
 */
#include "fusion.h"

/* ---- your helpers, if any ---- */


void diagnose(const struct diag_report *r, struct diag_answer *a)
{
	(void)r;
	a->bound = DIAG_MEMORY;
	a->metric = DIAG_DRAM_PCT;
	a->value = 0;
	a->fix = DIAG_FIX_NONE;

	/* ---- the bound, the figures and the first fix due: about 30
	 * lines; then delete the line below ---- */
	WB_TODO("write diagnose");
}
