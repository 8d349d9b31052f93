/* SPDX-License-Identifier: MIT */
/*
 * Against the rules on purpose: c = a b done by cuBLAS (cublasSgemm in
 * float32, make bench's library peer). It is correct and fast, and the
 * contract forbids it: tiling the product yourself is what the lab
 * teaches. The technique check finds the cuBLAS calls in this file's own
 * symbols (and no shared memory in its PTX), whatever the timings say;
 * and cuBLAS is linked only into the lab's info binary, never into a
 * runner, so the calls do not even link.
 * Expected verdict: COMPILE ERROR (undefined reference to cublas...).
 */
#include <cublas_v2.h>

#include "tiling.h"

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	static cublasHandle_t h;
	const float one = 1.0f, zero = 0.0f;

	if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
		CUDA_CHECK(cudaErrorUnknown);
	/* c^T (n x m) = b^T (n x k) a^T (k x m), all column-major. */
	if (cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k,
			&one, b, (int)n, a, (int)k, &zero, c,
			(int)n) != CUBLAS_STATUS_SUCCESS)
		CUDA_CHECK(cudaErrorUnknown);
}
