/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: no kernel, y zeroed with cudaMemsetAsync. GeLU is
 * close to 0 for very negative inputs, so some values even pass; the rest
 * do not.
 * Expected verdict: WRONG at every size, "every wrong value is 0".
 */
#include "fusion.h"

void bias_gelu(const float *x, const float *b, float *y, size_t rows,
	       size_t cols)
{
	(void)x, (void)b;
	CUDA_CHECK(cudaMemsetAsync(y, 0, rows * cols * sizeof(float), 0));
}
