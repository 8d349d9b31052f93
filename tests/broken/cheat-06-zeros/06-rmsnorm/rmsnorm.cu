/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: no kernel, the output zeroed with cudaMemsetAsync.
 * It moves half the bytes of a real RMSNorm and is very fast; every value
 * is wrong except where the reference is 0.
 * Expected verdict: WRONG at every size, "every wrong value is 0".
 */
#include "rmsnorm.h"

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	(void)x, (void)w, (void)eps;
	CUDA_CHECK(cudaMemsetAsync(y, 0, rows * hidden * sizeof(float), 0));
}
