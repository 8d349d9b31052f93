/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: call cuBLAS's bf16 GEMM, the ideal the tiers are
 * shares of, instead of writing a kernel. The student's runner does not
 * link cuBLAS (only the grader's reference does), so the link fails.
 * Expected verdict: COMPILE ERROR (with or without a GPU).
 */
#include <cublas_v2.h>

#include "tensor_cores.h"

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	static cublasHandle_t h;
	const float one = 1.0f, zero = 0.0f;

	if (!h)
		cublasCreate(&h);
	cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &one,
		     b, CUDA_R_16BF, (int)n, a, CUDA_R_16BF, (int)k, &zero, c,
		     CUDA_R_32F, (int)n, CUBLAS_COMPUTE_32F,
		     CUBLAS_GEMM_DEFAULT);
}
