/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 5 (attention, issue #31): the mma.sync kernel, what the
 * solution runs on a GPU without wgmma (sm_80 to sm_89, or a Hopper GPU
 * with code built for plain sm_90), and was alone until 2026-11-28. Step
 * 4 plus the XOR swizzle of the shared tiles and two m16 tiles a warp
 * (128 query rows a block), so that each K and V fragment feeds two
 * mma; measured on an H200 (make grade): 32% of the tensor cores' peak,
 * tier 3, against step 4's 5.5%. The solution's wgmma path: 56%.
 *
 * Fused attention forward on mma.sync.
 *
 * O = softmax(Q K^T / sqrt(dim)) V without the seq x seq score matrix ever
 * leaving the SM (contract: tensor_cores.h). The design, one paragraph per
 * decision:
 *
 * Work split. A block owns one (batch, head) and a tile of BR query rows;
 * each of its NW warps owns WM x 16 of them (WM m16 tiles, the M of one
 * m16n8k16 mma), so BR = NW x WM x 16. The block streams over the keys in
 * tiles of BC. A warp's output (WM x 16 x dim) accumulates in registers
 * (float32), and the WM x 16 x BC scores of the current key tile live in
 * registers only between the two products. With WM = 2 every K and V
 * fragment a warp loads from shared memory feeds two mma instead of one:
 * ldmatrix, not the tensor cores, is what limits a warp of 16 rows.
 *
 * Two products per key tile, both `mma.sync.m16n8k16.row.col.f32.bf16`:
 * S (16 x BC) = Q (16 x dim) K^T (dim x BC), with k = dim; then
 * O (16 x dim) += P (16 x BC) V (BC x dim), with k = the keys. The score
 * accumulator's register layout (C fragment) is, two n-tiles side by side,
 * exactly the A fragment layout P needs, so P goes from the first product
 * to the second without touching shared memory (see pack_p()). Q's A
 * fragments stay in registers for the whole loop where they fit (QREG);
 * otherwise they are read again from shared memory at each key tile.
 *
 * Shared memory. Q, K and V, rows of dim bf16. K is stored [key][dim],
 * which read 8x8 at a time by ldmatrix is already the "col" (k-major) B
 * operand of Q K^T; V is stored [key][dim] too, and ldmatrix.trans turns
 * its 8x8 pieces into the B operand of P V. No transpose is ever written.
 *
 * Swizzle. ldmatrix reads 8 rows of 16 bytes at the same column; with rows
 * of 128 or 256 bytes those 8 addresses fall in the same 4 banks (an 8-way
 * conflict). Storing 16-byte chunk c of row r at chunk c ^ (r & 7) spreads
 * any 8 consecutive rows over all 32 banks. cp.async writes and ldmatrix
 * reads go through the same swizzle (sw()); both move whole 16-byte chunks,
 * so the XOR never splits one.
 *
 * Pipeline. cp.async copies global to shared without registers and without
 * waiting, and K and V travel in separate groups so that S = Q K^T starts
 * as soon as K has landed. PIPE 0 keeps one K and one V buffer: V of tile
 * j loads while S of tile j is computed, K of tile j + 1 while the softmax
 * and P V of tile j are. PIPE 2 keeps two of each and loads tile j + 1
 * whole during tile j. Rows past seq are zero-filled by the copy itself
 * (src-size 0): a zero V row times a zero probability is 0, where garbage
 * could be NaN and NaN * 0 is NaN.
 *
 * Online softmax (lab 07). Each thread holds 2 rows' worth (rows g and
 * g + 8 of each m16 tile) of BC / 4 scores per tile; a row's scores are
 * spread over the 4 threads of a quad, so its max is two shuffles away.
 * Per tile: m' = max(m, max_j s_j), rescale the running sum and the
 * accumulators by 2^(m - m'), add 2^(s_j - m'). Scores are scaled into
 * log2 units inside the exponential's argument (one FFMA, then ex2). The
 * running sum is kept per thread (its share of the row) and summed over
 * the quad once at the end: the rescale factor is the same for the quad.
 *
 * Masks and causal skipping. Keys past seq, and with causal keys past the
 * query, are set to -inf before the max, so they weigh exactly 0. Only a
 * warp whose rows straddle the end or the diagonal of the tile pays for
 * the test, and a warp whose rows all lie above the tile's first key skips
 * the tile's arithmetic. With causal, a query tile stops at the key tile
 * that holds its last row's diagonal: the tiles above it are never loaded,
 * half the work at large seq. Blocks are launched heaviest first over the
 * whole grid (the last query tile of every head, then the one before...)
 * so that short blocks fill the tail of the grid.
 *
 * Output. Each warp divides its accumulators by the row sums, rounds to
 * bf16 once, writes its own rows of the (no longer needed) Q buffer and
 * stores them as 16-byte rows to global memory, coalesced.
 *
 * Tile sizes, measured (an H200, 2026-11-28: a sweep of the macros below
 * at the lab's benchmark, 16 heads of seq 4096, CUDA events, L2 flushed,
 * median of 25; d 64 causal, d 128 causal, d 128 full). Chosen: 4 warps of
 * 2 m16 tiles (BR 128) at both head sizes, BC 128 at d 64 and 64 at d 128,
 * PIPE 0, Q read from shared memory: 135, 241 and 461 us (254, 285 and
 * 298 TFLOP/s, 26% to 30% of the 989 TFLOP/s dense bf16 peak), 1.55x the
 * previous solution (BR 64, 16 rows a warp: 224, 395 and 633 us) in the
 * same process. The reasons, one variant against another:
 *  - 2 m16 tiles a warp against 1 (both PIPE 2, BC 64): 142 against 170
 *    us at d 64 causal, 469 against 583 at d 128 full. The same 128 rows
 *    as 8 warps of 1 tile are slower still (208 and 587 us): the reuse of
 *    each ldmatrix wins, not the height of the block.
 *  - BC: at d 64, 128 keys beat 64 and 32 (135, 144, 181 us); at d 128,
 *    64 beat 32 (461 against 534 us full); 128 was not tried: its
 *    scores alone would need 128 registers beside the 128 accumulators.
 *  - Q in registers takes dim / 4 of them per m16 tile (64 at d 128 with
 *    2 tiles); it spills at d 128 (1 KiB: 761 us full) and at d 64 with
 *    BC 128 (162 us), so Q is read again from shared memory instead, one
 *    ldmatrix per m16 tile and k-step.
 *  - PIPE 0 and 2 are within 2% of each other (d 128: 241 and 461 us
 *    against 243 and 469); PIPE 0 needs half the K and V buffers (64 KiB
 *    a block at d 128 against 96).
 * Both kernels use 255 registers with ~120 bytes of spills (ptxas -v);
 * variants without spills were slower.
 */
