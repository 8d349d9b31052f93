/* SPDX-License-Identifier: MIT */
/*
 * tensor_cores.h - the entry points of lab 08 (tensor cores).
 *
 * Matrix multiplies on the tensor cores: bfloat16 inputs, float32
 * accumulation (hgemm: float32 output; attention: bfloat16 output, its
 * softmax in float32). The exercise file defines the host function;
 * the grader calls it with device pointers (256-byte aligned, from
 * cudaMalloc) and waits for the device afterwards. Launch on the default
 * stream and choose grid, block and shared memory inside: everything
 * launched counts in the time.
 *
 * Matrices are row-major and contiguous. Every extent is between 1 and
 * 65536 and every matrix has fewer than 2^31 elements. The tensor-core
 * instructions this lab uses for bfloat16 (mma.sync m16n8k16, ldmatrix,
 * cp.async) need compute capability 8.0 (sm_80) or later.
 */
#ifndef TENSOR_CORES_H
#define TENSOR_CORES_H

#include <stddef.h>
#include <stdint.h>
#include "workbook.h"
/* A Hopper kernel may load with the TMA: its tensor maps (tma.h). */
#include "tma.h"

/*
 * A bfloat16 as its 16 raw bits, so that this header is plain C. In a .cu
 * file, cast the pointer: (const __nv_bfloat16 *)a (from <cuda_bf16.h>).
 */
typedef uint16_t bf16_bits;

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The warm-up, correctness only: for each tile t < tiles, one mma.sync's
 * worth, c[t] = a[t] b[t], with a[t] 16 x 16 and b[t] 16 x 8 (bf16,
 * row-major, tile after tile) and c[t] 16 x 8 (float32, row-major). With
 * ldmatrix and mma.sync.m16n8k16 (technique rules).
 */
void fragments(const bf16_bits *a, const bf16_bits *b, float *c,
	       size_t tiles);

/*
 * c = a b: a is m x k, b is k x n (bfloat16), c is m x n (float32);
 *     c[i][j] = sum over p < k of a[i][p] * b[p][j],
 * each product exact, the sum in float32 (or wider). k and n are
 * multiples of 8 (every row of a and b starts 16-byte aligned); m is any.
 * With tensor-core instructions (mma.sync, wmma or wgmma); no cuBLAS or
 * other library GEMM.
 */
void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n);

/* The naive reference the grader times against (naive.cu): lab 04's
 * shared-memory tiles, in float32 on the CUDA cores. */
void naive_hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
		 size_t k, size_t n);

/*
 * Library peer (peers.cu): cublasGemmEx, bf16 inputs, fp32 compute and
 * output, on the tensor cores. hgemm's ideal: the grader times it without
 * your code, and the tiers are shares of its time. Not for students to
 * call.
 */
void peer_hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
		size_t k, size_t n);

/*
 * attention, exercise 3: the forward pass of scaled dot-product attention,
 * for each of `heads` independent (batch, head) pairs:
 *
 *     S = Q K^T / sqrt(dim)     seq x seq scores
 *     P = softmax(S), by rows   causal: key j > query i weighs 0
 *     O = P V                   seq x dim
 *
 * q, k, v and o are [heads][seq][dim] row-major bfloat16: element (h, i,
 * d) is at (h * seq + i) * dim + d (a [batch][heads] layout is the same
 * with heads = batch x heads). dim is 64 or 128; seq is any value >= 1;
 * 1 <= heads <= 65535; heads * seq * dim < 2^31. causal: 0 for full
 * attention, 1 to mask keys j > i (every row keeps key 0). Every sum (the
 * scores, the softmax's max and sum, P V) in float32; only the inputs and
 * the output are bfloat16. With tensor-core instructions; no library.
 */
void attention(const bf16_bits *q, const bf16_bits *k, const bf16_bits *v,
	       bf16_bits *o, int heads, int seq, int dim, int causal);

/* Bytes of scratch the eager paths (naive and peer) need: a float32 S and
 * a bfloat16 P for every score. */
#define ATTN_WORK_BYTES(heads, seq)                                        \
	((size_t)(heads) * (size_t)(seq) * (size_t)(seq) *                 \
	 (sizeof(float) + sizeof(bf16_bits)))

/*
 * The naive reference (naive_attention.cu): the eager path on the CUDA
 * cores, three kernels with the score matrix in `work` (at least
 * ATTN_WORK_BYTES(heads, seq) bytes of device memory) between them.
 */
void naive_attention(const bf16_bits *q, const bf16_bits *k,
		     const bf16_bits *v, bf16_bits *o, int heads, int seq,
		     int dim, int causal, void *work);

/*
 * Device scratch of at least `bytes` for the eager paths, kept between
 * sizes and grown when a size needs more (lab.c's setup asks for it, so
 * that no timed call allocates). NULL when the device has no room.
 */
void *attn_work(size_t bytes);

/*
 * Library peer (peers.cu): the same eager path with cuBLAS's batched bf16
 * GEMMs on the tensor cores, as a framework without fusion runs it.
 * attention's ideal: the tiers are shares of its time. Not for students.
 */
void peer_attention(const bf16_bits *q, const bf16_bits *k,
		    const bf16_bits *v, bf16_bits *o, int heads, int seq,
		    int dim, int causal, void *work);

#ifdef __cplusplus
}
#endif

#endif /* TENSOR_CORES_H */
