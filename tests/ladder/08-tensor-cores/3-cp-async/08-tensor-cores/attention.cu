/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 3 (attention): step 2 plus cp.async. The copies of
 * key tile j + 1 (K and V) fly, global to shared without registers, while
 * the warps multiply tile j from the other stage. Still plain row-major
 * rows (8-way ldmatrix conflicts) and, with causal, every key tile
 * computed. Measured on an H100 (2026-11-27): 60% of the eager cuBLAS
 * path, tier 1 (the conflicts, not the copies, hold it back); step 4
 * adds causal tile skipping.
 *
 * What follows is the solution's design note, for the parts this step
 * shares with it.
 *
 * O = softmax(Q K^T / sqrt(dim)) V without the seq x seq score matrix ever
 * leaving the SM (contract: tensor_cores.h). The design, one paragraph per
 * decision:
 *
 * Work split. A block owns one (batch, head) and a tile of BR = 64 query
 * rows; its 4 warps own 16 rows each, the M of one m16n8k16 mma. The block
 * streams over the keys in tiles of BC = 64. Each warp's 16 query rows stay
 * in registers as mma A fragments for the whole loop, its 16 x dim output
 * accumulates in registers (float32), and the 16 x 64 scores of the current
 * key tile live in registers only between the two products. Per thread:
 * dim/16 * 4 Q registers, dim/8 * 4 accumulators, 32 scores.
 *
 * Two products per key tile, both `mma.sync.m16n8k16.row.col.f32.bf16`:
 * S (16 x 64) = Q (16 x dim) K^T (dim x 64), with k = dim; then
 * O (16 x dim) += P (16 x 64) V (64 x dim), with k = the keys. The score
 * accumulator's register layout (C fragment) is, two n-tiles side by side,
 * exactly the A fragment layout P needs, so P goes from the first product
 * to the second without touching shared memory (see pack_p()).
 *
 * Shared memory. Q, and K and V in two stages each, rows of dim bf16. K is
 * stored [key][dim], which read 8x8 at a time by ldmatrix is already the
 * "col" (k-major) B operand of Q K^T; V is stored [key][dim] too, and
 * ldmatrix.trans turns its 8x8 pieces into the B operand of P V. No
 * transpose is ever written.
 *
 * Swizzle. ldmatrix reads 8 rows of 16 bytes at the same column; with rows
 * of 128 or 256 bytes those 8 addresses fall in the same 4 banks (an 8-way
 * conflict). Storing 16-byte chunk c of row r at chunk c ^ (r & 7) spreads
 * any 8 consecutive rows over all 32 banks. cp.async writes and ldmatrix
 * reads go through the same swizzle (sw()); both move whole 16-byte chunks,
 * so the XOR never splits one.
 *
 * Pipeline. cp.async copies global to shared without registers and without
 * waiting. While the warps compute on key tile j (stage j & 1), tile j + 1
 * is already in flight to the other stage; cp.async.wait_group 1 waits for
 * all but the newest group. Rows past seq are zero-filled by the copy
 * itself (src-size 0): a zero V row times a zero probability is 0, where
 * garbage could be NaN and NaN * 0 is NaN.
 *
 * Online softmax (lab 07). Each thread holds 2 rows' worth (rows g and
 * g + 8 of its warp's 16) of 16 scores per tile; a row's 64 scores are
 * spread over the 4 threads of a quad, so its max is two shuffles away.
 * Per tile: m' = max(m, max_j s_j), rescale the running sum and the
 * accumulators by 2^(m - m'), add 2^(s_j - m'). Scores are scaled into
 * log2 units once (scale * log2(e)) so each exponential is one exp2f. The
 * running sum is kept per thread (its share of the row) and summed over
 * the quad once at the end: the rescale factor is the same for the quad.
 *
 * Masks and causal skipping. Keys past seq, and with causal keys past the
 * query, are set to -inf before the max, so they weigh exactly 0. Only
 * tiles that straddle the end or the diagonal pay for the test. With
 * causal, a query tile stops at the key tile that holds its last row's
 * diagonal: the tiles above it are never loaded, half the work at large
 * seq. Blocks are launched heaviest first (last query tile first) so that
 * short blocks fill the tail of the grid.
 *
 * Output. Each warp divides its accumulators by the row sums, rounds to
 * bf16 once, writes its own 16 rows of the (no longer needed) Q buffer and
 * stores them as 16-byte rows to global memory, coalesced.
 */
