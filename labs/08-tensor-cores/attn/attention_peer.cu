/* SPDX-License-Identifier: MIT */
/*
 * attention_peer.cu - the eager path on cuBLAS (lab 08's library peer).
 *
 * What PyTorch's eager attention (matmul, softmax, matmul) runs, so that
 * the fused kernel is compared with the library's best unfused path:
 *
 *   S = scale Q K^T   cublasGemmStridedBatchedEx, bf16 in, fp32 compute,
 *                     fp32 out (work, 4 bytes a score)
 *   P = softmax(S)    one block a row, fp32 math, P stored as bf16 (work,
 *                     after S: 2 bytes a score), masked keys 0
 *   O = P V           cublasGemmStridedBatchedEx, bf16 in, fp32 compute,
 *                     bf16 out
 *
 * cuBLAS is column-major; a row-major r x c matrix is, byte for byte, the
 * c x r column-major matrix that is its transpose. So per head:
 *   S^T (seq_k x seq_q) = K (seq_k x dim) Q^T:  A = K buffer (dim x seq_k
 *     column-major, op T), B = Q buffer (dim x seq_q, op N), ldc = seq;
 *   O^T (dim x seq_q) = V^T P^T:  A = V buffer (dim x seq_k, op N),
 *     B = P buffer (seq_k x seq_q, op N), ldc = dim.
 * Tensor cores are allowed (the default math mode): they are the point.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>

#include "workbook.h"
#include "attention.h"

#define ROW_THREADS 256

static cublasHandle_t handle;

/* A failed cuBLAS call ends the process like a failed CUDA call. */
static void cublas_check(cublasStatus_t st, const char *call, int line)
{
	if (st == CUBLAS_STATUS_SUCCESS)
		return;
	fprintf(stderr, "cuBLAS: %s in %s at %s:%d\n",
		cublasGetStatusString(st), call, __FILE__, line);
	exit(3);
}

#define CUBLAS_CHECK(call) cublas_check((call), #call, __LINE__)

/* Made on first use, on the default stream; the warm-up call pays for it. */
static cublasHandle_t peer_handle(void)
{
	if (!handle) {
		CUBLAS_CHECK(cublasCreate(&handle));
		CUBLAS_CHECK(cublasSetStream(handle, 0));
	}
	return handle;
}

/* Max (op 0) or sum (op 1) over the block, by a tree in shared memory. */
static __device__ float peer_reduce(float x, float *buf, int op)
{
	buf[threadIdx.x] = x;
	__syncthreads();
	for (int n = ROW_THREADS / 2; n > 0; n /= 2) {
		if (threadIdx.x < n)
			buf[threadIdx.x] = op ? buf[threadIdx.x] +
						buf[threadIdx.x + n]
					      : fmaxf(buf[threadIdx.x],
						      buf[threadIdx.x + n]);
		__syncthreads();
	}
	x = buf[0];
	__syncthreads();
	return x;
}

/* Row r = head * seq + i: fp32 S in, bf16 P out, keys past i masked. */
__global__ void peer_softmax(const float *s, __nv_bfloat16 *p, int seq,
			     int causal)
{
	__shared__ float buf[ROW_THREADS];
	size_t r = blockIdx.x;
	int n = causal ? (int)(r % seq) + 1 : seq;
	const float *in = s + r * seq;
	__nv_bfloat16 *out = p + r * seq;
	float mx = -INFINITY, sum = 0.0f;

	for (int j = threadIdx.x; j < n; j += ROW_THREADS)
		mx = fmaxf(mx, in[j]);
	mx = peer_reduce(mx, buf, 0);
	for (int j = threadIdx.x; j < n; j += ROW_THREADS)
		sum += __expf(in[j] - mx);
	sum = 1.0f / peer_reduce(sum, buf, 1);
	for (int j = threadIdx.x; j < seq; j += ROW_THREADS)
		out[j] = __float2bfloat16(j < n ? __expf(in[j] - mx) * sum
					       : 0.0f);
}

void peer_attention(const bf16_bits *q, const bf16_bits *k,
		    const bf16_bits *v, bf16_bits *o, int batch, int heads,
		    int seq, int dim, int causal, void *work)
{
	int bh = batch * heads;
	long long sd = (long long)seq * dim, ss = (long long)seq * seq;
	float *s = (float *)work;
	__nv_bfloat16 *p = (__nv_bfloat16 *)(s + (size_t)bh * ss);
	float alpha = (float)(1.0 / sqrt((double)dim)), one = 1.0f, zero = 0.0f;

	CUBLAS_CHECK(cublasGemmStridedBatchedEx(peer_handle(),
			CUBLAS_OP_T, CUBLAS_OP_N, seq, seq, dim, &alpha,
			k, CUDA_R_16BF, dim, sd, q, CUDA_R_16BF, dim, sd,
			&zero, s, CUDA_R_32F, seq, ss, bh,
			CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
	peer_softmax<<<(unsigned)((size_t)bh * seq), ROW_THREADS>>>(s, p, seq,
								    causal);
	CUDA_CHECK_LAUNCH();
	CUBLAS_CHECK(cublasGemmStridedBatchedEx(peer_handle(),
			CUBLAS_OP_N, CUBLAS_OP_N, dim, seq, seq, &one,
			v, CUDA_R_16BF, dim, sd, p, CUDA_R_16BF, seq, ss,
			&zero, o, CUDA_R_16BF, dim, sd, bh,
			CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}
