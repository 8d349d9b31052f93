/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 2 (filter): the naive with atomicAdd(count, 1) in place of
 * atomicInc(count, n). ptxas turns this atomicAdd into the warp-aggregated
 * sequence of step 1 by itself (a vote, a popc, one ATOMG per warp, a
 * shuffle of the base); this step checks on the GPU that it lands where
 * step 1 does, the reason the naive uses atomicInc (README, section 6).
 */
#include "shfl.h"

#define THREADS 256

static __global__ void filter_atomicadd(const float *in, size_t n, float thr,
					float *out, int *count)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n && in[i] > thr)
		out[atomicAdd(count, 1)] = in[i];
}

void filter(const float *in, size_t n, float thr, float *out, int *count,
	    void *work)
{
	(void)work;
	CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(*count), 0));
	filter_atomicadd<<<wb_ceil_div(n, THREADS), THREADS>>>(in, n, thr, out,
							       count);
	CUDA_CHECK_LAUNCH();
}
