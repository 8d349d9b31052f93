/* SPDX-License-Identifier: MIT */
/*
 * Ladder step for particles: wide loads, one item per thread, not yet
 * coalesced in AoS. A thread per particle loads its record as two float4
 * (x y z vx, vy vz m q): the lanes sit 32 bytes apart, so each request
 * touches 32 sectors and uses half of each (the second load the other
 * half). SoA: four particles per thread, one float4 of each needed array,
 * when n % 4 == 0 (a float each otherwise). Between the naive (scalar
 * loads) and the solution (a warp's AoS float4s contiguous, four loads in
 * flight per thread).
 */
#include "coalescing.h"

#define PT_THREADS 256

static __device__ float energy(float vx, float vy, float vz, float m)
{
	return 0.5f * m * (vx * vx + vy * vy + vz * vz);
}

static __global__ void energy_aos(const float4 *p4, size_t n, float *e)
{
	size_t i = (size_t)blockIdx.x * PT_THREADS + threadIdx.x;
	float4 lo, hi;

	if (i >= n)
		return;
	lo = p4[2 * i];
	hi = p4[2 * i + 1];
	e[i] = energy(lo.w, hi.x, hi.y, hi.z);
}

static __global__ void energy_soa4(const float4 *p4, size_t n4, float4 *e4)
{
	size_t j = (size_t)blockIdx.x * PT_THREADS + threadIdx.x;
	float4 a, b, c, d;

	if (j >= n4)
		return;
	a = p4[PART_VX * n4 + j];
	b = p4[PART_VY * n4 + j];
	c = p4[PART_VZ * n4 + j];
	d = p4[PART_M * n4 + j];
	e4[j] = make_float4(energy(a.x, b.x, c.x, d.x), energy(a.y, b.y, c.y, d.y),
			    energy(a.z, b.z, c.z, d.z), energy(a.w, b.w, c.w, d.w));
}

static __global__ void energy_soa1(const float *p, size_t n, float *e)
{
	size_t i = (size_t)blockIdx.x * PT_THREADS + threadIdx.x;

	if (i < n)
		e[i] = energy(p[PART_VX * n + i], p[PART_VY * n + i],
			      p[PART_VZ * n + i], p[PART_M * n + i]);
}

void particles_energy(const float *p, size_t n, int soa, float *e)
{
	if (soa == PART_AOS)
		energy_aos<<<wb_ceil_div(n, PT_THREADS), PT_THREADS>>>(
			(const float4 *)p, n, e);
	else if (n % 4 == 0)
		energy_soa4<<<wb_ceil_div(n / 4, PT_THREADS), PT_THREADS>>>(
			(const float4 *)p, n / 4, (float4 *)e);
	else
		energy_soa1<<<wb_ceil_div(n, PT_THREADS), PT_THREADS>>>(p, n, e);
	CUDA_CHECK_LAUNCH();
}
