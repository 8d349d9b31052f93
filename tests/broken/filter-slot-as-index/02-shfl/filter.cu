/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: one atomic per kept element, and the value stored is
 * read with the wrong index. The slot from atomicAdd says where in out a
 * kept value goes; this kernel also reads the value at that index of in,
 * out[slot] = in[slot], instead of the element it tested, in[i]. The count
 * is right and every slot is written, so only the values give it away:
 * out holds elements that were never kept (some at or below thr). Where
 * every element is kept it even passes, as out is then a permutation of
 * in. The check compares out with the kept elements as multisets.
 * Expected verdict: WRONG ("differs from the kept elements as a
 * multiset").
 * The fix: out[slot] = x, the value tested.
 */
#include "shfl.h"

#define THREADS 256

static __global__ void filter_slot_as_index(const float *in, size_t n,
					    float thr, float *out,
					    unsigned int *count)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n && in[i] > thr) {
		unsigned int slot = atomicAdd(count, 1u);

		out[slot] = in[slot];
	}
}

void filter(const float *in, size_t n, float thr, float *out, int *count,
	    void *work)
{
	(void)work;
	CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(*count), 0));
	filter_slot_as_index<<<wb_ceil_div(n, THREADS), THREADS>>>(
		in, n, thr, out, (unsigned int *)count);
	CUDA_CHECK_LAUNCH();
}