#include <math.h>
#include <stdint.h>
#include <cuda_bf16.h>

#include "tensor_cores.h"

#define BR 64			/* query rows per block: 4 warps x 16 */
#define BC 64			/* keys per tile */
#define THREADS 128		/* 4 warps */

/* The PTX below needs sm_80 (bf16 mma, cp.async); the host pass sees it too. */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define ATTN_HAVE_MMA 1
#else
#define ATTN_HAVE_MMA 0
#endif

#if ATTN_HAVE_MMA

/*
 * Element offset of (row, col) in a rows x dim bf16 tile, swizzled: the
 * 16-byte chunk col / 8 is stored at chunk (col / 8) ^ (row % 8). dim / 8
 * >= 8 chunks a row, so the XOR stays inside the row.
 */
static __device__ __forceinline__ int sw(int row, int col, int dim)
{
	/* This step: plain row-major rows (8-way ldmatrix conflicts). */
	return row * dim + col;
}

static __device__ __forceinline__ uint32_t smem_addr(const void *p)
{
	return (uint32_t)__cvta_generic_to_shared(p);
}

/* 16 bytes global -> shared; src_bytes 0 writes 16 zero bytes instead. */
static __device__ __forceinline__ void cp_async16(void *dst, const void *src,
						  int src_bytes)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
		     :: "r"(smem_addr(dst)), "l"(src), "r"(src_bytes));
}

static __device__ __forceinline__ void cp_async_commit(void)
{
	asm volatile("cp.async.commit_group;\n" ::);
}

/* Wait until at most one committed group is still in flight. */
static __device__ __forceinline__ void cp_async_wait1(void)
{
	asm volatile("cp.async.wait_group 1;\n" ::: "memory");
}

/*
 * ldmatrix.x4: four 8x8 bf16 matrices. Lanes 8i..8i+7 give the addresses
 * of matrix i's 8 rows (16 bytes each); afterwards register r[i] of lane l
 * holds row l / 4, elements 2 (l % 4) and 2 (l % 4) + 1 of matrix i (low
 * half = lower column). With .trans, of matrix i transposed: column l / 4,
 * rows 2 (l % 4) and 2 (l % 4) + 1.
 */
static __device__ __forceinline__ void ldmatrix_x4(uint32_t r[4],
						   const void *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
		     "{%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(smem_addr(p)));
}

static __device__ __forceinline__ void ldmatrix_x4_trans(uint32_t r[4],
							 const void *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
		     "{%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(smem_addr(p)));
}

/*
 * d (16x8 f32) += a (16x16 bf16, row) b (16x8 bf16, col). Fragments (PTX
 * ISA, "Matrix Fragments for mma.m16n8k16 with floating point type"), with
 * g = lane / 4 and t = lane % 4, each .b32 register two bf16, low half
 * first:
 *   a[0] = A[g][2t..2t+1]     a[1] = A[g+8][2t..2t+1]
 *   a[2] = A[g][2t+8..2t+9]   a[3] = A[g+8][2t+8..2t+9]
 *   b0   = B[2t..2t+1][g]     b1   = B[2t+8..2t+9][g]
 *   d[0..1] = D[g][2t..2t+1]  d[2..3] = D[g+8][2t..2t+1]
 */
static __device__ __forceinline__ void mma_bf16(float d[4], const uint32_t a[4],
						uint32_t b0, uint32_t b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
		     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
		     "{%0, %1, %2, %3};\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),
		       "r"(b0), "r"(b1));
}

/* Two floats to a bf16x2 register, lo in the low half (round to nearest). */
static __device__ __forceinline__ uint32_t pack_bf16(float lo, float hi)
{
	__nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);

	return *(uint32_t *)&h;
}

