/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 4: occupancy                  (you edit this file only)
 *
 * Task: how many blocks of a kernel can be resident on one SM at once:
 * the number cudaOccupancyMaxActiveBlocksPerMultiprocessor returns.
 * Plain host C: no GPU, no CUDA call.
 *
 *     blocks = min(by warps, by blocks, by registers, by shared memory)
 *
 *   by warps      (threads per SM / warp size) / warps per block, where a
 *                 partial warp counts whole
 *   by blocks     the SM's block limit
 *   by registers  registers are given to warps, in units of
 *                 reg_alloc_unit; each of the sub_partitions quarters of
 *                 the register file holds whole warps only
 *   by shared     a block takes static + dynamic + the reserved share,
 *     memory      rounded up to smem_alloc_unit
 *   and 0 when a single block cannot fit (too many registers for one
 *   block, more shared memory than a block may have).
 *
 * Contract
 *   k   the kernel: registers per thread, static and dynamic shared
 *       memory per block, as cudaFuncGetAttributes and the launch say.
 *   block_threads  1 to 1024 (never more than the kernel can launch).
 *   d   the device's limits (struct occ_device in warps.h).
 *   Return the number of blocks. Do not call the CUDA runtime, nor
 *   include cuda_occupancy.h: the point is to know the rules.
 *
 * Hint: work in warps. Each limit is a floor division; the traps are the
 * roundings: warps per block up, registers per warp up to the unit,
 * warps per sub-partition down, shared memory per block up. The grader
 * prints your table beside the runtime's for each kernel it tries.
 */
#include "warps.h"

/* ---- your helpers: about 30 lines ---- */


int blocks_per_sm(const struct occ_kernel *k, int block_threads,
		  const struct occ_device *d)
{
	(void)k, (void)block_threads, (void)d;

	/* ---- the four limits: about 10 lines; then delete the line below ---- */
	WB_TODO("write blocks_per_sm");
	return 0;
}
