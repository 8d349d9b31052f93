/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 1: thread_map                 (you edit this file only)
 *
 * Task: launch <<<grid, block>>> as given, and have every thread write
 * where it sits: its coordinates, its warp within its block and its lane.
 *
 *     b = blockIdx.x + (blockIdx.y + blockIdx.z * gridDim.y) * gridDim.x
 *     t = threadIdx.x + (threadIdx.y + threadIdx.z * blockDim.y) * blockDim.x
 *     g = b * (blockDim.x * blockDim.y * blockDim.z) + t
 *     out[g] = { blockIdx, threadIdx, t / 32, t % 32 }    (struct thread_rec)
 *
 * Contract
 *   grid, block  the launch shape to use, unchanged: 3-D blocks of up to
 *         1024 threads (40x2x1, 7x5x3, 33x1x1, ...: often not a multiple
 *         of 32), 2-D and 3-D grids (gridDim.x up to 66000).
 *   out   device pointer, one struct thread_rec per thread of the launch
 *         (grid.x * grid.y * grid.z * block.x * block.y * block.z of
 *         them), poisoned (all bits set) on entry: every thread writes
 *         its own record, nothing else.
 *   Launch on the default stream; the grader waits for the device.
 *
 * Hint: t is the order in which the hardware numbers a block's threads
 * and cuts them into warps: x fastest. A 40x2 block is 80 threads, so 3
 * warps: thread (39,0) is lane 7 of warp 1, thread (0,1) lane 8 of warp
 * 1, and warp 2 holds only 16 threads. Compute g in size_t.
 */
#include "warps.h"

/* ---- your kernel: about 12 lines ---- */


void thread_map(dim3 grid, dim3 block, struct thread_rec *out)
{
	(void)grid, (void)block, (void)out;

	/* ---- your launch: 2 lines; then delete the line below ---- */
	WB_TODO("write thread_map's kernel and launch it");
}
