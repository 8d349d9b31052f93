/* SPDX-License-Identifier: MIT */
/*
 * peers.cu - the library forms, for make bench (not graded).
 *
 * segment_sum and segment_scan: cub::WarpReduce and cub::WarpScan, CUB's
 * packaging of the shuffle trees, on "logical warps" of 8 threads: each
 * thread loads one float4 (4 elements), so 8 threads cover a segment. One
 * float4 per thread and no grid-stride loop: the library form of the
 * warp-level idea, not a tuned kernel, to compare the solutions' extra
 * steps (several loads in flight, one wave of blocks) against.
 *
 * filter: cub::DeviceSelect::If, a device-wide compaction that also keeps
 * the input order (decoupled look-back over tiles). The exercise forbids it;
 * it is the bar a hand-written kernel is measured against.
 */
#include <cub/cub.cuh>

#include "shfl.h"

#define PEER_THREADS 256
#define PEER_LANES 8 /* threads per segment: 8 float4 = 32 floats */

/* The float4 at index q of in[0 .. n-1], zero-padded past the end. */
static __device__ float4 peer_load4(const float *in, size_t n, size_t q)
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

typedef cub::WarpReduce<float, PEER_LANES> peer_warp_reduce;
typedef cub::WarpScan<float, PEER_LANES> peer_warp_scan;

/* All threads of a block reach the CUB calls: a logical warp past the end
 * reduces zeros and stores nothing. */
static __global__ void __launch_bounds__(PEER_THREADS)
peer_segment_sum_kernel(const float *in, size_t n, float *out)
{
	__shared__ peer_warp_reduce::TempStorage tmp[PEER_THREADS / PEER_LANES];
	size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float4 v = peer_load4(in, n, q);
	float s = peer_warp_reduce(tmp[threadIdx.x / PEER_LANES])
			  .Sum((v.x + v.y) + (v.z + v.w));

	if (threadIdx.x % PEER_LANES == 0 && 4 * q < n)
		out[q / PEER_LANES] = s;
}

void peer_segment_sum(const float *in, size_t n, float *out)
{
	peer_segment_sum_kernel<<<wb_ceil_div(wb_ceil_div(n, 4), PEER_THREADS),
				  PEER_THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}

/* A thread scans its float4, then adds the exclusive scan of the 8
 * float4 totals of its segment. */
static __global__ void __launch_bounds__(PEER_THREADS)
peer_segment_scan_kernel(const float *in, size_t n, float *out)
{
	__shared__ peer_warp_scan::TempStorage tmp[PEER_THREADS / PEER_LANES];
	size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x, i = 4 * q;
	float4 v = peer_load4(in, n, q);
	float before;

	v.y += v.x;
	v.z += v.y;
	v.w += v.z;
	peer_warp_scan(tmp[threadIdx.x / PEER_LANES]).ExclusiveSum(v.w, before);
	if (i + 3 < n) {
		((float4 *)out)[q] = make_float4(v.x + before, v.y + before,
						 v.z + before, v.w + before);
		return;
	}
	if (i < n)
		out[i] = v.x + before;
	if (i + 1 < n)
		out[i + 1] = v.y + before;
	if (i + 2 < n)
		out[i + 2] = v.z + before;
}

void peer_segment_scan(const float *in, size_t n, float *out)
{
	peer_segment_scan_kernel<<<wb_ceil_div(wb_ceil_div(n, 4), PEER_THREADS),
				   PEER_THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}

/* The predicate for DeviceSelect::If. */
struct peer_above {
	float thr;

	__host__ __device__ bool operator()(const float &x) const
	{
		return x > thr;
	}
};

void peer_filter(const float *in, size_t n, float thr, float *out,
		 int *count, void *work)
{
	peer_above op = { thr };
	size_t bytes = 0;

	CUDA_CHECK(cub::DeviceSelect::If(NULL, bytes, in, out, count,
					 (int64_t)n, op));
	/* The temporary storage CUB asks for must fit the workspace. */
	if (bytes > FILTER_WORK_BYTES)
		CUDA_CHECK(cudaErrorMemoryAllocation);
	CUDA_CHECK(cub::DeviceSelect::If(work, bytes, in, out, count,
					 (int64_t)n, op));
}
