/* SPDX-License-Identifier: MIT */
/*
 * Ladder step for particles: the best AoS kernel, to measure what the
 * layout costs. The array is read as float4s, two per 32-byte record: x y
 * z vx, then vy vz m q. Thread j of a block loads float4 j, so a warp's
 * load is 512 contiguous bytes (16 records, 16 sectors, every byte used;
 * the records' x, y, z and q come along, which no AoS kernel can avoid).
 * The odd lane of each pair holds vy, vz and m and takes vx from its even
 * neighbour with one __shfl_up_sync; every lane runs the shuffle, with
 * zeros past the end. Four float4 in flight per thread.
 *
 * However it reads, an AoS kernel moves 36 bytes a particle where the
 * task needs 20: at most 56% of the speed of light, below tier 1. The
 * naive (a float per field, lanes 32 bytes apart) moves the same bytes at
 * about the same speed: this step shows that coalescing the AoS loads
 * gains little when DRAM moves whole sectors anyway.
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
	return PARTICLES_AOS;
}

void particles_energy(const float *p, size_t n, float *ke)
{
	size_t per_block = (size_t)PT_THREADS * PT_UNROLL;

	energy_aos<<<wb_ceil_div(2 * n, per_block), PT_THREADS>>>(
		(const float4 *)p, 2 * n, ke);
	CUDA_CHECK_LAUNCH();
}
