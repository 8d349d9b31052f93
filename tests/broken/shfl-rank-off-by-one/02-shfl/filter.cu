/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: warp-aggregated slots with the wrong lane mask. A
 * lane's slot must be base + the number of keeping lanes BELOW it,
 * __popc(ballot & ((1u << lane) - 1)). This one counts the lanes at or
 * below it, ((2u << lane) - 1), so every warp writes its slots base + 1 ..
 * base + k instead of base .. base + k - 1: out[0] keeps its poison and
 * the last kept element lands at out[count]. When every element is kept
 * (n = 1, 256, 4099, 65537), that is out[n], past the end of out.
 * Expected verdict: OUT OF BOUNDS (and WRONG at the other sizes).
 * The fix: the lanes strictly below, ((1u << lane) - 1).
 */
#include "shfl.h"

#define THREADS 256

static __global__ void filter_rank_le(const float *in, size_t n, float thr,
				      float *out, unsigned int *count)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int lane = threadIdx.x % 32;
	float v = i < n ? in[i] : 0.0f;
	int keep = i < n && v > thr;
	unsigned int ballot = __ballot_sync(0xffffffffu, keep);
	unsigned int base = 0;

	/* Every lane is here (no divergence yet), so lane 0 may lead. */
	if (lane == 0 && ballot)
		base = atomicAdd(count, __popc(ballot));
	base = __shfl_sync(0xffffffffu, base, 0);
	if (keep)
		out[base + __popc(ballot & ((2u << lane) - 1))] = v;
}

void filter(const float *in, size_t n, float thr, float *out, int *count,
	    void *work)
{
	(void)work;
	CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(*count), 0));
	filter_rank_le<<<wb_ceil_div(n, THREADS), THREADS>>>(
		in, n, thr, out, (unsigned int *)count);
	CUDA_CHECK_LAUNCH();
}
