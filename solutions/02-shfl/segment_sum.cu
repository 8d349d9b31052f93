/* SPDX-License-Identifier: MIT */
/*
 * Lab 02, exercise 2: segment_sum - a solution.
 *
 * What it changes from the naive shared-memory tree, and why:
 *  - No shared memory and no barrier: the lanes of a warp add each other's
 *    registers with __shfl_xor_sync.
 *  - 16-byte loads, eight issued before the first add (128 bytes in flight
 *    per thread), so the SMs keep enough requests out to cover DRAM
 *    latency; the naive's one 4-byte load per thread cannot.
 *  - A warp takes a tile of 1024 floats, 32 segments, per step: lane l
 *    loads float4 l, l + 32, ..., l + 224 of the tile. Load j of lane l
 *    then holds 4 elements of segment 4j + l/8, so each segment is spread
 *    over 8 loads of 8 lanes. A reduce-scatter adds them: at the xor-4
 *    step each lane keeps half of its 8 partials and sends the other half
 *    to its partner, which keeps the opposite half; then xor 2 (4 -> 2)
 *    and xor 1 (2 -> 1). 7 shuffles per lane and tile, where a tree per
 *    segment would take 8 x 3 = 24, and lane l ends holding the whole of
 *    segment 4 (l % 8) + l / 8: the 32 lanes store the tile's 32 sums as
 *    one 128-byte line.
 *  - About one wave of blocks (as many as fit, from the occupancy API)
 *    walks the tiles with a warp-level grid-stride loop.
 *  - The last, partial tile goes through the same code with checked,
 *    zero-padded loads (scalar for the float4 that straddles n) and
 *    checked stores: zeros add nothing, so a partial segment needs no
 *    other care.
 */
#include "shfl.h"

#define SS_THREADS 256
#define SS_LOADS 8                    /* float4 per lane per tile */
#define SS_TILE (32 * SS_LOADS * 4)   /* floats per warp tile: 32 segments */

/* The float4 at index q of in[0 .. n-1], zero past the end. */
static __device__ float4 load4_padded(const float *in, size_t n, size_t q)
{
	size_t i = 4 * q;
	float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

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
 * One step of the reduce-scatter: of the pair (lo, hi), keep one half and
 * add the partner's copy of it; the lane whose bit m is set keeps hi.
 */
static __device__ __forceinline__ float fold(float lo, float hi,
					     unsigned int upper, int m)
{
	float keep = upper ? hi : lo, send = upper ? lo : hi;

	return keep + __shfl_xor_sync(0xffffffffu, send, m);
}

static __device__ __forceinline__ void
sum_tile(const float *__restrict__ in, size_t n, float *__restrict__ out,
	 size_t tile, int tail)
{
	const float4 *in4 = (const float4 *)in;
	unsigned int lane = threadIdx.x % 32;
	size_t q0 = tile * (SS_TILE / 4) + lane, s;
	float4 v[SS_LOADS];
	float p[SS_LOADS];

#pragma unroll
	for (int j = 0; j < SS_LOADS; j++)
		v[j] = tail ? load4_padded(in, n, q0 + 32 * j) : in4[q0 + 32 * j];
#pragma unroll
	for (int j = 0; j < SS_LOADS; j++)
		p[j] = (v[j].x + v[j].y) + (v[j].z + v[j].w);
	/* p[j]: 4 elements of segment 4j + lane / 8 of the tile. */
#pragma unroll
	for (int k = 0; k < 4; k++)
		p[k] = fold(p[k], p[k + 4], lane & 4, 4);
#pragma unroll
	for (int k = 0; k < 2; k++)
		p[k] = fold(p[k], p[k + 2], lane & 2, 2);
	p[0] = fold(p[0], p[1], lane & 1, 1);
	/* Now the whole of segment 4 (lane % 8) + lane / 8. */
	s = tile * (SS_TILE / SHFL_SEG) + 4 * (lane % 8) + lane / 8;
	if (!tail || s < (n + SHFL_SEG - 1) / SHFL_SEG)
		out[s] = p[0];
}

static __global__ void __launch_bounds__(SS_THREADS)
segment_sum_kernel(const float *__restrict__ in, size_t n,
		   float *__restrict__ out)
{
	size_t warps = (size_t)gridDim.x * (SS_THREADS / 32);
	size_t tile = (size_t)blockIdx.x * (SS_THREADS / 32) + threadIdx.x / 32;
	size_t full = n / SS_TILE;

	for (; tile < full; tile += warps)
		sum_tile(in, n, out, tile, 0);
	/* The warp whose walk stops exactly at the partial tile takes it. */
	if (tile == full && full * SS_TILE < n)
		sum_tile(in, n, out, tile, 1);
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
			&per_sm, segment_sum_kernel, SS_THREADS, 0));
		blocks = (size_t)sms * (per_sm > 0 ? per_sm : 1);
	}
	return blocks;
}

void segment_sum(const float *in, size_t n, float *out)
{
	size_t tiles = wb_ceil_div(n, SS_TILE);
	size_t want = wb_ceil_div(tiles, SS_THREADS / 32);
	size_t blocks = want < wave() ? want : wave();

	segment_sum_kernel<<<(unsigned int)blocks, SS_THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
