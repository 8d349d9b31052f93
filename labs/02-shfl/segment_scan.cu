/* SPDX-License-Identifier: MIT */
/*
 * Lab 02, exercise 3: segment_scan               (you edit this file only)
 *
 * Task: the inclusive prefix sum inside every 32-element segment:
 *
 *     out[i] = in[32 s] + in[32 s + 1] + ... + in[i],    s = i / 32
 *
 * so out[32 s] = in[32 s] and out[32 s + 31] is the segment's total. The
 * last segment may be partial (n % 32 != 0): its prefixes stop at n - 1.
 *
 * Contract
 *   in    device pointer, n floats, 256-byte aligned; read only.
 *         1 <= n < 2^31, not necessarily a multiple of 32 or of 4.
 *   out   device pointer, n floats, poisoned (NaN) on entry.
 *   Launch on the default stream; everything you launch counts. CUB's
 *   warp and block primitives are allowed. Tolerance: 6e-5 absolute.
 *
 * Hint: __shfl_up_sync(mask, v, d) gives lane L the v of lane L - d (lanes
 * below d get their own v back): five steps make a warp-wide inclusive
 * scan (Hillis-Steele in registers, no barrier). The naive (naive.cu) does
 * the same in shared memory with two __syncthreads() per step. Then, as
 * in segment_sum, feed the memory: with float4 loads a segment is 8 lanes,
 * and the width argument of __shfl_up_sync keeps each scan inside its 8.
 */
#include "shfl.h"

/* ---- your kernels: about 40 lines ---- */


void segment_scan(const float *in, size_t n, float *out)
{
	(void)in, (void)n, (void)out;

	/* ---- your launch: about 6 lines; then delete the line below ---- */
	WB_TODO("write segment_scan's kernel and launch it");
}
