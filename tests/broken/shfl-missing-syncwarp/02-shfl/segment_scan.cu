/* SPDX-License-Identifier: MIT */
/*
 * Racy on purpose: the naive's Hillis-Steele scan in shared memory, with
 * its block-wide barriers dropped because "a segment is one warp, and a
 * warp runs in lockstep". At each step a lane reads s[tid - d], which lane
 * tid - d overwrites in the same step, with no __syncwarp() between the
 * read and the write. Before Volta a warp did run in lockstep; since
 * Volta its threads may be scheduled independently, so this is a data
 * race. It almost always gives the right prefixes (the warp is converged
 * here), which is what makes it dangerous.
 * Expected verdict: PASS when graded plainly; RACE with SANITIZE=1.
 * The fix: __syncwarp() after the reads and after the writes of each step,
 * or, better, __shfl_up_sync, which needs no shared memory at all.
 */
#include "shfl.h"

#define THREADS 256

static __global__ void scan_lockstep(const float *in, size_t n, float *out)
{
	__shared__ float sh[THREADS];
	volatile float *s = sh;
	unsigned int tid = threadIdx.x, lane = tid % 32;
	size_t i = (size_t)blockIdx.x * blockDim.x + tid;

	s[tid] = i < n ? in[i] : 0.0f;
	for (unsigned int d = 1; d < 32; d *= 2) {
		float below = lane >= d ? s[tid - d] : 0.0f;

		s[tid] += below;
	}
	if (i < n)
		out[i] = s[tid];
}

void segment_scan(const float *in, size_t n, float *out)
{
	scan_lockstep<<<wb_ceil_div(n, THREADS), THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
