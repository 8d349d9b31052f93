/* SPDX-License-Identifier: MIT */
/*
 * Against the rules on purpose: y = A x done by cuBLAS (cublasSgemv, make
 * bench's library peer). It is correct and about as fast as copy, and the
 * lab forbids it: coalescing your own loads is what the lab teaches. The
 * technique check finds the cuBLAS calls in this file's own symbols,
 * whatever the timings say; and cuBLAS is linked only into the lab's info
 * binary, never into a runner, so the calls do not even link.
 * Expected verdict: COMPILE ERROR (undefined reference to cublas...).
 */
#include <cublas_v2.h>

#include "coalescing.h"

void matvec(const float *a, const float *x, float *y, size_t m, size_t n)
{
	static cublasHandle_t h;
	const float one = 1.0f, zero = 0.0f;

	if (!h && cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
		CUDA_CHECK(cudaErrorUnknown);
	/* Row-major m x n A is column-major n x m A^T: y = (A^T)^T x. */
	if (cublasSgemv(h, CUBLAS_OP_T, (int)n, (int)m, &one, a, (int)n, x, 1,
			&zero, y, 1) != CUBLAS_STATUS_SUCCESS)
		CUDA_CHECK(cudaErrorUnknown);
}
