/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: the file chooses AoS, the layout the naive reads,
 * and hands its work to the lab's naive (naive_particles_energy): the
 * answers are right, and none of the work is the file's own. Calling into
 * the lab's reference code is not allowed, whatever it computes.
 * Expected verdict: REJECTED (the file is never run).
 */
#include "coalescing.h"

int particles_layout(void)
{
	return PARTICLES_AOS;
}

void particles_energy(const float *p, size_t n, float *ke)
{
	naive_particles_energy(p, n, ke);
}
