/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: compute the scores with cuBLAS's batched GEMM (the
 * peer's eager path) instead of a fused kernel. The student's runner does
 * not link cuBLAS (only the grader's reference does), so the link fails.
 * Expected verdict: COMPILE ERROR (with or without a GPU).
 */
#include <cublas_v2.h>

#include "tensor_cores.h"

void attention(const bf16_bits *q, const bf16_bits *k, const bf16_bits *v,
	       bf16_bits *o, int heads, int seq, int dim, int causal)
{
	static cublasHandle_t h;
	const float one = 1.0f, zero = 0.0f;
	long long sd = (long long)seq * dim;

	(void)v, (void)causal;
	if (!h)
		cublasCreate(&h);
	/* Scores of the first dim x dim corner only, into o: enough to need
	 * the library, which is the point of the case. */
	cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, dim, dim, dim,
				   &one, k, CUDA_R_16BF, dim, sd, q,
				   CUDA_R_16BF, dim, sd, &zero, o,
				   CUDA_R_16BF, dim, sd, heads,
				   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
