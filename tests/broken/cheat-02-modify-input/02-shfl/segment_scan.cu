/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the input used as scratch. A thread per element
 * scans its warp's 32 values with __shfl_up_sync (the segments are the
 * warps), writes the prefix sum to out and, to "save" a later pass, back
 * over in (the const is cast away). Every output is right, but the input
 * is destroyed: a caller that reads it again, or calls twice, gets
 * garbage.
 * Expected verdict: WRONG, "modified its input 'in' ... inputs are
 * read-only".
 */
#include "shfl.h"

#define THREADS 256

static __global__ void scan_in_place(float *in, size_t n, float *out)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int lane = threadIdx.x % 32;
	float v = i < n ? in[i] : 0.0f;

	for (unsigned int d = 1; d < 32; d *= 2) {
		float below = __shfl_up_sync(0xffffffffu, v, d);

		if (lane >= d)
			v += below;
	}
	if (i < n) {
		out[i] = v;
		in[i] = v;
	}
}

void segment_scan(const float *in, size_t n, float *out)
{
	scan_in_place<<<wb_ceil_div(n, THREADS), THREADS>>>((float *)in, n,
							    out);
	CUDA_CHECK_LAUNCH();
}
