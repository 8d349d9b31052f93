/* SPDX-License-Identifier: MIT */
/*
 * A fixture for tests/unit/test_inspect.c: what an honest submission may
 * contain. Block-level CUB through <cub/cub.cuh> (which brings iostream's
 * static initialiser, NVTX's weak hooks and cub's EmptyKernel), a kernel
 * and a device function left non-static, a __host__ __device__ helper, a
 * struct with inline members, a static cache. Regenerate its recorded
 * files with: nvcc -c, then sh grader/inspect/inspect.sh (see test_inspect.c).
 */
#include <cub/cub.cuh>

#include "reduction.h"

struct pair {
	float v;
	__host__ __device__ float twice() const { return 2 * v; }
};

__host__ __device__ float halve(float x)
{
	return x / 2;
}

__device__ float square(float x)
{
	return x * x;
}

__global__ void block_sum(const float *in, size_t n, float *out)
{
	typedef cub::BlockReduce<float, 256> reduce;
	__shared__ typename reduce::TempStorage tmp;
	struct pair p = { threadIdx.x < n ? in[threadIdx.x] : 0.0f };
	float v = reduce(tmp).Sum(halve(square(p.twice())));

	if (threadIdx.x == 0)
		*out = v;
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	static int calls;

	(void)work;
	calls++;
	block_sum<<<1, 256>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
}
