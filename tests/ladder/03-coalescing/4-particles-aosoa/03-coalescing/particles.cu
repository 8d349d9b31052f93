/* SPDX-License-Identifier: MIT */
/*
 * Ladder step for particles: the middle layout, AoSoA (tiles of 32
 * particles, each tile a small SoA). A thread per particle, a float load
 * per needed field: a warp covers one tile, so each load is one field of
 * 32 particles, 128 contiguous bytes, 4 sectors, every byte used. Only
 * the needed fields cross the chip, as in SoA, while each particle's
 * fields stay within one 1 KiB tile (what CPU codes choose for SIMD and
 * locality). The solution is SoA with float4 loads; this step measures
 * AoSoA with the simplest kernel.
 */
#include "coalescing.h"

#define PT_THREADS 256

static __global__ void __launch_bounds__(PT_THREADS)
energy_aosoa(const float *p, size_t n, float *ke)
{
	size_t i = (size_t)blockIdx.x * PT_THREADS + threadIdx.x;
	/* Tile i / 32 starts at float (i / 32) * 256; lane i % 32 of it. */
	const float *tile = p + i / PARTICLES_TILE * (PARTICLES_TILE *
						      PART_FIELDS) +
			    i % PARTICLES_TILE;
	float vx, vy, vz, m;

	if (i >= n)
		return;
	vx = tile[PART_VX * PARTICLES_TILE];
	vy = tile[PART_VY * PARTICLES_TILE];
	vz = tile[PART_VZ * PARTICLES_TILE];
	m = tile[PART_M * PARTICLES_TILE];
	ke[i] = 0.5f * m * (vx * vx + vy * vy + vz * vz);
}

int particles_layout(void)
{
	return PARTICLES_AOSOA;
}

void particles_energy(const float *p, size_t n, float *ke)
{
	energy_aosoa<<<wb_ceil_div(n, PT_THREADS), PT_THREADS>>>(p, n, ke);
	CUDA_CHECK_LAUNCH();
}
