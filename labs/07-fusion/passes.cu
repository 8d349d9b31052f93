/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 5: passes                     (you edit this file only)
 *
 * Task: count the bytes a chain of kernels moves through global memory,
 * run eagerly (one kernel per operation, as naive.cu does) and fused
 * into one kernel, before any profiler measures them. Plain host C: no
 * GPU, no CUDA call.
 *
 *     eager  every kernel reads each buffer in its in list, whole, and
 *            writes each buffer in its out list, whole
 *     fused  a buffer is read once if the chain's first use of it is a
 *            read (a kernel reads its in list before writing its out
 *            list), never if a kernel of the chain wrote it first; each
 *            result buffer is written once; nothing else moves
 *     bytes  4 per float (every buffer holds floats)
 *
 * Contract
 *   ch    the chain (struct chain in fusion.h): nbufs buffers of
 *         floats[b] floats, result[b] 1 for those the operation leaves in
 *         memory; nkernels kernels in launch order, each listing 0 to 4
 *         distinct buffers read and 1 to 4 distinct buffers written.
 *         Every result is written by some kernel.
 *   Fill *eager and *fused with the bytes read and written.
 *
 * Hint: the grader asks about naive.cu's own chains (gelu's nine
 * kernels, bias_gelu, add_rmsnorm, softmax) at their shapes, then about
 * chains those do not reach: a result read again, an input updated in
 * place, a buffer written twice, a fill. The report turns your bytes
 * for the lab's chains into passes and the speedup fusion can give.
 */
#include "fusion.h"

/* ---- your helpers, if any ---- */


void chain_traffic(const struct chain *ch, struct chain_bytes *eager,
		   struct chain_bytes *fused)
{
	(void)ch;
	eager->read = eager->write = 0;
	fused->read = fused->write = 0;

	/* ---- the two rules: about 20 lines; then delete the line below ---- */
	WB_TODO("write chain_traffic");
}
