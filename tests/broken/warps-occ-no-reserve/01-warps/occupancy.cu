/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the solution's calculator, but shared memory counted
 * as the kernel's own bytes only. Since compute capability 8.0 the system
 * reserves 1 KiB of every block's shared memory (cudaDevAttrReserved-
 * SharedMemoryPerBlock), so a block of 12 KiB takes 13 on an H100: 17
 * blocks fit in 228 KiB, not 19.
 * Expected verdict: WRONG (on compute capability 8.0 and later) where the
 * missing kilobyte changes the count: static9232, static9232+3000,
 * dyn12288 and mixed+6000 on an H100 ("you said 19 blocks, the runtime
 * says 17"). Register-bound kernels pass, and so do dyn30000 and dyn48000,
 * where the kilobyte is lost in the rounding down.
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
	/* BUG: d->smem_reserved_per_block left out */
	size_t per_block = round_up(k->static_smem + k->dynamic_smem,
				    d->smem_alloc_unit);

	if (per_block > d->smem_per_block)
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
