/* SPDX-License-Identifier: MIT */
/*
 * peers.cu - the library's best: cuBLAS's bf16 GEMM on the tensor cores.
 * Not for students to call. hgemm's tiers are shares of its time, which
 * the grader measures in its reference run (without the student's code);
 * make bench shows it beside the naive and the solution.
 *
 * cuBLAS is column-major. A row-major r x c matrix is, byte for byte, the
 * column-major c x r matrix of its transpose, so c = a b row-major is
 * c^T = b^T a^T column-major: the operands swapped, m and n swapped, no
 * transposes (as lab 04's peer_matmul).
 */
#include <stdio.h>
#include <cublas_v2.h>

#include "tensor_cores.h"

static cublasHandle_t handle;

/* A failed cuBLAS call ends the process like a failed CUDA call. */
static void cublas_check(cublasStatus_t st, const char *call, int line)
{
	if (st == CUBLAS_STATUS_SUCCESS)
		return;
	fprintf(stderr, "cuBLAS: %s\n", cublasGetStatusString(st));
	wb_cuda_fatal(cudaErrorUnknown, call, __FILE__, line);
}

#define CUBLAS_CHECK(call) cublas_check((call), #call, __LINE__)

/*
 * One handle for the process, made on the first call (the grader's first
 * call of a peer is its untimed correctness check). Default math: bf16
 * inputs go to the tensor cores; CUBLAS_COMPUTE_32F keeps the products'
 * sum in fp32, the contract the students follow.
 */
static cublasHandle_t peer_handle(void)
{
	if (!handle) {
		CUBLAS_CHECK(cublasCreate(&handle));
		CUBLAS_CHECK(cublasSetStream(handle, 0));
	}
	return handle;
}

void peer_hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
		size_t k, size_t n)
{
	const float one = 1.0f, zero = 0.0f;

	/* c^T (n x m) = b^T (n x k) a^T (k x m), all column-major. */
	CUBLAS_CHECK(cublasGemmEx(peer_handle(), CUBLAS_OP_N, CUBLAS_OP_N,
				  (int)n, (int)m, (int)k, &one, b, CUDA_R_16BF,
				  (int)n, a, CUDA_R_16BF, (int)k, &zero, c,
				  CUDA_R_32F, (int)n, CUBLAS_COMPUTE_32F,
				  CUBLAS_GEMM_DEFAULT));
}
