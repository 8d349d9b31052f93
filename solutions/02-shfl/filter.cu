/* SPDX-License-Identifier: MIT */
/*
 * Lab 02, exercise 4: filter - a solution.
 *
 * What it changes from one atomic per kept element, and why:
 *  - Slots are taken per block and tile, not per element: a block of 256
 *    threads loads a tile of 4096 floats (four float4 per thread, all in
 *    flight at once), counts what it keeps, and takes all the tile's slots
 *    with ONE atomicAdd. At the benchmark size that is 16K atomics on the
 *    counter instead of 32M (per element) or 2M (per warp of 32 elements):
 *    atomics on one address are served one after another in the L2, so
 *    their number, not the bytes, limits the naive and even a warp-
 *    aggregated kernel.
 *  - Within a warp, no atomics and no shared memory: for each of its 16
 *    values a lane votes with __ballot_sync(v > thr); __popc of the ballot
 *    is how many of the warp keep that value, and __popc(ballot & the bits
 *    of the lanes below) is this lane's rank among them. The warp's total
 *    is the sum of 16 popcs, the same in every lane, with no shuffle.
 *  - Across the 8 warps: each warp's total goes to shared memory; after a
 *    barrier warp 0 scans the 8 totals with __shfl_up_sync, does the one
 *    atomicAdd, and publishes each warp's base; after a second barrier
 *    every lane writes its kept values to base + rank. The lanes that keep
 *    value k of a warp write consecutive floats, so the stores coalesce.
 *  - The order of the output follows the atomics, so it changes from run
 *    to run; the exercise allows any order.
 *  - One wave of blocks walks the tiles; the last, partial tile loads
 *    with checks and pads with -INFINITY, which is never above thr.
 */
#include <math.h>

#include "shfl.h"

#define F_THREADS 256
#define F_WARPS (F_THREADS / 32)
#define F_LOADS 4                         /* float4 per thread per tile */
#define F_VALS (4 * F_LOADS)              /* values per thread per tile */
#define F_TILE (F_THREADS * F_VALS)       /* floats per block tile: 4096 */

/* The float4 at index q of in[0 .. n-1], -INFINITY past the end. */
static __device__ float4 load4_padded(const float *in, size_t n, size_t q)
{
	size_t i = 4 * q;
	float4 v = make_float4(-INFINITY, -INFINITY, -INFINITY, -INFINITY);

	if (i + 3 < n)
		return ((const float4 *)in)[q];
	if (i < n)
		v.x = in[i];
	if (i + 1 < n)
		v.y = in[i + 1];
	if (i + 2 < n)
		v.z = in[i + 2];
	return v;
}

/*
 * Warp 0: scan the warps' counts, take the block's slots with one atomic,
 * and publish where each warp's slots start.
 */
static __device__ void take_slots(const unsigned int *warp_count,
				  unsigned int *warp_base,
				  unsigned int *count)
{
	unsigned int lane = threadIdx.x % 32;
	unsigned int c = lane < F_WARPS ? warp_count[lane] : 0, incl = c;
	unsigned int total, base = 0;

#pragma unroll
	for (unsigned int d = 1; d < F_WARPS; d *= 2) {
		unsigned int u = __shfl_up_sync(0xffffffffu, incl, d);

		if (lane >= d)
			incl += u;
	}
	total = __shfl_sync(0xffffffffu, incl, F_WARPS - 1);
	if (lane == 0 && total)
		base = atomicAdd(count, total);
	base = __shfl_sync(0xffffffffu, base, 0);
	if (lane < F_WARPS)
		warp_base[lane] = base + incl - c;
}

/* Every thread of the block calls this for the same tile (barriers). */
static __device__ __forceinline__ void
filter_tile(const float *__restrict__ in, size_t n, float thr,
	    float *__restrict__ out, unsigned int *count, size_t tile,
	    int tail)
{
	__shared__ unsigned int warp_count[F_WARPS], warp_base[F_WARPS];
	const float4 *in4 = (const float4 *)in;
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	unsigned int below = (1u << lane) - 1, kept = 0, pos;
	size_t q0 = tile * (F_TILE / 4) + threadIdx.x;
	float v[F_VALS];

#pragma unroll
	for (int u = 0; u < F_LOADS; u++) {
		size_t q = q0 + u * F_THREADS;
		float4 x = tail ? load4_padded(in, n, q) : in4[q];

		v[4 * u + 0] = x.x;
		v[4 * u + 1] = x.y;
		v[4 * u + 2] = x.z;
		v[4 * u + 3] = x.w;
	}
	/* Count first; the votes are taken again below rather than kept:
	 * a vote is one instruction, 16 registers more would cost a block
	 * per SM (63 registers against 48). */
#pragma unroll
	for (int k = 0; k < F_VALS; k++)
		kept += __popc(__ballot_sync(0xffffffffu, v[k] > thr));
	if (lane == 0)
		warp_count[warp] = kept;
	__syncthreads();
	if (warp == 0)
		take_slots(warp_count, warp_base, count);
	__syncthreads();
	pos = warp_base[warp];
#pragma unroll
	for (int k = 0; k < F_VALS; k++) {
		unsigned int keep = __ballot_sync(0xffffffffu, v[k] > thr);

		if (v[k] > thr)
			out[pos + __popc(keep & below)] = v[k];
		pos += __popc(keep);
	}
}

static __global__ void __launch_bounds__(F_THREADS)
filter_kernel(const float *__restrict__ in, size_t n, float thr,
	      float *__restrict__ out, unsigned int *count)
{
	size_t full = n / F_TILE, tile = blockIdx.x;

	for (; tile < full; tile += gridDim.x)
		filter_tile(in, n, thr, out, count, tile, 0);
	/* The block whose walk stops exactly at the partial tile takes it:
	 * the condition is the same for all its threads, as the barriers in
	 * filter_tile need. */
	if (tile == full && full * F_TILE < n)
		filter_tile(in, n, thr, out, count, tile, 1);
}

/* Blocks that fit on the GPU at once: SMs x resident blocks per SM. */
static size_t wave(void)
{
	static size_t blocks;

	if (!blocks) {
		int dev, sms, per_sm;

		CUDA_CHECK(cudaGetDevice(&dev));
		CUDA_CHECK(cudaDeviceGetAttribute(&sms,
						  cudaDevAttrMultiProcessorCount,
						  dev));
		CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&per_sm, filter_kernel, F_THREADS, 0));
		blocks = (size_t)sms * (per_sm > 0 ? per_sm : 1);
	}
	return blocks;
}

void filter(const float *in, size_t n, float thr, float *out, int *count,
	    void *work)
{
	size_t tiles = wb_ceil_div(n, F_TILE);
	size_t blocks = tiles < wave() ? tiles : wave();

	(void)work;
	CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(*count), 0));
	filter_kernel<<<(unsigned int)blocks, F_THREADS>>>(
		in, n, thr, out, (unsigned int *)count);
	CUDA_CHECK_LAUNCH();
}
