/* SPDX-License-Identifier: MIT */
/*
 * Lab 03, exercise 1: matvec - a solution.
 *
 * What it changes from a thread per row, and why:
 *  - A warp per row. Lane t reads elements t, t + 32, t + 64, ... of the
 *    row, so each warp-wide load is one contiguous stretch: 4 sectors per
 *    request for floats, 16 for float4, every byte of them used. A thread
 *    per row made every load touch 32 rows, 32 sectors for 128 useful
 *    bytes.
 *  - 16-byte loads (float4) of the row and of x when n % 4 == 0, the only
 *    case in which every row starts 16-byte aligned; each lane keeps four
 *    of them in flight before the first multiply-add, so enough bytes
 *    are outstanding per SM to cover DRAM latency. Other n take a scalar
 *    kernel with the same layout (four loads in flight too).
 *  - The 32 partial sums are added with xor shuffles: no shared memory,
 *    no barrier. x (32 KB at the benchmark) is read by every warp and
 *    stays in L1/L2; only A comes from DRAM, once.
 *  - Eight rows (warps) per block of 256 threads, so a block has work for
 *    all its warps even when m is small, and warps leave independently.
 */
#include "coalescing.h"

#define MV_ROWS 8   /* rows (warps) per block */
#define MV_UNROLL 4 /* loads in flight per lane */

static __device__ float warp_sum(float v)
{
	for (int mask = 16; mask > 0; mask /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, mask);
	return v;
}

static __device__ float dot4(float4 a, float4 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

/* n = 4 * n4: rows and x 16-byte aligned. */
static __global__ void __launch_bounds__(32 * MV_ROWS)
matvec_warp4(const float4 *__restrict__ a, const float4 *__restrict__ x,
	     float *__restrict__ y, size_t m, size_t n4)
{
	size_t r = (size_t)blockIdx.x * MV_ROWS + threadIdx.x / 32;
	unsigned int lane = threadIdx.x % 32;
	const float4 *row = a + r * n4;
	float acc = 0.0f;
	size_t j = lane;

	if (r >= m)
		return; /* whole warps leave; no block barrier follows */
	for (; j + (MV_UNROLL - 1) * 32 < n4; j += MV_UNROLL * 32) {
		float4 v[MV_UNROLL];

#pragma unroll
		for (int u = 0; u < MV_UNROLL; u++)
			v[u] = row[j + 32 * u];
#pragma unroll
		for (int u = 0; u < MV_UNROLL; u++)
			acc += dot4(v[u], x[j + 32 * u]);
	}
	for (; j < n4; j += 32)
		acc += dot4(row[j], x[j]);
	acc = warp_sum(acc);
	if (lane == 0)
		y[r] = acc;
}

/* Any n: the same warp per row, one float at a time. */
static __global__ void __launch_bounds__(32 * MV_ROWS)
matvec_warp1(const float *__restrict__ a, const float *__restrict__ x,
	     float *__restrict__ y, size_t m, size_t n)
{
	size_t r = (size_t)blockIdx.x * MV_ROWS + threadIdx.x / 32;
	unsigned int lane = threadIdx.x % 32;
	const float *row = a + r * n;
	float acc = 0.0f;
	size_t j = lane;

	if (r >= m)
		return;
	for (; j + (MV_UNROLL - 1) * 32 < n; j += MV_UNROLL * 32) {
		float v[MV_UNROLL];

#pragma unroll
		for (int u = 0; u < MV_UNROLL; u++)
			v[u] = row[j + 32 * u];
#pragma unroll
		for (int u = 0; u < MV_UNROLL; u++)
			acc += v[u] * x[j + 32 * u];
	}
	for (; j < n; j += 32)
		acc += row[j] * x[j];
	acc = warp_sum(acc);
	if (lane == 0)
		y[r] = acc;
}

void matvec(const float *a, const float *x, float *y, size_t m, size_t n)
{
	size_t blocks = wb_ceil_div(m, MV_ROWS);

	if (n % 4 == 0)
		matvec_warp4<<<blocks, 32 * MV_ROWS>>>((const float4 *)a,
						       (const float4 *)x, y, m,
						       n / 4);
	else
		matvec_warp1<<<blocks, 32 * MV_ROWS>>>(a, x, y, m, n);
	CUDA_CHECK_LAUNCH();
}