#include <math.h>
#include <stdint.h>
#include <cuda_bf16.h>

#include "tensor_cores.h"

/*
 * The tiles of each head size: warps, m16 tiles per warp, keys per tile,
 * pipeline (0: one K and one V buffer; 2: two of each), Q fragments kept in
 * registers, and the blocks per SM asked of the register allocator.
 */
#ifndef D64_NW
#define D64_NW 4
#endif
#ifndef D64_WM
#define D64_WM 2
#endif
#ifndef D64_BC
#define D64_BC 128
#endif
#ifndef D64_PIPE
#define D64_PIPE 0
#endif
#ifndef D64_QREG
#define D64_QREG 0
#endif
#ifndef D64_MINB
#define D64_MINB 1
#endif
#ifndef D128_NW
#define D128_NW 4
#endif
#ifndef D128_WM
#define D128_WM 2
#endif
#ifndef D128_BC
#define D128_BC 64
#endif
#ifndef D128_PIPE
#define D128_PIPE 0
#endif
#ifndef D128_QREG
#define D128_QREG 0
#endif
#ifndef D128_MINB
#define D128_MINB 1
#endif

#define WM_MAX 2		/* register arrays are sized for the largest */
#define BC_MAX 128

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
	return row * dim + ((((col >> 3) ^ (row & 7))) << 3) + (col & 7);
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

/* Wait until at most n committed groups are still in flight. */
#define cp_async_wait(n) \
	asm volatile("cp.async.wait_group %0;\n" :: "n"(n) : "memory")

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

/* 2^x, one MUFU op; 2^-inf = 0 (exp2f adds a denormal fix-up we need not). */
static __device__ __forceinline__ float fast_exp2(float x)
{
	float y;

	asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
	return y;
}

