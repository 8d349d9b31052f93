/* SPDX-License-Identifier: MIT */
/*
 * A fixture for tests/unit/test_inspect.c: CUB's and Thrust's device-wide
 * algorithms, which the symbol check allows (a technique rule withholds
 * their speed points instead). Their templates switch devices
 * (cudaSetDevice), Thrust's error categories are function-local statics
 * (__cxa_atexit), NVTX's loader reads its environment variable and opens
 * its tool library: all from the headers' own code.
 */
#include <cub/cub.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include "reduction.h"

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	size_t bytes = REDUCE_WORK_BYTES;

	CUDA_CHECK(cub::DeviceReduce::Sum(work, bytes, in, out, (int)n));
}

void reduce_argmax(const float *in, size_t n, long long *out, void *work)
{
	float best = thrust::reduce(thrust::device, in, in + n, -1e30f,
				    thrust::maximum<float>());

	(void)out, (void)work, (void)best;
}
