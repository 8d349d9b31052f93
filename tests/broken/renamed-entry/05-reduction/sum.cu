/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the entry point was renamed (reduce_sum -> my_sum),
 * so the grader has nothing to call. It compiles and links (the grader's
 * reference to reduce_sum is weak), and must still be reported clearly.
 * Expected verdict: COMPILE ERROR, naming the missing entry point.
 */
#include "reduction.h"

extern "C" void my_sum(const float *in, size_t n, float *out, void *work)
{
	(void)in, (void)n, (void)work;
	CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float), 0));
}
