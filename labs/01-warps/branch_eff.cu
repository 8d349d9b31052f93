/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 5: branch_eff                 (you edit this file only)
 *
 * Task: before any profiler runs it, predict what Nsight Compute's
 * branch efficiency will say of one decision (README, section 15): how
 * many warps make it, the branches they execute, how many of those
 * split a warp, how many bodies the warps run in all, and the
 * efficiency. Plain host C: no GPU, no CUDA call.
 *
 *     taken(t)    ((t / div) % mod < below) != invert, for thread t
 *     warps       ceil(n / 32): warp w holds threads 32 w to 32 w + 31,
 *                 those below n active
 *     split       a warp whose active lanes do not all agree on taken()
 *     branches    ifs x warps: if/else is one test, `if (c) A; if (!c)
 *                 B;` two
 *     divergent   ifs x split warps: a split warp splits at every test
 *     paths       warps + split warps: a split warp runs both bodies
 *     efficiency  100 (branches - divergent) / branches
 *
 * Contract
 *   b    1 <= n < 2^40; div, mod >= 1 and div x mod <= 4096;
 *        0 <= below <= mod; invert 0 or 1; ifs 1 or 2 (warps.h).
 *   Fill every field of *p: the counts exactly, the efficiency to 1e-12
 *   relative. The grader asks 1,000 patterns, up to 2^39 threads each:
 *   a loop over every warp of every one does not finish in time.
 *
 * Hint: taken() repeats every div x mod threads, and a warp is 32 of
 * them: after lcm(32, div x mod) threads the warps repeat too. Count one
 * repeat, multiply, then count what is left; the last warp may be
 * partial. The report prints your efficiency for the README's patterns.
 */
#include "warps.h"

/* ---- your helpers, if any ---- */


void branch_eff(const struct branch_pattern *b, struct branch_pred *p)
{
	(void)b;
	p->warps = p->branches = p->divergent = p->paths = 0;
	p->efficiency = 0;

	/* ---- the warps, one repeat of them, the rest: about 25 lines; then
	 * delete the line below ---- */
	WB_TODO("write branch_eff");
}
