/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 5: particles                  (you edit this file only)
 *
 * Task: the kinetic energy of every particle, from particles stored as an
 * array of structures (AoS) or as a structure of arrays (SoA). Both
 * layouts are graded, and timed: the lesson is what each one costs.
 *
 *     e[i] = 0.5 * m * (vx * vx + vy * vy + vz * vz)
 *
 * A particle is 8 floats: x, y, z, vx, vy, vz, m, q (PART_X .. PART_Q in
 * coalescing.h). Only vx, vy, vz and m are needed.
 *     AoS (soa == PART_AOS): field f of particle i at p[i * 8 + f]; each
 *         particle is one 32-byte record, vx..m at bytes 12..27 of it.
 *     SoA (soa == PART_SOA): field f of particle i at p[f * n + i].
 *
 * Contract
 *   p     device pointer to 8 * n floats, read only, 256-byte aligned.
 *   e     device pointer to n floats, poisoned on entry, 256-byte aligned.
 *   1 <= n, 8 * n < 2^31. Launch on the default stream. Checked to 2e-6
 *   of each value.
 *
 * Hint: memory moves whole 32-byte sectors. In AoS every sector holds
 * needed bytes, so the whole array crosses the chip (32 bytes a particle
 * + 4 written); in SoA only the four needed arrays do (16 + 4). The naive
 * gives each thread a particle and four float loads: in AoS the lanes
 * then sit 32 bytes apart (32 sectors per request). Make each load a
 * wide, contiguous stretch: in AoS, a warp's float4 loads can cover 16
 * records (512 bytes) exactly, two float4 per record (a __shfl_sync or
 * shared memory brings one record's halves together); in SoA, four
 * particles per float4 when field f * n is 16-byte aligned (n % 4 == 0),
 * scalar otherwise. Benchmark: 16M particles in each layout.
 */
#include "coalescing.h"

/* ---- your kernels: about 45 lines (one per layout) ---- */


void particles_energy(const float *p, size_t n, int soa, float *e)
{
	(void)p, (void)n, (void)soa, (void)e;

	/* ---- your launches: about 8 lines; then delete the WB_TODO ---- */
	WB_TODO("write particles_energy's kernels (AoS and SoA) and launch them");
}