/* Two floats to a bf16x2 register, lo in the low half (round to nearest). */
static __device__ __forceinline__ uint32_t pack_bf16(float lo, float hi)
{
	__nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);

	return *(uint32_t *)&h;
}

/*
 * Start copying rows [r0, r0 + rows) of a seq x dim matrix into a swizzled
 * tile; rows at or past seq become zeros. All nthr threads take part, one
 * 16-byte chunk at a time.
 */
static __device__ __forceinline__ void load_tile(__nv_bfloat16 *tile,
						 const __nv_bfloat16 *g,
						 int r0, int rows, int seq,
						 int dim, int nthr)
{
	int chunks = dim / 8;

#pragma unroll
	for (int c = threadIdx.x; c < rows * chunks; c += nthr) {
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

/* A warp's running state: Q fragments, accumulators, row max and sum. */
struct attn_warp {
	uint32_t qf[WM_MAX][128 / 16][4];	/* Q A fragments (QREG) */
	float acc[WM_MAX][128 / 8][4];	/* O, per m tile and dim n-tile */
	float m[WM_MAX][2];		/* rows g, g + 8 (log2 units) */
	float l[WM_MAX][2];		/* this thread's share of sums */
};

/*
 * S = Q K^T for the warp's wm x 16 rows (at wrow of sq) against the bc
 * keys in ks. ldmatrix matrices of K: keys +0..7 dims +0..7, keys +0..7
 * dims +8..15, keys +8..15 dims +0..7, keys +8..15 dims +8..15: b0, b1 of
 * n-tile 2 np, then of n-tile 2 np + 1. Q's (lanes 0-15 rows 0-15 at col
 * 0, lanes 16-31 at col 8) are a[0..3].
 */
static __device__ __forceinline__ void qk(float s[WM_MAX][BC_MAX / 8][4],
					  const struct attn_warp *w,
					  const __nv_bfloat16 *sq,
					  const __nv_bfloat16 *ks, int wrow,
					  const int dim, const int wm,
					  const int bc, const int qreg)
{
	int lane = threadIdx.x % 32;

#pragma unroll
	for (int mi = 0; mi < wm; mi++)
#pragma unroll
		for (int n = 0; n < bc / 8; n++)
			s[mi][n][0] = s[mi][n][1] = s[mi][n][2] =
				s[mi][n][3] = 0.0f;
#pragma unroll
	for (int kk = 0; kk < dim / 16; kk++) {
		uint32_t qa[WM_MAX][4];

#pragma unroll
		for (int mi = 0; mi < wm; mi++) {
			if (qreg) {
				qa[mi][0] = w->qf[mi][kk][0];
				qa[mi][1] = w->qf[mi][kk][1];
				qa[mi][2] = w->qf[mi][kk][2];
				qa[mi][3] = w->qf[mi][kk][3];
			} else {
				ldmatrix_x4(qa[mi],
					    sq + sw(wrow + mi * 16 + lane % 16,
						    kk * 16 + lane / 16 * 8,
						    dim));
			}
		}
#pragma unroll
		for (int np = 0; np < bc / 16; np++) {
			uint32_t b[4];
			int row = np * 16 + lane % 8 + lane / 16 * 8;
			int col = kk * 16 + (lane / 8) % 2 * 8;

			ldmatrix_x4(b, ks + sw(row, col, dim));
#pragma unroll
			for (int mi = 0; mi < wm; mi++) {
				mma_bf16(s[mi][2 * np], qa[mi], b[0], b[1]);
				mma_bf16(s[mi][2 * np + 1], qa[mi], b[2], b[3]);
			}
		}
	}
}

/* Keys past seq and, with causal, past the query weigh -inf. */
static __device__ __forceinline__ void mask(float s[WM_MAX][BC_MAX / 8][4],
					    int k0, int qrow, int seq,
					    int causal, const int wm,
					    const int bc)
{
	int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;

#pragma unroll
	for (int mi = 0; mi < wm; mi++)
#pragma unroll
		for (int n = 0; n < bc / 8; n++)
#pragma unroll
			for (int e = 0; e < 4; e++) {
				int key = k0 + n * 8 + 2 * t + (e & 1);
				int qry = qrow + mi * 16 + g + (e >> 1) * 8;

				if (key >= seq || (causal && key > qry))
					s[mi][n][e] = -INFINITY;
			}
}

/*
 * Online softmax of one tile's scores, in place (s becomes P, unscaled),
 * rows g (r = 0) and g + 8 (r = 1) of each m16 tile.
 */
static __device__ __forceinline__ void softmax(float s[WM_MAX][BC_MAX / 8][4],
					       struct attn_warp *w,
					       float scale_log2, const int dim,
					       const int wm, const int bc)
{
#pragma unroll
	for (int mi = 0; mi < wm; mi++) {
#pragma unroll
		for (int r = 0; r < 2; r++) {
			float mx = -INFINITY, mnew, base, alpha, sum = 0.0f;

#pragma unroll
			for (int n = 0; n < bc / 8; n++)
				mx = fmaxf(mx, fmaxf(s[mi][n][2 * r],
						     s[mi][n][2 * r + 1]));
			mnew = fmaxf(w->m[mi][r], quad_max(mx) * scale_log2);
			/* A row with nothing unmasked yet: keep 0 - inf = -inf. */
			base = mnew == -INFINITY ? 0.0f : mnew;
			alpha = fast_exp2(w->m[mi][r] - base);
#pragma unroll
			for (int n = 0; n < bc / 8; n++) {
#pragma unroll
				for (int e = 2 * r; e < 2 * r + 2; e++) {
					s[mi][n][e] = fast_exp2(
						fmaf(s[mi][n][e], scale_log2,
						     -base));
					sum += s[mi][n][e];
				}
			}
			w->l[mi][r] = w->l[mi][r] * alpha + sum;
			w->m[mi][r] = mnew;
#pragma unroll
			for (int n = 0; n < dim / 8; n++) {
				w->acc[mi][n][2 * r] *= alpha;
				w->acc[mi][n][2 * r + 1] *= alpha;
			}
		}
	}
}

/*
 * O += P V. ldmatrix.trans matrices of V: keys +0..7 dims +0..7, keys
 * +8..15 dims +0..7, keys +0..7 dims +8..15, keys +8..15 dims +8..15: b0,
 * b1 of dim n-tile 2 dp, then of 2 dp + 1.
 */
static __device__ __forceinline__ void pv(struct attn_warp *w,
					  float s[WM_MAX][BC_MAX / 8][4],
					  const __nv_bfloat16 *vs,
					  const int dim, const int wm,
					  const int bc)
{
	int lane = threadIdx.x % 32;

#pragma unroll
	for (int kk = 0; kk < bc / 16; kk++) {
		uint32_t a[WM_MAX][4];

#pragma unroll
		for (int mi = 0; mi < wm; mi++)
			pack_p(a[mi], s[mi][2 * kk], s[mi][2 * kk + 1]);
#pragma unroll
		for (int dp = 0; dp < dim / 16; dp++) {
			uint32_t b[4];
			int row = kk * 16 + lane % 8 + (lane / 8) % 2 * 8;
			int col = dp * 16 + lane / 16 * 8;

			ldmatrix_x4_trans(b, vs + sw(row, col, dim));
#pragma unroll
			for (int mi = 0; mi < wm; mi++) {
				mma_bf16(w->acc[mi][2 * dp], a[mi], b[0], b[1]);
				mma_bf16(w->acc[mi][2 * dp + 1], a[mi], b[2],
					 b[3]);
			}
		}
	}
}

/*
 * Normalise, round once, stage the warp's rows in its own rows of sq (no
 * other warp reads them), store them to global memory as 16-byte rows.
 */
static __device__ __forceinline__ void store_out(const struct attn_warp *w,
						 __nv_bfloat16 *sq,
						 __nv_bfloat16 *o, int q0,
						 int wrow, int seq,
						 const int dim, const int wm)
{
	int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;

#pragma unroll
	for (int mi = 0; mi < wm; mi++) {
#pragma unroll
		for (int r = 0; r < 2; r++) {
			float inv = 1.0f / quad_sum(w->l[mi][r]);
			int row = wrow + mi * 16 + g + r * 8;

#pragma unroll
			for (int n = 0; n < dim / 8; n++)
				*(uint32_t *)(sq + sw(row, n * 8 + 2 * t, dim)) =
					pack_bf16(w->acc[mi][n][2 * r] * inv,
						  w->acc[mi][n][2 * r + 1] * inv);
		}
	}
	__syncwarp();
	for (int c = lane; c < wm * 16 * dim / 8; c += 32) {
		int row = wrow + c / (dim / 8), col = c % (dim / 8) * 8;

		if (q0 + row < seq)
			*(uint4 *)(o + (size_t)(q0 + row) * dim + col) =
				*(const uint4 *)(sq + sw(row, col, dim));
	}
}

/*
 * The whole block's work. dim and the tile shape are literals at each call
 * so that every loop unrolls and every fragment array stays in registers.
 */
static __device__ __forceinline__ void attn_block(const __nv_bfloat16 *q,
						  const __nv_bfloat16 *k,
						  const __nv_bfloat16 *v,
						  __nv_bfloat16 *o, int heads,
						  int seq, int causal,
						  float scale_log2,
						  const int dim, const int nw,
						  const int wm, const int bc,
						  const int pipe,
						  const int qreg)
{
	extern __shared__ uint4 smem_raw[];
	const int br = nw * wm * 16, nthr = nw * 32;
	const int nbuf = pipe == 2 ? 2 : 1;
	__nv_bfloat16 *sq = (__nv_bfloat16 *)smem_raw;
	__nv_bfloat16 *sk = sq + br * dim;	/* nbuf buffers */
	__nv_bfloat16 *sv = sk + nbuf * bc * dim;	/* nbuf buffers */
	int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	int qtiles = (seq + br - 1) / br;
	/* Heaviest first: the last query tile of every head, then ... */
	int q0 = (qtiles - 1 - (int)blockIdx.x / heads) * br;
	size_t head = (size_t)(blockIdx.x % heads) * seq * dim;
	int wrow = warp * wm * 16;		/* the warp's rows in the tile */
	int wlast = q0 + wrow + wm * 16 - 1;	/* and its last query */
	int ntiles = (seq + bc - 1) / bc;
	struct attn_warp w;

	q += head, k += head, v += head, o += head;
	if (causal)
		ntiles = min(ntiles, (q0 + br - 1) / bc + 1);
#pragma unroll
	for (int mi = 0; mi < wm; mi++) {
#pragma unroll
		for (int n = 0; n < dim / 8; n++)
			w.acc[mi][n][0] = w.acc[mi][n][1] = w.acc[mi][n][2] =
				w.acc[mi][n][3] = 0.0f;
		w.m[mi][0] = w.m[mi][1] = -INFINITY;
		w.l[mi][0] = w.l[mi][1] = 0.0f;
	}

	/* Groups: Q with K 0, then V 0 (PIPE 2: V 0 at the loop's top). */
	load_tile(sq, q, q0, br, seq, dim, nthr);
	load_tile(sk, k, 0, bc, seq, dim, nthr);
	cp_async_commit();
	if (pipe == 2) {
		load_tile(sv, v, 0, bc, seq, dim, nthr);
		cp_async_commit();
	}

	for (int j = 0; j < ntiles; j++) {
		int b = pipe == 2 ? (j & 1) : 0;
		const __nv_bfloat16 *ks = sk + b * bc * dim;
		const __nv_bfloat16 *vs = sv + b * bc * dim;
		int k0 = j * bc;
		/* All of the warp's queries above the tile's first key? */
		int active = !causal || k0 <= wlast;
		float s[WM_MAX][BC_MAX / 8][4];

		if (pipe == 2) {
			/* Tile j + 1 into the other buffers, K then V. */
			if (j + 1 < ntiles)
				load_tile(sk + (b ^ 1) * bc * dim, k, k0 + bc,
					  bc, seq, dim, nthr);
			cp_async_commit();
			if (j + 1 < ntiles)
				load_tile(sv + (b ^ 1) * bc * dim, v, k0 + bc,
					  bc, seq, dim, nthr);
			cp_async_commit();
			cp_async_wait(3);	/* K j landed */
		} else {
			cp_async_wait(0);	/* K j landed */
		}
		__syncthreads();
		if (pipe == 0) {
			/* V j into the buffer P V of tile j - 1 is done with. */
			load_tile(sv, v, k0, bc, seq, dim, nthr);
			cp_async_commit();
		}
		if (qreg && j == 0) {
#pragma unroll
			for (int mi = 0; mi < wm; mi++)
#pragma unroll
				for (int kk = 0; kk < dim / 16; kk++)
					ldmatrix_x4(w.qf[mi][kk],
						    sq + sw(wrow + mi * 16 +
							    lane % 16,
							    kk * 16 +
							    lane / 16 * 8,
							    dim));
		}
		if (active) {
			qk(s, &w, sq, ks, wrow, dim, wm, bc, qreg);
			if (k0 + bc > seq || (causal && k0 + bc - 1 > q0 + wrow))
				mask(s, k0, q0 + wrow, seq, causal, wm, bc);
		}
		if (pipe == 2)
			cp_async_wait(2);	/* V j landed */
		else
			cp_async_wait(0);
		__syncthreads();
		if (pipe == 0 && j + 1 < ntiles) {
			/* K j + 1 into the buffer S of tile j is done with. */
			load_tile(sk, k, k0 + bc, bc, seq, dim, nthr);
			cp_async_commit();
		}
		if (active) {
			softmax(s, &w, scale_log2, dim, wm, bc);
			pv(&w, s, vs, dim, wm, bc);
		}
		/* PIPE 2: buffer b is loaded again at iteration j + 1. */
		if (pipe == 2)
			__syncthreads();
	}
	store_out(&w, sq, o, q0, wrow, seq, dim, wm);
}

#endif /* ATTN_HAVE_MMA */

#define ATTN_THREADS(d) (d##_NW * 32)
#define ATTN_BR(d) (d##_NW * d##_WM * 16)
#define ATTN_SMEM(d, dim) \
	((size_t)(ATTN_BR(d) + (d##_PIPE == 2 ? 4 : 2) * d##_BC) * (dim) * 2)

/* One kernel per head size; older GPUs trap (the lab needs cc >= 8.0). */
#if ATTN_HAVE_MMA
#define ATTN_BODY(d, dim)                                                   \
	attn_block(q, k, v, o, heads, seq, causal, scale_log2, (dim),      \
		   d##_NW, d##_WM, d##_BC, d##_PIPE, d##_QREG)
#else
#define ATTN_BODY(d, dim) __trap()
#endif

#define ATTN_KERNEL(name, d, dim)                                           \
	__global__ void __launch_bounds__(ATTN_THREADS(d), d##_MINB)        \
	name(const __nv_bfloat16 *q, const __nv_bfloat16 *k,                \
	     const __nv_bfloat16 *v, __nv_bfloat16 *o, int heads, int seq,  \
	     int causal, float scale_log2)                                  \
	{                                                                   \
		ATTN_BODY(d, dim);                                          \
	}

ATTN_KERNEL(attn_fwd_d64, D64, 64)
ATTN_KERNEL(attn_fwd_d128, D128, 128)

void attention(const bf16_bits *q, const bf16_bits *k, const bf16_bits *v,
	       bf16_bits *o, int heads, int seq, int dim, int causal)
{
	void (*kern)(const __nv_bfloat16 *, const __nv_bfloat16 *,
		     const __nv_bfloat16 *, __nv_bfloat16 *, int, int, int,
		     float);
	float scale_log2 = (float)(M_LOG2E / sqrt((double)dim));
	int br, threads;
	size_t smem;

	if (dim == 64) {
		kern = attn_fwd_d64;
		br = ATTN_BR(D64), threads = ATTN_THREADS(D64);
		smem = ATTN_SMEM(D64, 64);
	} else if (dim == 128) {
		kern = attn_fwd_d128;
		br = ATTN_BR(D128), threads = ATTN_THREADS(D128);
		smem = ATTN_SMEM(D128, 128);
	} else {
		wb_cuda_fatal(cudaErrorInvalidValue,
			      "attention: dim not 64 or 128", __FILE__, __LINE__);
		return;
	}
	/* 64 KiB at d 128 (96 with PIPE 2): over the 48 KiB default, so
	 * opt in. */
	CUDA_CHECK(cudaFuncSetAttribute(kern,
			cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
	/* Query tiles x heads < 2^31: heads * seq < 2^31 / dim. */
	kern<<<(seq + br - 1) / br * heads, threads, smem>>>(
		(const __nv_bfloat16 *)q, (const __nv_bfloat16 *)k,
		(const __nv_bfloat16 *)v, (__nv_bfloat16 *)o, heads, seq,
		causal ? 1 : 0, scale_log2);
	CUDA_CHECK_LAUNCH();
}
