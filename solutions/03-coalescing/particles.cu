/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 5: particles (solution).
 *
 * The layout: SoA. Each needed field is then an array of its own, and a
 * warp's load of one is 128 (or, as float4, 512) contiguous bytes, every
 * byte used: the four needed arrays cross the chip, 16 bytes a particle,
 * and x, y, z and q stay where they are. In AoS every 32-byte record is
 * one sector with needed bytes in it, so the whole array moves, 32 bytes
 * a particle, however the kernel reads it (ladder 3-particles-aos).
 *
 * The kernel: four particles per float4 of each of the four arrays when
 * every field starts 16-byte aligned (field f at element f n: n % 4 ==
 * 0), a float each otherwise. A block per PT_THREADS x PT_UNROLL items,
 * all loads issued before any is used (256 bytes in flight per thread).
 * A thread per particle with float loads reads SoA at DRAM speed too;
 * the wide loads are a margin, not the lesson.
 */
#include "coalescing.h"

#define PT_THREADS 256
#define PT_UNROLL 4

static __device__ float energy(float vx, float vy, float vz, float m)
{
	return 0.5f * m * (vx * vx + vy * vy + vz * vz);
}

static __global__ void __launch_bounds__(PT_THREADS)
energy_soa4(const float4 *p4, size_t n4, float4 *e4)
{
	size_t base = (size_t)blockIdx.x * PT_THREADS * PT_UNROLL + threadIdx.x;
	const float4 *vx = p4 + PART_VX * n4, *vy = p4 + PART_VY * n4;
	const float4 *vz = p4 + PART_VZ * n4, *m = p4 + PART_M * n4;
	float4 a[PT_UNROLL], b[PT_UNROLL], c[PT_UNROLL], d[PT_UNROLL];

	for (int u = 0; u < PT_UNROLL; u++) {
		size_t j = base + (size_t)u * PT_THREADS;

		if (j < n4) {
			a[u] = vx[j];
			b[u] = vy[j];
			c[u] = vz[j];
			d[u] = m[j];
		}
	}
	for (int u = 0; u < PT_UNROLL; u++) {
		size_t j = base + (size_t)u * PT_THREADS;

		if (j >= n4)
			continue;
		e4[j] = make_float4(energy(a[u].x, b[u].x, c[u].x, d[u].x),
				    energy(a[u].y, b[u].y, c[u].y, d[u].y),
				    energy(a[u].z, b[u].z, c[u].z, d[u].z),
				    energy(a[u].w, b[u].w, c[u].w, d[u].w));
	}
}

static __global__ void __launch_bounds__(PT_THREADS)
energy_soa1(const float *p, size_t n, float *e)
{
	size_t i = (size_t)blockIdx.x * PT_THREADS + threadIdx.x;

	if (i < n)
		e[i] = energy(p[PART_VX * n + i], p[PART_VY * n + i],
			      p[PART_VZ * n + i], p[PART_M * n + i]);
}

int particles_layout(void)
{
	return PARTICLES_SOA;
}

void particles_energy(const float *p, size_t n, float *ke)
{
	size_t per_block = (size_t)PT_THREADS * PT_UNROLL;

	if (n % 4 == 0)
		energy_soa4<<<wb_ceil_div(n / 4, per_block), PT_THREADS>>>(
			(const float4 *)p, n / 4, (float4 *)ke);
	else
		energy_soa1<<<wb_ceil_div(n, PT_THREADS), PT_THREADS>>>(p, n,
									ke);
	CUDA_CHECK_LAUNCH();
}
