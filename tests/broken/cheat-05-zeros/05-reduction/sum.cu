/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: no kernel at all. The "sum" is a zero written with
 * cudaMemsetAsync, which is fast and, for inputs that average out, not far
 * from the truth. The poison before every call makes sure that what is
 * checked is what this call wrote.
 * Expected verdict: WRONG at every size, "every wrong value is 0".
 */
#include "reduction.h"

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)in, (void)n, (void)work;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
}