/*
 * Start copying rows [r0, r0 + rows) of a seq x dim matrix into a swizzled
 * tile; rows at or past seq become zeros. All THREADS threads take part,
 * one 16-byte chunk at a time.
 */
static __device__ __forceinline__ void load_tile(__nv_bfloat16 *tile,
						 const __nv_bfloat16 *g,
						 int r0, int rows, int seq,
						 int dim)
{
	int chunks = dim / 8;

	for (int c = threadIdx.x; c < rows * chunks; c += THREADS) {
		int row = c / chunks, col = (c % chunks) * 8;
		int ok = r0 + row < seq;
		const __nv_bfloat16 *src = g + (ok ? (size_t)(r0 + row) * dim
						    + col : 0);

		cp_async16(tile + sw(row, col, dim), src, ok ? 16 : 0);
	}
}

/*
 * The A fragment of P for keys 16 kk .. 16 kk + 15: the score accumulators
 * of n-tiles 2 kk (keys +0..7) and 2 kk + 1 (keys +8..15) hold D[g][2t..],
 * D[g+8][2t..] of each, which is a[0], a[1] and a[2], a[3] of A.
 */
static __device__ __forceinline__ void pack_p(uint32_t a[4],
					      const float s0[4],
					      const float s1[4])
{
	a[0] = pack_bf16(s0[0], s0[1]);
	a[1] = pack_bf16(s0[2], s0[3]);
	a[2] = pack_bf16(s1[0], s1[1]);
	a[3] = pack_bf16(s1[2], s1[3]);
}

/* Max and sum over the 4 threads of a quad (the threads of one row). */
static __device__ __forceinline__ float quad_max(float x)
{
	x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 1));
	return fmaxf(x, __shfl_xor_sync(0xffffffffu, x, 2));
}

static __device__ __forceinline__ float quad_sum(float x)
{
	x += __shfl_xor_sync(0xffffffffu, x, 1);
	return x + __shfl_xor_sync(0xffffffffu, x, 2);
}

/*
 * The whole block's work; dim is a literal at each call so that every
 * loop unrolls and every fragment array stays in registers.
 */
