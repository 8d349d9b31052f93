/* SPDX-License-Identifier: MIT */
/*
 * peers.cu - the library's best: cuBLAS. Not graded and not for students to
 * call; shown so a solution has a bar. make bench times both peers; matmul
 * times its peer when grading too, and the report gives the submission's
 * TFLOP/s as a share of it.
 *
 * cuBLAS is column-major. A row-major r x c matrix is, byte for byte, the
 * column-major c x r matrix of its transpose, so no data moves:
 *   transpose  b (cols x rows, row-major) is column-major rows x cols, and
 *              equals op(a) with op = transpose of the column-major
 *              cols x rows matrix that a is: cublasSgeam with CUBLAS_OP_T.
 *   matmul     c = a b row-major is c^T = b^T a^T column-major: cublasSgemm
 *              with the operands swapped, m and n swapped, no transposes.
 */
#include <stdio.h>
#include <cublas_v2.h>

#include "tiling.h"

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
 * call of a peer is its untimed correctness check). Pedantic math: fp32
 * products and sums, no TF32 tensor cores, the rules the students follow.
 */
static cublasHandle_t peer_handle(void)
{
	if (!handle) {
		CUBLAS_CHECK(cublasCreate(&handle));
		CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH));
		CUBLAS_CHECK(cublasSetStream(handle, 0));
	}
	return handle;
}

void peer_transpose(const float *a, float *b, size_t rows, size_t cols)
{
	const float one = 1.0f, zero = 0.0f;

	/* b = 1 op(a) + 0 op(a): with beta = 0 the second operand only has
	 * to be a valid matrix, and a is one (finite, so 0 x a is 0). */
	CUBLAS_CHECK(cublasSgeam(peer_handle(), CUBLAS_OP_T, CUBLAS_OP_T,
				 (int)rows, (int)cols, &one, a, (int)cols,
				 &zero, a, (int)cols, b, (int)rows));
}

void peer_matmul(const float *a, const float *b, float *c, size_t m,
		 size_t k, size_t n)
{
	const float one = 1.0f, zero = 0.0f;

	/* c^T (n x m) = b^T (n x k) a^T (k x m), all column-major. */
	CUBLAS_CHECK(cublasSgemm(peer_handle(), CUBLAS_OP_N, CUBLAS_OP_N,
				 (int)n, (int)m, (int)k, &one, b, (int)n, a,
				 (int)k, &zero, c, (int)n));
}
