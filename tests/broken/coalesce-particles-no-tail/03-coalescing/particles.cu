/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the solution's AoS kernel on whole blocks only. The
 * grid is (2 n) / 1024 blocks, rounded down, so the particles of the last
 * partial block (up to 511) are never computed and keep the poison; below
 * 512 particles no AoS block runs at all. SoA is right.
 * Expected verdict: WRONG, first at n=1 aos ("none was written").
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
energy_aos(const float4 *p4, size_t n4, float *e)
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
			e[j / 2] = energy(vx, v[u].x, v[u].y, v[u].z);
	}
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

		if (j < n4)
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

void particles_energy(const float *p, size_t n, int soa, float *e)
{
	size_t per_block = (size_t)PT_THREADS * PT_UNROLL;

	if (soa == PART_AOS) {
		/* Whole blocks only: the last (2 n) % per_block float4s, up
		 * to 511 particles, are never read nor written. */
		size_t blocks = 2 * n / per_block;

		if (blocks)
			energy_aos<<<blocks, PT_THREADS>>>((const float4 *)p,
							  2 * n, e);
	} else if (n % 4 == 0)
		energy_soa4<<<wb_ceil_div(n / 4, per_block), PT_THREADS>>>(
			(const float4 *)p, n / 4, (float4 *)e);
	else
		energy_soa1<<<wb_ceil_div(n, PT_THREADS), PT_THREADS>>>(p, n, e);
	CUDA_CHECK_LAUNCH();
}
