/* SPDX-License-Identifier: MIT */
/*
 * attention.h - the contract of lab 08's `attention` exercise (standalone
 * for now: the lab takes these files in).
 *
 * The forward pass of scaled dot-product attention, per (batch, head):
 *
 *     S = Q K^T / sqrt(dim)            seq x seq scores
 *     P = softmax(S) row by row        (causal: key j > query i masked out)
 *     O = P V                          seq x dim
 *
 * Layout: q, k, v and o are [batch][heads][seq][dim] row-major bfloat16,
 * contiguous; element (b, h, i, d) is at ((b * heads + h) * seq + i) * dim
 * + d. Pointers are device pointers, 16-byte aligned (cudaMalloc gives
 * 256). Every sum (the scores, the softmax's max and sum, P V) is float32;
 * only the inputs and the output are bfloat16.
 *
 * Sizes: dim is 64 or 128 (the head sizes of most language models); seq is
 * any value >= 1 (1, 31, 33, 100 and 257 are all checked: the last tile of
 * keys and of queries is partial); batch * heads >= 1 and <= 65535 (one
 * grid dimension); batch * heads * seq * seq < 2^40 (the eager paths'
 * scratch, below, must fit the GPU anyway).
 *
 * causal: 0 for full attention, 1 to mask key j > query i (every row keeps
 * at least key 0, so no row is empty).
 *
 * work: device scratch of at least ATTN_WORK_BYTES(batch, heads, seq)
 * bytes, for the eager paths' score matrix: float32 S (4 bytes a score)
 * and a bfloat16 copy of P (2 bytes a score) for the cuBLAS peer. The
 * fused kernel needs no scratch and must not use it (a score matrix in
 * global memory is what it exists to avoid).
 *
 * The fused kernel needs compute capability >= 8.0 (mma.sync on bf16,
 * cp.async); the lab refuses to run it on older GPUs.
 */
#ifndef ATTENTION_H
#define ATTENTION_H

#include <stddef.h>
#include <stdint.h>

/*
 * A bfloat16 as its 16 raw bits, so that this header is plain C. In a .cu
 * file, cast the pointer: (const __nv_bfloat16 *)q (from <cuda_bf16.h>).
 */
typedef uint16_t bf16_bits;

/* Bytes of scratch the eager paths need: fp32 S plus bf16 P, per score. */
#define ATTN_WORK_BYTES(batch, heads, seq)                                  \
	((size_t)(batch) * (size_t)(heads) * (size_t)(seq) * (size_t)(seq) * \
	 (sizeof(float) + sizeof(bf16_bits)))

#ifdef __cplusplus
extern "C" {
#endif

/* The fused kernel (FlashAttention-style; attention_solution.cu). */
void attention(const bf16_bits *q, const bf16_bits *k, const bf16_bits *v,
	       bf16_bits *o, int batch, int heads, int seq, int dim,
	       int causal, void *work);

/* The naive eager path (attention_naive.cu): S, softmax, P V in 3 kernels. */
void naive_attention(const bf16_bits *q, const bf16_bits *k,
		     const bf16_bits *v, bf16_bits *o, int batch, int heads,
		     int seq, int dim, int causal, void *work);

/* The eager path on cuBLAS (attention_peer.cu), as PyTorch's eager runs. */
void peer_attention(const bf16_bits *q, const bf16_bits *k,
		    const bf16_bits *v, bf16_bits *o, int batch, int heads,
		    int seq, int dim, int causal, void *work);

#ifdef __cplusplus
}
#endif

#endif /* ATTENTION_H */
