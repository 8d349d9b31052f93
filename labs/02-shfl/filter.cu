/* SPDX-License-Identifier: MIT */
/*
 * Lab 02, exercise 4: filter                     (you edit this file only)
 *
 * Task: stream compaction. Copy every element above the threshold to the
 * front of out, in any order, and say how many there were:
 *
 *     k = #{ i : in[i] > thr },   out[0 .. k-1] = those in[i] (any order),
 *     count[0] = k
 *
 * Contract
 *   in     device pointer, n floats, 256-byte aligned, finite; read only.
 *          1 <= n < 2^31, not necessarily a multiple of 32 or of 4.
 *   thr    finite; an element equal to thr is NOT kept (strict >).
 *   out    device pointer, room for n floats, poisoned (NaN) on entry;
 *          what you leave past out[k - 1] does not matter.
 *   count  device pointer to one int, poisoned (-1) on entry.
 *   work   FILTER_WORK_BYTES of device scratch, contents undefined.
 *   Launch on the default stream; everything you launch counts, memsets
 *   included. The check compares out[0 .. k-1] with the kept elements as
 *   a multiset (sorted), so the order is yours to choose. No device-wide
 *   library (cub::DeviceSelect, thrust::copy_if).
 *
 * Hint: the naive (naive.cu) takes every slot with its own atomic on one
 * counter, and atomics on one address run one after another. Let a warp
 * take all its slots at once: __ballot_sync says which lanes keep their
 * element, __popc counts them, one lane does one atomicAdd for the whole
 * warp and __shfl_sync hands the base to the others; each lane's slot is
 * base + the number of keeping lanes below it. Then go further: fewer
 * atomics still (one per block and tile), and wide loads.
 */
#include "shfl.h"

/* ---- your kernels: about 50 lines ---- */


void filter(const float *in, size_t n, float thr, float *out, int *count,
	    void *work)
{
	(void)in, (void)n, (void)thr, (void)out, (void)count, (void)work;

	/* ---- your launch: about 8 lines; then delete the line below ---- */
	WB_TODO("write filter's kernel and launch it");
}
