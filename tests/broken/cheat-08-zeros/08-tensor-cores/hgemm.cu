/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: write zeros, compute nothing (and touch no tensor
 * core). The inputs are random and signed, so no element of c is zero.
 * Expected verdict: WRONG; without a GPU, BUILT with technique=failed.
 */
#include "tensor_cores.h"

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	(void)a, (void)b, (void)k;
	CUDA_CHECK(cudaMemsetAsync(c, 0, m * n * sizeof(float), 0));
}
