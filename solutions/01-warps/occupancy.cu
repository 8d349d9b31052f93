/* SPDX-License-Identifier: MIT */
/*
 * Lab 01, exercise 4: occupancy - a solution.
 *
 * The rules the CUDA runtime applies (they are also spelled out in the
 * toolkit's cuda_occupancy.h), one limit each, all counted in blocks:
 *  - Warps: a block takes ceil(threads / 32) warp slots, a partial warp
 *    as a whole one; an SM has max_threads_per_sm / 32 of them.
 *  - Blocks: at most max_blocks_per_sm, however small they are.
 *  - Registers: a warp gets regs_per_thread * 32 registers, rounded up to
 *    the allocation unit (256). The register file is split between the
 *    SM's 4 schedulers and a warp's registers lie within one quarter, so
 *    each quarter holds floor(quarter / per-warp) warps: a remainder in
 *    one quarter cannot be pooled with another's. A block needs its warps
 *    to fit in the per-block limit too (checked, as the hardware does,
 *    as if its warps were rounded up to a multiple of 4).
 *  - Shared memory: a block takes its static and dynamic bytes plus the
 *    1 KiB the system reserves per block (since compute capability 8.0),
 *    rounded up to the allocation unit (128 bytes). With the default
 *    carve-out the runtime assumes the SM gives shared memory all it can
 *    (smem_per_sm), since the driver picks a larger carve-out when a
 *    launch needs it.
 * A kernel that cannot fit one block (too many registers or too much
 * shared memory for one block) gets 0.
 */
#include <limits.h>

#include "warps.h"

static int div_up(int a, int b)
{
	return (a + b - 1) / b;
}

static size_t round_up(size_t a, size_t unit)
{
	return (a + unit - 1) / unit * unit;
}

static int min_int(int a, int b)
{
	return a < b ? a : b;
}

static int by_warps(int warps, const struct occ_device *d)
{
	return d->max_threads_per_sm / d->warp_size / warps;
}

static int by_registers(const struct occ_kernel *k, int warps,
			const struct occ_device *d)
{
	int per_warp = (int)round_up((size_t)k->regs_per_thread * d->warp_size,
				     d->reg_alloc_unit);
	int per_quarter = d->regs_per_sm / d->sub_partitions;

	if (per_warp == 0)
		return INT_MAX;
	if (k->regs_per_thread > d->max_regs_per_thread ||
	    per_warp * warps > d->regs_per_block ||
	    per_warp * div_up(warps, d->sub_partitions) * d->sub_partitions >
		    d->regs_per_block)
		return 0;
	return per_quarter / per_warp * d->sub_partitions / warps;
}

static int by_shared_memory(const struct occ_kernel *k,
			    const struct occ_device *d)
{
	size_t per_block = round_up(k->static_smem + k->dynamic_smem +
					    d->smem_reserved_per_block,
				    d->smem_alloc_unit);

	if (per_block > d->smem_per_block + d->smem_reserved_per_block)
		return 0;
	if (per_block == 0)
		return INT_MAX;
	return (int)(d->smem_per_sm / per_block);
}

int blocks_per_sm(const struct occ_kernel *k, int block_threads,
		  const struct occ_device *d)
{
	int warps = div_up(block_threads, d->warp_size);
	int blocks = min_int(by_warps(warps, d), d->max_blocks_per_sm);

	blocks = min_int(blocks, by_registers(k, warps, d));
	return min_int(blocks, by_shared_memory(k, d));
}
