/* SPDX-License-Identifier: MIT */
/*
 * Against the rules on purpose: the whole exercise done by CUB's
 * device-wide compaction (make bench's library peer). It is correct and
 * fast, and the lab forbids it: the warp-level counting is what the lab
 * teaches. The technique check finds CUB's DeviceSelect kernels in this
 * file's own object (their shuffles satisfy the "must" rule, the library
 * rule fails), whatever the timings say.
 * Expected verdict: PASS with the correctness points only (technique
 * failed: the performance points are withheld).
 */
#include <cub/cub.cuh>

#include "shfl.h"

struct above {
	float thr;
	__device__ bool operator()(const float &x) const { return x > thr; }
};

void filter(const float *in, size_t n, float thr, float *out, int *count,
	    void *work)
{
	size_t bytes = 0;
	struct above op = { thr };

	CUDA_CHECK(cub::DeviceSelect::If(NULL, bytes, in, out, count, (int)n,
					 op));
	if (bytes > FILTER_WORK_BYTES)
		CUDA_CHECK(cudaErrorMemoryAllocation);
	CUDA_CHECK(cub::DeviceSelect::If(work, bytes, in, out, count, (int)n,
					 op));
}
