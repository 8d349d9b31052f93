/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the layout said and the layout read disagree.
 * particles_layout() returns PARTICLES_SOA, so the grader packs eight
 * arrays of n floats, but the kernel (ladder 3-particles-aos's) reads
 * 32-byte records. For one particle the two layouts coincide (n = 1
 * passes); from n = 2 on the kernel takes other particles' fields, and
 * other fields, for vx, vy, vz and m.
 * Expected verdict: WRONG, first at n=2.
 */
#include "coalescing.h"

#define PT_THREADS 256
#define PT_UNROLL 4
#define FULL_MASK 0xffffffffu

static __device__ float energy(float vx, float vy, float vz, float m)
{
	return 0.5f * m * (vx * vx + vy * vy + vz * vz);
}

static __global__ void __launch_bounds__(PT_THREADS)
energy_aos(const float4 *p4, size_t n4, float *ke)
{
	size_t base = (size_t)blockIdx.x * PT_THREADS * PT_UNROLL + threadIdx.x;
	unsigned int odd = threadIdx.x & 1;
	float4 v[PT_UNROLL];

	for (int u = 0; u < PT_UNROLL; u++) {
		size_t j = base + (size_t)u * PT_THREADS;

		v[u] = j < n4 ? p4[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
	}
	for (int u = 0; u < PT_UNROLL; u++) {
		size_t j = base + (size_t)u * PT_THREADS;
		/* The even lane's float4 ends with vx. */
		float vx = __shfl_up_sync(FULL_MASK, v[u].w, 1);

		if (odd && j < n4)
			ke[j / 2] = energy(vx, v[u].x, v[u].y, v[u].z);
	}
}

int particles_layout(void)
{
	/* The bug: the kernel below reads records, not arrays. */
	return PARTICLES_SOA;
}

void particles_energy(const float *p, size_t n, float *ke)
{
	size_t per_block = (size_t)PT_THREADS * PT_UNROLL;

	energy_aos<<<wb_ceil_div(2 * n, per_block), PT_THREADS>>>(
		(const float4 *)p, 2 * n, ke);
	CUDA_CHECK_LAUNCH();
}
