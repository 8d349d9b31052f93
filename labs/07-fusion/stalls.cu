/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 8: stalls                     (you edit this file only)
 *
 * Task: read a kernel's Warp State Statistics (README, section 17):
 * where its warps' cycles go, whether a throttle is what to act on, and
 * which instructions fill the queue it waits on. The reports are real:
 * every recording of labs 01 to 07 (naive, ladder steps, solution) on an
 * H100; then reports drawn around them. Plain host C: no GPU, no CUDA
 * call.
 *
 *     top             the reason with the most cycles
 *     top_share       stall[top] / cycles
 *     at the roof     dram_pct >= 80 and, where min_bytes > 0,
 *                     dram_bytes < 1.15 min_bytes
 *     throttle        the largest of the four throttles (lg_throttle,
 *                     mio_throttle, tex_throttle, math_pipe_throttle)
 *                     when its share reaches 0.3 and the kernel is not
 *                     at the roof; STALL_NONE otherwise
 *     throttle_share  its cycles / cycles; 0 for STALL_NONE
 *     cause           the instructions that fill its queue (enum
 *                     stall_cause; CAUSE_NONE for STALL_NONE)
 *
 * Contract
 *   r    struct stall_report in fusion.h; cycles > 0.
 *   Fill every field of *a. The shares are checked to 1e-9, the rest
 *   exactly. No drawn report has two reasons tied for the top or two
 *   throttles tied, nor a share, the DRAM's throughput or its traffic
 *   within a millionth of a limit.
 *
 * Hint: the cause is a table of four rows, and the README's section 17
 * holds it. The report prints your reading of each recording: one of
 * them is the seed article's uncoalesced kernel.
 */
#include "fusion.h"

/* ---- your helpers, if any ---- */


void stalls(const struct stall_report *r, struct stall_answer *a)
{
	(void)r;
	a->top = a->throttle = STALL_NONE;
	a->top_share = a->throttle_share = 0;
	a->cause = CAUSE_NONE;

	/* ---- the top reason, the throttle and its cause: about 25 lines;
	 * then delete the line below ---- */
	WB_TODO("write stalls");
}
