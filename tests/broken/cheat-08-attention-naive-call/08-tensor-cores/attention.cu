/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: attention handed to the lab's own naive, the eager
 * path (naive_attention), with scratch of its own for the score matrix.
 * The answers are right; the work is the lab's reference, not the file's,
 * and calling into it is not allowed (nor is a library, nor the device
 * allocation a timed call should not make).
 * Expected verdict: REJECTED (the file is never run).
 */
#include "tensor_cores.h"

void attention(const bf16_bits *q, const bf16_bits *k, const bf16_bits *v,
	       bf16_bits *o, int heads, int seq, int dim, int causal)
{
	static void *work;
	static size_t have;
	size_t need = ATTN_WORK_BYTES(heads, seq);

	if (need > have) {
		CUDA_CHECK(cudaFree(work));
		CUDA_CHECK(cudaMalloc(&work, need));
		have = need;
	}
	naive_attention(q, k, v, o, heads, seq, dim, causal, work);
}
