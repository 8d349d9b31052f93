/* SPDX-License-Identifier: MIT */
/*
 * peers.cu - the library's best: cuBLAS's bf16 GEMM on the tensor cores
 * (hgemm's peer), and attention's eager path on the same GEMMs (its peer).
 * Not for students to call. The tiers are shares of their times, which
 * the grader measures in its reference run (without the student's code);
 * make bench shows them beside the naive and the solution.
 *
 * cuBLAS is column-major. A row-major r x c matrix is, byte for byte, the
 * column-major c x r matrix of its transpose, so c = a b row-major is
 * c^T = b^T a^T column-major: the operands swapped, m and n swapped, no
 * transposes (as lab 04's peer_matmul).
 */
#include <math.h>
#include <stdio.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>

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

/*
 * attention's peer: what PyTorch's eager attention (matmul, softmax,
 * matmul) runs, so that the fused kernel is compared with the library's
 * best unfused path:
 *
 *   S = scale Q K^T   cublasGemmStridedBatchedEx, bf16 in, fp32 compute,
 *                     fp32 out (work, 4 bytes a score)
 *   P = softmax(S)    one block a row, fp32 math, P stored as bf16 (work,
 *                     after S: 2 bytes a score), masked keys 0
 *   O = P V           cublasGemmStridedBatchedEx, bf16 in, fp32 compute,
 *                     bf16 out
 *
 * Per head, column-major as above: S^T (seq x seq) = K Q^T, with A the K
 * buffer (dim x seq column-major, op T) and B the Q buffer (dim x seq, op
 * N); O^T (dim x seq) = V^T P^T, with A the V buffer (dim x seq, op N) and
 * B the P buffer (seq x seq, op N).
 */
#define PEER_ROW_THREADS 256

/* Max (op 0) or sum (op 1) over the block, by a tree in shared memory. */
static __device__ float peer_reduce(float x, float *buf, int op)
{
	buf[threadIdx.x] = x;
	__syncthreads();
	for (int n = PEER_ROW_THREADS / 2; n > 0; n /= 2) {
		if (threadIdx.x < n)
			buf[threadIdx.x] = op ? buf[threadIdx.x] +
						buf[threadIdx.x + n]
					      : fmaxf(buf[threadIdx.x],
						      buf[threadIdx.x + n]);
		__syncthreads();
	}
	x = buf[0];
	__syncthreads();	/* buf is reused by the next call */
	return x;
}

/* Row r = head * seq + i: fp32 S in, bf16 P out, keys past i masked. */
static __global__ void peer_softmax(const float *s, __nv_bfloat16 *p,
				    int seq, int causal)
{
	__shared__ float buf[PEER_ROW_THREADS];
	size_t r = blockIdx.x;
	int n = causal ? (int)(r % seq) + 1 : seq;
	const float *in = s + r * seq;
	__nv_bfloat16 *out = p + r * seq;
	float mx = -INFINITY, sum = 0.0f;

	for (int j = threadIdx.x; j < n; j += PEER_ROW_THREADS)
		mx = fmaxf(mx, in[j]);
	mx = peer_reduce(mx, buf, 0);
	for (int j = threadIdx.x; j < n; j += PEER_ROW_THREADS)
		sum += __expf(in[j] - mx);
	sum = 1.0f / peer_reduce(sum, buf, 1);
	for (int j = threadIdx.x; j < seq; j += PEER_ROW_THREADS)
		out[j] = __float2bfloat16(j < n ? __expf(in[j] - mx) * sum
					       : 0.0f);
}

void peer_attention(const bf16_bits *q, const bf16_bits *k,
		    const bf16_bits *v, bf16_bits *o, int heads, int seq,
		    int dim, int causal, void *work)
{
	long long sd = (long long)seq * dim, ss = (long long)seq * seq;
	float *s = (float *)work;
	__nv_bfloat16 *p = (__nv_bfloat16 *)(s + (size_t)heads * ss);
	float alpha = (float)(1.0 / sqrt((double)dim)), one = 1.0f;
	float zero = 0.0f;
	unsigned int rows = (unsigned int)((size_t)heads * seq);

	CUBLAS_CHECK(cublasGemmStridedBatchedEx(peer_handle(),
			CUBLAS_OP_T, CUBLAS_OP_N, seq, seq, dim, &alpha,
			k, CUDA_R_16BF, dim, sd, q, CUDA_R_16BF, dim, sd,
			&zero, s, CUDA_R_32F, seq, ss, heads,
			CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
	peer_softmax<<<rows, PEER_ROW_THREADS>>>(s, p, seq, causal);
	CUDA_CHECK_LAUNCH();
	CUBLAS_CHECK(cublasGemmStridedBatchedEx(peer_handle(),
			CUBLAS_OP_N, CUBLAS_OP_N, dim, seq, seq, &one,
			v, CUDA_R_16BF, dim, sd, p, CUDA_R_16BF, seq, ss,
			&zero, o, CUDA_R_16BF, dim, sd, heads,
			CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}
