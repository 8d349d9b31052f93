/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: write zeros, as fast as memory allows, and hope
 * the check is loose. Every output is a weighted average of v in [-1, 1],
 * rarely 0 within 1%. No tensor-core instruction either, so the static
 * check already withholds the speed points.
 * Expected verdict: WRONG (BUILT with the technique failed without a GPU).
 */
#include "tensor_cores.h"

void attention(const bf16_bits *q, const bf16_bits *k, const bf16_bits *v,
	       bf16_bits *o, int heads, int seq, int dim, int causal)
{
	(void)q, (void)k, (void)v, (void)causal;
	CUDA_CHECK(cudaMemsetAsync(o, 0, (size_t)heads * seq * dim *
					 sizeof(bf16_bits), 0));
}
