/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: compute once, then replay. The first call for a
 * given input pointer and length runs a real reduction and keeps the
 * result on the host; every later call with the same pointer and length
 * copies that result back into `out` and skips the work. A grader that
 * times the same inputs over and over would see a huge speedup.
 *
 * The grader's timed calls see two input sets in turn, in the same
 * buffers, and a call right after the timing gets the set the last timed
 * call did not: the replayed sum is the other set's.
 * Expected verdict: WRONG ("a call on new inputs ... was wrong", or "the
 * output of a timed run was wrong").
 */
#include "reduction.h"

#define THREADS 256

/*
 * A plain grid-stride reduction: each thread sums a strided slice, the
 * block combines its partial sums in shared memory, one atomic per block.
 */
static __global__ void sum_blocks(const float *in, size_t n, float *out)
{
	__shared__ float s[THREADS];
	size_t stride = (size_t)gridDim.x * blockDim.x;
	float acc = 0.0f;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		acc += in[i];
	s[threadIdx.x] = acc;
	__syncthreads();
	for (unsigned int step = blockDim.x / 2; step > 0; step /= 2) {
		if (threadIdx.x < step)
			s[threadIdx.x] += s[threadIdx.x + step];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		atomicAdd(out, s[0]);
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	static const float *last_in;
	static size_t last_n;
	static float last_sum;
	size_t blocks = wb_ceil_div(n, THREADS);

	(void)work;
	if (in == last_in && n == last_n) {
		CUDA_CHECK(cudaMemcpy(out, &last_sum, sizeof(float),
				      cudaMemcpyHostToDevice));
		return;
	}
	if (blocks > 1024)
		blocks = 1024;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
	sum_blocks<<<blocks, THREADS>>>(in, n, out);
	CUDA_CHECK_LAUNCH();
	CUDA_CHECK(cudaMemcpy(&last_sum, out, sizeof(float),
			      cudaMemcpyDeviceToHost));
	last_in = in;
	last_n = n;
}