static __device__ __forceinline__ void attn_block(const __nv_bfloat16 *q,
						  const __nv_bfloat16 *k,
						  const __nv_bfloat16 *v,
						  __nv_bfloat16 *o, int seq,
						  int causal, float scale_log2,
						  const int dim)
{
	extern __shared__ uint4 smem_raw[];
	__nv_bfloat16 *sq = (__nv_bfloat16 *)smem_raw;
	__nv_bfloat16 *sk = sq + BR * dim;	/* 2 stages */
	__nv_bfloat16 *sv = sk + 2 * BC * dim;	/* 2 stages */
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	int g = lane / 4, t = lane % 4;
	int q0 = (gridDim.x - 1 - blockIdx.x) * BR;	/* heaviest first */
	int wrow = warp * 16;			/* the warp's rows in the tile */
	size_t head = (size_t)blockIdx.y * seq * dim;
	int ntiles = (seq + BC - 1) / BC;
	uint32_t qf[128 / 16][4];		/* Q A fragments, per k-step */
	float acc[128 / 8][4];			/* O accumulators, per n-tile */
	float m[2] = { -INFINITY, -INFINITY };	/* rows g, g + 8 (log2 units) */
	float l[2] = { 0.0f, 0.0f };		/* this thread's share of sums */

	q += head, k += head, v += head, o += head;
	/* This step: every key tile, causal or not (those above the
	 * diagonal are loaded, multiplied and masked out whole). */
#pragma unroll
	for (int n = 0; n < dim / 8; n++)
		acc[n][0] = acc[n][1] = acc[n][2] = acc[n][3] = 0.0f;

	load_tile(sq, q, q0, BR, seq, dim);
	load_tile(sk, k, 0, BC, seq, dim);
	load_tile(sv, v, 0, BC, seq, dim);
	cp_async_commit();

	for (int j = 0; j < ntiles; j++) {
		const __nv_bfloat16 *ks = sk + (j & 1) * BC * dim;
		const __nv_bfloat16 *vs = sv + (j & 1) * BC * dim;
		int k0 = j * BC;
		float s[BC / 8][4];

		/* Prefetch tile j + 1; commit even an empty group. */
		if (j + 1 < ntiles) {
			load_tile(sk + ((j + 1) & 1) * BC * dim, k, k0 + BC,
				  BC, seq, dim);
			load_tile(sv + ((j + 1) & 1) * BC * dim, v, k0 + BC,
				  BC, seq, dim);
		}
		cp_async_commit();
		cp_async_wait1();
		__syncthreads();

		/* Q fragments, once: lanes 0-15 rows 0-15 at col 0, 16-31 col 8. */
		if (j == 0) {
#pragma unroll
			for (int kk = 0; kk < dim / 16; kk++)
				ldmatrix_x4(qf[kk], sq + sw(wrow + lane % 16,
							    kk * 16 + lane / 16 * 8, dim));
		}

		/*
		 * S = Q K^T. ldmatrix matrices: keys +0..7 dims +0..7, keys
		 * +0..7 dims +8..15, keys +8..15 dims +0..7, keys +8..15 dims
		 * +8..15: b0, b1 of n-tile 2 np, then of n-tile 2 np + 1.
		 */
#pragma unroll
		for (int n = 0; n < BC / 8; n++)
			s[n][0] = s[n][1] = s[n][2] = s[n][3] = 0.0f;
#pragma unroll
		for (int kk = 0; kk < dim / 16; kk++) {
#pragma unroll
			for (int np = 0; np < BC / 16; np++) {
				uint32_t b[4];
				int row = np * 16 + lane % 8 + lane / 16 * 8;
				int col = kk * 16 + (lane / 8) % 2 * 8;

				ldmatrix_x4(b, ks + sw(row, col, dim));
				mma_bf16(s[2 * np], qf[kk], b[0], b[1]);
				mma_bf16(s[2 * np + 1], qf[kk], b[2], b[3]);
			}
		}

		/* Mask keys past seq and, with causal, past the query. */
		if (k0 + BC > seq || (causal && k0 + BC > q0)) {
#pragma unroll
			for (int n = 0; n < BC / 8; n++) {
#pragma unroll
				for (int e = 0; e < 4; e++) {
					int key = k0 + n * 8 + 2 * t + (e & 1);
					int qry = q0 + wrow + g + (e >> 1) * 8;

					if (key >= seq || (causal && key > qry))
						s[n][e] = -INFINITY;
				}
			}
		}

		/* Online softmax, rows g (r = 0) and g + 8 (r = 1). */
#pragma unroll
		for (int r = 0; r < 2; r++) {
			float mx = -INFINITY, mnew, base, alpha, sum = 0.0f;

#pragma unroll
			for (int n = 0; n < BC / 8; n++)
				mx = fmaxf(mx, fmaxf(s[n][2 * r], s[n][2 * r + 1]));
			mnew = fmaxf(m[r], quad_max(mx) * scale_log2);
			/* A row with nothing unmasked yet: keep 0 - inf = -inf. */
			base = mnew == -INFINITY ? 0.0f : mnew;
			alpha = exp2f(m[r] - base);
#pragma unroll
			for (int n = 0; n < BC / 8; n++) {
#pragma unroll
				for (int e = 2 * r; e < 2 * r + 2; e++) {
					s[n][e] = exp2f(fmaf(s[n][e], scale_log2,
							     -base));
					sum += s[n][e];
				}
			}
			l[r] = l[r] * alpha + sum;
			m[r] = mnew;
#pragma unroll
			for (int n = 0; n < dim / 8; n++) {
				acc[n][2 * r] *= alpha;
				acc[n][2 * r + 1] *= alpha;
			}
		}

		/*
		 * O += P V. ldmatrix.trans matrices: keys +0..7 dims +0..7,
		 * keys +8..15 dims +0..7, keys +0..7 dims +8..15, keys +8..15
		 * dims +8..15: b0, b1 of dim n-tile 2 dp, then of 2 dp + 1.
		 */
#pragma unroll
		for (int kk = 0; kk < BC / 16; kk++) {
			uint32_t a[4];

			pack_p(a, s[2 * kk], s[2 * kk + 1]);
#pragma unroll
			for (int dp = 0; dp < dim / 16; dp++) {
				uint32_t b[4];
				int row = kk * 16 + lane % 8 + (lane / 8) % 2 * 8;
				int col = dp * 16 + lane / 16 * 8;

				ldmatrix_x4_trans(b, vs + sw(row, col, dim));
				mma_bf16(acc[2 * dp], a, b[0], b[1]);
				mma_bf16(acc[2 * dp + 1], a, b[2], b[3]);
			}
		}
		/* Stage j & 1 is loaded again at iteration j + 1. */
		__syncthreads();
	}

	/* Normalise, round once, stage the warp's 16 rows in sq, store. */
#pragma unroll
	for (int r = 0; r < 2; r++) {
		float inv = 1.0f / quad_sum(l[r]);
		int row = wrow + g + r * 8;

#pragma unroll
		for (int n = 0; n < dim / 8; n++)
			*(uint32_t *)(sq + sw(row, n * 8 + 2 * t, dim)) =
				pack_bf16(acc[n][2 * r] * inv,
					  acc[n][2 * r + 1] * inv);
	}
	__syncwarp();
	for (int c = lane; c < 16 * dim / 8; c += 32) {
		int row = wrow + c / (dim / 8), col = c % (dim / 8) * 8;

		if (q0 + row < seq)
			*(uint4 *)(o + (size_t)(q0 + row) * dim + col) =
				*(const uint4 *)(sq + sw(row, col, dim));
	}
}

