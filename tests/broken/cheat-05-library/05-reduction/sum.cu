/* SPDX-License-Identifier: MIT */
/*
 * Against the rules on purpose: the whole exercise done by CUB's
 * device-wide reduction (make bench's library peer). It is correct and
 * fast, and the lab forbids it: the reduction is what the lab teaches.
 * The technique check finds CUB's DeviceReduce kernels in this file's own
 * object, whatever the timings say.
 * Expected verdict: PASS with the correctness points only (technique
 * failed: the performance points are withheld).
 */
#include <cub/cub.cuh>

#include "reduction.h"

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	size_t bytes = 0;

	CUDA_CHECK(cub::DeviceReduce::Sum(NULL, bytes, in, out, (int64_t)n));
	if (bytes > REDUCE_WORK_BYTES)
		CUDA_CHECK(cudaErrorMemoryAllocation);
	CUDA_CHECK(cub::DeviceReduce::Sum(work, bytes, in, out, (int64_t)n));
}
