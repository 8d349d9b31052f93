/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 5: particles                  (you edit this file only)
 *
 * Task: choose how the particles are laid out in memory, then compute
 * every particle's kinetic energy from that layout. The grader packs the
 * particles the way particles_layout() says, before timing anything.
 *
 *     ke[i] = 0.5 * m * (vx * vx + vy * vy + vz * vz)
 *
 * A particle is 8 floats: x, y, z, vx, vy, vz, m, q (PART_X .. PART_Q in
 * coalescing.h); only vx, vy, vz and m are needed. The layouts (field f
 * of particle i at):
 *     PARTICLES_AOS    p[i * 8 + f]          one 32-byte record each
 *     PARTICLES_SOA    p[f * n + i]          8 arrays of n floats
 *     PARTICLES_AOSOA  p[(i / 32) * 256 + f * 32 + i % 32]
 *                                            tiles of 32 particles
 *
 * Contract
 *   particles_layout(): host code, returns one of the three constants,
 *     the same every time; no CUDA call.
 *   p     device pointer to the particles in that layout, read only,
 *         256-byte aligned (AoSoA: whole tiles, the last one padded).
 *   ke    device pointer to n floats, poisoned on entry, 256-byte aligned.
 *   1 <= n, 8 * n < 2^31. Launch on the default stream. Checked to 2e-6
 *   of each value.
 *
 * Hint: memory moves whole 32-byte sectors. The task needs 16 bytes a
 * particle read and 4 written, and the tiers are shares of that speed of
 * light. Count the bytes each layout makes a warp's loads move (section
 * 13 of the README) before you write a kernel: the naive, a thread per
 * particle in AoS, already moves its layout's bytes at DRAM speed.
 * Benchmark: 16M particles.
 */
#include "coalescing.h"

int particles_layout(void)
{
	/* ---- your choice: one line ---- */
	return PARTICLES_AOS;
}

/* ---- your kernel: about 15 lines ---- */


void particles_energy(const float *p, size_t n, float *ke)
{
	(void)p, (void)n, (void)ke;

	/* ---- your launch: about 4 lines; then delete the line below ---- */
	WB_TODO("write particles_energy's kernel for your layout, launch it");
}