#endif /* ATTN_HAVE_MMA */

/* One kernel per head size; older GPUs trap (the lab needs cc >= 8.0). */
#define ATTN_KERNEL(name, dim)                                              \
	__global__ void __launch_bounds__(THREADS)                          \
	name(const __nv_bfloat16 *q, const __nv_bfloat16 *k,                \
	     const __nv_bfloat16 *v, __nv_bfloat16 *o, int seq, int causal, \
	     float scale_log2)                                              \
	{                                                                   \
		ATTN_BODY(q, k, v, o, seq, causal, scale_log2, (dim));      \
	}

#if ATTN_HAVE_MMA
#define ATTN_BODY(q, k, v, o, seq, causal, sl, dim) \
	attn_block((q), (k), (v), (o), (seq), (causal), (sl), (dim))
#else
#define ATTN_BODY(q, k, v, o, seq, causal, sl, dim) __trap()
#endif

ATTN_KERNEL(attn_fwd_d64, 64)
ATTN_KERNEL(attn_fwd_d128, 128)

void attention(const bf16_bits *q, const bf16_bits *k, const bf16_bits *v,
	       bf16_bits *o, int heads, int seq, int dim, int causal)
{
	dim3 grid((seq + BR - 1) / BR, heads);
	size_t smem = (size_t)(BR + 4 * BC) * dim * sizeof(__nv_bfloat16);
	float scale_log2 = (float)(M_LOG2E / sqrt((double)dim));
	void (*kern)(const __nv_bfloat16 *, const __nv_bfloat16 *,
		     const __nv_bfloat16 *, __nv_bfloat16 *, int, int, float);

	if (dim != 64 && dim != 128) {
		wb_cuda_fatal(cudaErrorInvalidValue,
			      "attention: dim not 64 or 128", __FILE__, __LINE__);
		return;
	}
	kern = dim == 64 ? attn_fwd_d64 : attn_fwd_d128;
	/* 80 KiB at dim 128: over the 48 KiB default, so opt in. */
	CUDA_CHECK(cudaFuncSetAttribute(kern,
			cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	kern<<<grid, THREADS, smem>>>((const __nv_bfloat16 *)q,
				      (const __nv_bfloat16 *)k,
				      (const __nv_bfloat16 *)v,
				      (__nv_bfloat16 *)o, seq, causal ? 1 : 0,
				      scale_log2);
	CUDA_CHECK_LAUNCH();
}
