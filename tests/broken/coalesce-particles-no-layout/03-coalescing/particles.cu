/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the solution's kernel, with particles_layout()
 * deleted. The file defines only one of the exercise's two entry points:
 * the grader cannot tell how to lay the particles out, and says to keep
 * the skeleton's functions.
 * Expected verdict: COMPILE ERROR (an entry point is missing).
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
