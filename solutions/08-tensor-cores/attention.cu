/* SPDX-License-Identifier: MIT */
/*
 * Lab 08, exercise 3: attention - solution: fused attention forward.
 *
 * O = softmax(Q K^T / sqrt(dim)) V without the seq x seq score matrix ever
 * leaving the SM (contract: tensor_cores.h), by two paths; attention() at
 * the end picks one:
 *
 *   1. mma.sync (any GPU from sm_80): ladder step 5
 *      (tests/ladder/08-tensor-cores/5-two-m-tiles), the design below.
 *   2. wgmma fed by the TMA (a Hopper GPU, this file built for sm_90a, as
 *      the Makefile builds it there): the paragraphs at "Path 2" say
 *      what it changes, and why.
 *
 * Measured on an H200 (2026-11-28), the lab's benchmark (16 heads of seq
 * 4096: d 64 causal, d 128 causal, d 128 full), in the grader (make
 * grade, make bench): path 1 247 us geometric mean, 278 TFLOP/s, 32% of
 * the wgmma peak measured beside it; path 2 139 us, 493 TFLOP/s, 56%; the
 * eager path on cuBLAS 963 us. In a standalone bench (median of 25, L2
 * flushed, both in one process): path 1 134, 242 and 465 us, path 2 91,
 * 127 and 233 us (378, 542 and 590 TFLOP/s).
 *
 * ==== Path 1, one paragraph per decision ====
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
 * ==== Path 1: mma.sync (sm_80 on) ====
 *
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

/*
 * ==== Path 2: wgmma and the TMA (a Hopper GPU, code built for sm_90a) ====
 *
 * Why. Path 1 is bound by mma.sync, whose rate on a Hopper GPU tops out
 * near two thirds of the tensor cores' (hgemm.cu measures it), and by the
 * ldmatrix that feed it. wgmma.mma_async has a warp group (4 warps) issue
 * a 64 x N x 16 product whose shared-memory operands the tensor cores
 * read themselves, asynchronously: no ldmatrix, and the warps are free
 * while it runs (hgemm.cu and section 8 of the README teach it).
 *
 * Work split. A block owns 128 query rows of one head, 3 warp groups:
 * group 0 the producer (one thread issues every TMA copy; setmaxnreg
 * gives its registers away), groups 1 and 2 the consumers, 64 rows each,
 * walking the keys 128 at a time. Per key tile a consumer issues
 * S (64 x 128) = Q K^T as dim / 16 wgmma m64n128k16 (both operands in
 * shared memory, K-major: Q and K as stored), then, after the softmax,
 * O (64 x dim) += P V as 8 wgmma m64n{dim}k16 with P from registers: a
 * wgmma's A may come from registers, in an mma.sync A fragment's layout
 * per warp, and its accumulators are laid out as mma.sync's C fragments,
 * so P goes from one product to the other as in path 1. V's operand is
 * dim-contiguous (MN-major): the instruction's imm-trans-b.
 *
 * Loads. Q once, then K and V of each key tile, by the TMA from a 3-d
 * tensor map (dim, seq, heads): boxes of 64 columns (128 bytes, the
 * 128-byte swizzle wgmma reads) by 128 rows of one head; rows past seq
 * come back as zeros, so no tile needs a special path (a zero V row times
 * a probability that the mask made 0 adds nothing). K and V of a stage
 * have their own "full" mbarriers, so S can start before V lands, and one
 * "empty" barrier each stage, which the consumers' 8 warps arrive on once
 * P V has read it. W_ST64 and W_ST128 stages.
 *
 * Overlap. At d 64 a consumer issues S of tile j and then P V of tile j
 * - 1, and runs the softmax of S (j) while P V (j - 1) is on the tensor
 * cores (FlashAttention-3's intra-warpgroup pipelining): P then needs two
 * register sets, used in turn (a copy between them would write registers
 * a wgmma in flight reads, and ptxas would serialise every wgmma). At d
 * 128 the two sets, 64 score and 64 output registers do not fit in 240 a
 * thread (ptxas spills and serialises: 302 against 233 us), so each tile
 * is S, softmax, P V in turn; the other consumer's wgmma fill the gaps.
 *
 * Measured (H200, standalone bench above; first variant the chosen one):
 * d 64 causal overlapped 91 us against 97 in turn; d 128 in turn with 2
 * stages 127 and 233 us against 128 and 236 with 3 (overlapped: 147-161
 * and 272-302). Every output row checked against the double reference
 * (lab tolerance) at 22 awkward sizes (seq 1 to 4097, causal or not,
 * inputs up to 12) and the benchmark's rows.
 */
#define W_BR 128		/* query rows per block: 64 per consumer */
#define W_BC 128		/* keys per tile: one wgmma's N for S */
#define W_CONSUMERS 2		/* consumer warp groups */
#define W_THREADS ((W_CONSUMERS + 1) * 128)
#define W_MAXST 4		/* the most K and V stages of any head size */
#ifndef W_ST64
#define W_ST64 3		/* K and V stages at d 64 */
#endif
#ifndef W_ST128
#define W_ST128 2		/* and at d 128 */
#endif
/* S of a tile issued beside P V of the one before, by head size. */
#ifndef W_OV64
#define W_OV64 1
#endif
#ifndef W_OV128
#define W_OV128 0
#endif
#define W_PROD_REGS 24		/* setmaxnreg: the producer gives registers */
#define W_CONS_REGS 240		/* and the consumers take them */

/* Bytes of one 64-column slab of rows: rows of 128 bytes. */
#define W_SLAB(rows) ((rows) * 128)
/* Q's slabs, then per stage K's slabs and V's; + 1024 to align. */
#define W_Q_BYTES(dim) ((dim) / 64 * W_SLAB(W_BR))
#define W_KV_BYTES(dim) ((dim) / 64 * W_SLAB(W_BC))
#define W_SMEM(dim, st) (W_Q_BYTES(dim) + (st) * 2 * W_KV_BYTES(dim) + 1024)

#if W_ST64 > W_MAXST || W_ST128 > W_MAXST
#error "at most W_MAXST stages"
#endif

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define W_OK 1
#else
#define W_OK 0
#endif

#if W_OK
static __device__ __forceinline__ void w_bar_init(unsigned int bar, int n)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
		     :: "r"(bar), "r"(n) : "memory");
}

/* The producer: this barrier's phase completes when `bytes` have landed. */
static __device__ __forceinline__ void w_bar_expect(unsigned int bar,
						    unsigned int bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
		     :: "r"(bar), "r"(bytes) : "memory");
}

static __device__ __forceinline__ void w_bar_arrive(unsigned int bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
		     :: "r"(bar) : "memory");
}

/* Until the phase of this parity has completed. */
static __device__ __forceinline__ void w_bar_wait(unsigned int bar,
						  unsigned int parity)
{
	asm volatile("{\n.reg .pred done;\n"
		     "AGAIN_%=:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
		     "@!done bra AGAIN_%=;\n}\n"
		     :: "r"(bar), "r"(parity) : "memory");
}

/* Box (64 columns, rows, one head) at (col, row, head) to shared memory. */
static __device__ __forceinline__ void w_tma3(unsigned int dst,
					      const CUtensorMap *map, int col,
					      int row, int head,
					      unsigned int bar)
{
	asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global."
		     "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
		     "[%5];"
		     :: "r"(dst), "l"(map), "r"(col), "r"(row), "r"(head),
		        "r"(bar) : "memory");
}

/* Matrix descriptor: start, leading and stride byte offsets (16-byte
 * units), 128-byte swizzle (1 in bits 62-63). */
static __device__ __forceinline__ unsigned long long w_desc(unsigned int at,
							   unsigned int lbo,
							   unsigned int sbo)
{
	unsigned long long d = (at & 0x3ffff) >> 4;

	d |= (unsigned long long)(lbo >> 4) << 16;
	d |= (unsigned long long)(sbo >> 4) << 32;
	return d | 1ull << 62;
}

/* Registers written before a wgmma reads them: fence them first. */
static __device__ __forceinline__ void w_fence(void)
{
	asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

static __device__ __forceinline__ void w_commit(void)
{
	asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

#define W_WAIT(n) \
	asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(n) : "memory")

/* No use of these registers moves across this point (a wgmma's wait). */
static __device__ __forceinline__ void w_pin(float *d, const int n)
{
#pragma unroll
	for (int i = 0; i < n; i++)
		asm volatile("" : "+f"(d[i]) :: "memory");
}

/* And of registers a wgmma reads (its A fragments) until its wait. */
static __device__ __forceinline__ void w_pin_u(uint32_t *r, const int n)
{
#pragma unroll
	for (int i = 0; i < n; i++)
		asm volatile("" : "+r"(r[i]) :: "memory");
}

/* Accumulator operands, 8 at a time, and their placeholders. */
#define W_ACC8(d, i)                                                      \
	"+f"(d[(i) + 0]), "+f"(d[(i) + 1]), "+f"(d[(i) + 2]),             \
	"+f"(d[(i) + 3]), "+f"(d[(i) + 4]), "+f"(d[(i) + 5]),             \
	"+f"(d[(i) + 6]), "+f"(d[(i) + 7])
#define W_ACC32(d, i) W_ACC8(d, i), W_ACC8(d, (i) + 8), \
	W_ACC8(d, (i) + 16), W_ACC8(d, (i) + 24)
#define W_REGS_LO " %0,  %1,  %2,  %3,  %4,  %5,  %6,  %7,"               \
	"  %8,  %9, %10, %11, %12, %13, %14, %15,"                          \
	" %16, %17, %18, %19, %20, %21, %22, %23,"                          \
	" %24, %25, %26, %27, %28, %29, %30, %31"
#define W_REGS_HI " %32, %33, %34, %35, %36, %37, %38, %39,"              \
	" %40, %41, %42, %43, %44, %45, %46, %47,"                          \
	" %48, %49, %50, %51, %52, %53, %54, %55,"                          \
	" %56, %57, %58, %59, %60, %61, %62, %63"

/*
 * S (64 x 128 keys) = or += Q (64 x 16, K-major) K^T (16 x 128: K's rows,
 * K-major), both from shared memory; acc 0 overwrites S.
 */
static __device__ __forceinline__ void w_qk(float *s, unsigned long long dq,
					    unsigned long long dk, int acc)
{
	asm volatile("{\n.reg .pred keep;\nsetp.ne.b32 keep, %66, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
		     "{" W_REGS_LO "," W_REGS_HI "}, %64, %65, keep, 1, 1, 0, 0;"
		     "\n}\n"
		     : W_ACC32(s, 0), W_ACC32(s, 32)
		     : "l"(dq), "l"(dk), "r"(acc));
}

/*
 * O (64 x dim) += P (64 x 16 keys, from registers: the A fragments) V (16
 * keys x dim, from shared memory, dim contiguous: MN-major, trans-b 1).
 */
static __device__ __forceinline__ void w_pv128(float *o, const uint32_t *a,
					       unsigned long long dv)
{
	asm volatile("{\n.reg .pred keep;\nsetp.ne.b32 keep, 1, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
		     "{" W_REGS_LO "," W_REGS_HI "}, {%64, %65, %66, %67}, %68, "
		     "keep, 1, 1, 1;\n}\n"
		     : W_ACC32(o, 0), W_ACC32(o, 32)
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dv));
}

static __device__ __forceinline__ void w_pv64(float *o, const uint32_t *a,
					      unsigned long long dv)
{
	asm volatile("{\n.reg .pred keep;\nsetp.ne.b32 keep, 1, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
		     "{" W_REGS_LO "}, {%32, %33, %34, %35}, %36, "
		     "keep, 1, 1, 1;\n}\n"
		     : W_ACC32(o, 0)
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(dv));
}

/*
 * The accumulator layout of a 64 x N wgmma: warp w of the group holds
 * rows 16 w .. 16 w + 15, and per 8 columns i its 4 registers are those
 * of an mma.sync C fragment: d[4 i], d[4 i + 1] at row g, columns 8 i +
 * 2 t and + 1, d[4 i + 2], d[4 i + 3] at row g + 8 (g = lane / 4, t =
 * lane % 4). Keys past seq and, with causal, past the query weigh -inf.
 */
static __device__ __forceinline__ void w_mask(float *s, int k0, int qrow,
					      int seq, int causal)
{
	int t = threadIdx.x % 4;

#pragma unroll
	for (int i = 0; i < W_BC / 8; i++)
#pragma unroll
		for (int e = 0; e < 4; e++) {
			int key = k0 + i * 8 + 2 * t + (e & 1);

			if (key >= seq || (causal && key > qrow + (e >> 1) * 8))
				s[4 * i + e] = -INFINITY;
		}
}

/*
 * Online softmax of one tile (rows g: r = 0, g + 8: r = 1): the running
 * max and sum updated, alpha the factor the accumulators are to be
 * rescaled by, and P packed into the A fragments of P V: keys 16 kk .. 16
 * kk + 15 are column blocks 2 kk and 2 kk + 1 of S, whose registers, in
 * order, are an A fragment's (as in pack_p()).
 */
static __device__ __forceinline__ void w_softmax(float *s, uint32_t *p,
						 float *m, float *l,
						 float *alpha,
						 float scale_log2)
{
#pragma unroll
	for (int r = 0; r < 2; r++) {
		float mx = -INFINITY, mnew, base, sum = 0.0f;

#pragma unroll
		for (int i = 0; i < W_BC / 8; i++)
			mx = fmaxf(mx, fmaxf(s[4 * i + 2 * r],
					     s[4 * i + 2 * r + 1]));
		mnew = fmaxf(m[r], quad_max(mx) * scale_log2);
		base = mnew == -INFINITY ? 0.0f : mnew;
		alpha[r] = fast_exp2(m[r] - base);
#pragma unroll
		for (int i = 0; i < W_BC / 8; i++)
#pragma unroll
			for (int e = 2 * r; e < 2 * r + 2; e++) {
				s[4 * i + e] = fast_exp2(fmaf(s[4 * i + e],
							      scale_log2,
							      -base));
				sum += s[4 * i + e];
			}
		l[r] = l[r] * alpha[r] + sum;
		m[r] = mnew;
	}
#pragma unroll
	for (int i = 0; i < W_BC / 4; i++)
		p[i] = pack_bf16(s[2 * i], s[2 * i + 1]);
}

static __device__ __forceinline__ void w_rescale(float *acc,
						 const float *alpha,
						 const int dim)
{
#pragma unroll
	for (int i = 0; i < dim / 8; i++) {
		acc[4 * i] *= alpha[0];
		acc[4 * i + 1] *= alpha[0];
		acc[4 * i + 2] *= alpha[1];
		acc[4 * i + 3] *= alpha[1];
	}
}

/* Byte offset of (row, 16-byte chunk c) in a slab: the 128-byte swizzle. */
static __device__ __forceinline__ int w_sw(int row, int c)
{
	return row * 128 + ((c ^ (row & 7)) << 4);
}

/*
 * Normalise, round once, write the warp's 16 rows into its rows of the Q
 * slabs (read by no one now), then to global memory as 16-byte rows.
 */
static __device__ __forceinline__ void w_store(const float *acc,
					       const float *l,
					       unsigned char *qs,
					       __nv_bfloat16 *o, int q0,
					       int wrow, int seq,
					       const int dim)
{
	int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;

#pragma unroll
	for (int r = 0; r < 2; r++) {
		float inv = 1.0f / quad_sum(l[r]);
		int row = wrow + g + 8 * r;

#pragma unroll
		for (int i = 0; i < dim / 8; i++)
			*(uint32_t *)(qs + i / 8 * W_SLAB(W_BR) +
				      w_sw(row, i % 8) + 4 * t) =
				pack_bf16(acc[4 * i + 2 * r] * inv,
					  acc[4 * i + 2 * r + 1] * inv);
	}
	__syncwarp();
#pragma unroll
	for (int c = lane; c < 16 * dim / 8; c += 32) {
		int row = wrow + c / (dim / 8), cc = c % (dim / 8);

		if (q0 + row < seq)
			*(uint4 *)(o + (size_t)(q0 + row) * dim + cc * 8) =
				*(const uint4 *)(qs + cc / 8 * W_SLAB(W_BR) +
						 w_sw(row, cc % 8));
	}
}

/* Barriers: Q's, then per stage K's full, V's full and the stage's empty. */
#define W_FULLQ(b) (b)
#define W_FULLK(b, st) ((b) + 8 + 8 * (st))
#define W_FULLV(b, st) ((b) + 8 + 8 * W_MAXST + 8 * (st))
#define W_EMPTY(b, st) ((b) + 8 + 16 * W_MAXST + 8 * (st))

/* The producer's one thread: Q once, then K and V of every key tile. */
static __device__ __forceinline__ void w_produce(const CUtensorMap *mq,
						 const CUtensorMap *mk,
						 const CUtensorMap *mv,
						 unsigned int qs,
						 unsigned int kv,
						 unsigned int bars, int q0,
						 int head, int ntiles,
						 const int dim,
						 const int stages)
{
	w_bar_expect(W_FULLQ(bars), W_Q_BYTES(dim));
	for (int c = 0; c < dim / 64; c++)
		w_tma3(qs + c * W_SLAB(W_BR), mq, c * 64, q0, head,
		       W_FULLQ(bars));
	for (int j = 0; j < ntiles; j++) {
		int st = j % stages;
		unsigned int ks = kv + st * 2 * W_KV_BYTES(dim);
		unsigned int vs = ks + W_KV_BYTES(dim);

		/* A fresh barrier counts as released (parity 1). */
		w_bar_wait(W_EMPTY(bars, st), (j / stages & 1) ^ 1);
		w_bar_expect(W_FULLK(bars, st), W_KV_BYTES(dim));
		for (int c = 0; c < dim / 64; c++)
			w_tma3(ks + c * W_SLAB(W_BC), mk, c * 64, j * W_BC,
			       head, W_FULLK(bars, st));
		w_bar_expect(W_FULLV(bars, st), W_KV_BYTES(dim));
		for (int c = 0; c < dim / 64; c++)
			w_tma3(vs + c * W_SLAB(W_BC), mv, c * 64, j * W_BC,
			       head, W_FULLV(bars, st));
	}
}

/*
 * A descriptor the compiler cannot see through: the k-steps' descriptors
 * are this plus an offset, made beside each wgmma instead of all hoisted
 * out of the loop, where they would hold 2 registers each.
 */
static __device__ __forceinline__ unsigned long long
w_opaque(unsigned long long d)
{
	asm volatile("" : "+l"(d));
	return d;
}

/* Issue S = Q K^T of one key tile for the group's 64 rows (one group).
 * A k-step is 32 bytes along a 128-byte row; 4 of them cross a slab. */
static __device__ __forceinline__ void w_issue_qk(float *s, unsigned int qs,
						  unsigned int ks, int row0,
						  const int dim)
{
	unsigned long long dq = w_opaque(w_desc(qs + W_SLAB(row0), 16, 1024));
	unsigned long long dk = w_opaque(w_desc(ks, 16, 1024));

	w_fence();
#pragma unroll
	for (int kk = 0; kk < dim / 16; kk++)
		w_qk(s, dq + ((kk / 4 * W_SLAB(W_BR) + kk % 4 * 32) >> 4),
		     dk + ((kk / 4 * W_SLAB(W_BC) + kk % 4 * 32) >> 4), kk > 0);
	w_commit();
}

/* Issue O += P V of one key tile (one group); a k-step is 16 rows of
 * 128 bytes. */
static __device__ __forceinline__ void w_issue_pv(float *acc,
						  const uint32_t *p,
						  unsigned int vs,
						  const int dim)
{
	unsigned long long dv = w_opaque(w_desc(vs, W_SLAB(W_BC), 1024));

	w_fence();
#pragma unroll
	for (int kk = 0; kk < W_BC / 16; kk++) {
		if (dim == 128)
			w_pv128(acc, p + 4 * kk, dv + (kk * 2048 >> 4));
		else
			w_pv64(acc, p + 4 * kk, dv + (kk * 2048 >> 4));
	}
	w_commit();
}

#if W_BR != W_BC
#error "every key tile a block loads has keys at or before each group's rows"
#endif

/*
 * Key tile j (>= 1): S of j is issued, then P V of tile j - 1 (P in p,
 * already final); S's softmax runs while P V does, into pn; then the
 * accumulators, P V of j - 1 in them, are rescaled for tile j.
 */
static __device__ __forceinline__ void w_step(float *s, float *acc,
					      uint32_t *p, uint32_t *pn,
					      float *m, float *l,
					      unsigned int qs, unsigned int kv,
					      unsigned int bars, int q0,
					      int row0, int qrow, int seq,
					      int causal, float scale_log2,
					      int j, const int dim,
					      const int stages)
{
	int st = j % stages, pst = (j - 1) % stages, k0 = j * W_BC;
	unsigned int ks = kv + st * 2 * W_KV_BYTES(dim);
	unsigned int pvs = kv + pst * 2 * W_KV_BYTES(dim) + W_KV_BYTES(dim);
	float alpha[2];

	w_bar_wait(W_FULLK(bars, st), j / stages & 1);
	w_issue_qk(s, qs, ks, row0, dim);
	w_bar_wait(W_FULLV(bars, pst), (j - 1) / stages & 1);
	w_issue_pv(acc, p, pvs, dim);
	W_WAIT(1);		/* S of j done, P V of j - 1 running */
	w_pin(s, W_BC / 2);
	if (k0 + W_BC > seq || (causal && k0 + W_BC - 1 > q0 + row0))
		w_mask(s, k0, qrow, seq, causal);
	w_softmax(s, pn, m, l, alpha, scale_log2);
	W_WAIT(0);
	w_pin(acc, dim / 2);
	w_pin_u(p, W_BC / 4);
	w_pin_u(pn, W_BC / 4);
	__syncwarp();
	if (threadIdx.x % 32 == 0)
		w_bar_arrive(W_EMPTY(bars, pst));
	w_rescale(acc, alpha, dim);
	w_pin(acc, dim / 2);
}

/* P V of the last tile, ntiles - 1. */
static __device__ __forceinline__ void w_last(float *acc, uint32_t *p,
					      unsigned int kv,
					      unsigned int bars, int ntiles,
					      const int dim, const int stages)
{
	int st = (ntiles - 1) % stages;

	w_bar_wait(W_FULLV(bars, st), (ntiles - 1) / stages & 1);
	w_issue_pv(acc, p, kv + st * 2 * W_KV_BYTES(dim) + W_KV_BYTES(dim),
		   dim);
	W_WAIT(0);
	w_pin(acc, dim / 2);
	w_pin_u(p, W_BC / 4);
	__syncwarp();
	if (threadIdx.x % 32 == 0)
		w_bar_arrive(W_EMPTY(bars, st));
}

/* The consumer's state between key tiles: this thread's rows' share. */
struct w_rows {
	float acc[64];		/* O: dim / 2 used */
	float m[2], l[2];	/* rows g, g + 8: running max (log2), sum */
};

/*
 * Tile 0's S and P; then, per tile j, S of j runs beside P V of j - 1,
 * two tiles an iteration, so that P's two register sets swap roles
 * without a copy (a copy would write P's registers while a wgmma still
 * reads them, and ptxas would serialise every wgmma).
 */
static __device__ __forceinline__ void w_tiles_overlap(struct w_rows *w,
						       unsigned int qs,
						       unsigned int kv,
						       unsigned int bars,
						       int q0, int row0,
						       int qrow, int seq,
						       int causal,
						       float scale_log2,
						       int ntiles,
						       const int dim,
						       const int stages)
{
	float s[W_BC / 2], alpha[2];
	uint32_t p[W_BC / 4], pn[W_BC / 4];
	int j;

	w_bar_wait(W_FULLK(bars, 0), 0);
	w_issue_qk(s, qs, kv, row0, dim);
	W_WAIT(0);
	w_pin(s, W_BC / 2);
	if (W_BC > seq || (causal && W_BC - 1 > q0 + row0))
		w_mask(s, 0, qrow, seq, causal);
	w_softmax(s, p, w->m, w->l, alpha, scale_log2);	/* acc is 0 */
	w_pin_u(p, W_BC / 4);
	for (j = 1; j + 1 < ntiles; j += 2) {
		w_step(s, w->acc, p, pn, w->m, w->l, qs, kv, bars, q0, row0,
		       qrow, seq, causal, scale_log2, j, dim, stages);
		w_step(s, w->acc, pn, p, w->m, w->l, qs, kv, bars, q0, row0,
		       qrow, seq, causal, scale_log2, j + 1, dim, stages);
	}
	if (j < ntiles) {
		w_step(s, w->acc, p, pn, w->m, w->l, qs, kv, bars, q0, row0,
		       qrow, seq, causal, scale_log2, j, dim, stages);
		w_last(w->acc, pn, kv, bars, ntiles, dim, stages);
	} else {
		w_last(w->acc, p, kv, bars, ntiles, dim, stages);
	}
}

/* Per tile: S, its softmax, P V, each waited for in turn. */
static __device__ __forceinline__ void w_tiles_serial(struct w_rows *w,
						      unsigned int qs,
						      unsigned int kv,
						      unsigned int bars,
						      int q0, int row0,
						      int qrow, int seq,
						      int causal,
						      float scale_log2,
						      int ntiles,
						      const int dim,
						      const int stages)
{
	float s[W_BC / 2], alpha[2];
	uint32_t p[W_BC / 4];

	for (int j = 0; j < ntiles; j++) {
		int st = j % stages, k0 = j * W_BC;
		unsigned int ks = kv + st * 2 * W_KV_BYTES(dim);

		w_bar_wait(W_FULLK(bars, st), j / stages & 1);
		w_issue_qk(s, qs, ks, row0, dim);
		W_WAIT(0);
		w_pin(s, W_BC / 2);
		if (k0 + W_BC > seq || (causal && k0 + W_BC - 1 > q0 + row0))
			w_mask(s, k0, qrow, seq, causal);
		w_softmax(s, p, w->m, w->l, alpha, scale_log2);
		w_rescale(w->acc, alpha, dim);
		w_pin(w->acc, dim / 2);
		w_pin_u(p, W_BC / 4);
		w_bar_wait(W_FULLV(bars, st), j / stages & 1);
		w_issue_pv(w->acc, p, ks + W_KV_BYTES(dim), dim);
		W_WAIT(0);
		w_pin(w->acc, dim / 2);
		w_pin_u(p, W_BC / 4);
		__syncwarp();
		if (threadIdx.x % 32 == 0)
			w_bar_arrive(W_EMPTY(bars, st));
	}
}

/* A consumer warp group: 64 query rows against every key tile. */
static __device__ __forceinline__ void w_consume(unsigned char *qs_p,
						 unsigned int qs,
						 unsigned int kv,
						 unsigned int bars,
						 __nv_bfloat16 *o, int q0,
						 int seq, int causal,
						 float scale_log2,
						 int ntiles, const int dim,
						 const int stages,
						 const int overlap)
{
	int row0 = (threadIdx.x / 128 - 1) * 64; /* the group's rows */
	int wrow = row0 + threadIdx.x % 128 / 32 * 16;	/* the warp's */
	int qrow = q0 + wrow + threadIdx.x % 32 / 4;	/* +0 and +8 */
	struct w_rows w;

#pragma unroll
	for (int i = 0; i < dim / 2; i++)
		w.acc[i] = 0.0f;
	w.m[0] = w.m[1] = -INFINITY;
	w.l[0] = w.l[1] = 0.0f;
	w_bar_wait(W_FULLQ(bars), 0);
	if (overlap)
		w_tiles_overlap(&w, qs, kv, bars, q0, row0, qrow, seq, causal,
				scale_log2, ntiles, dim, stages);
	else
		w_tiles_serial(&w, qs, kv, bars, q0, row0, qrow, seq, causal,
			       scale_log2, ntiles, dim, stages);
	w_store(w.acc, w.l, qs_p, o, q0, wrow, seq, dim);
}

static __device__ __forceinline__ void w_block(const CUtensorMap *mq,
					       const CUtensorMap *mk,
					       const CUtensorMap *mv,
					       __nv_bfloat16 *o, int heads,
					       int seq, int causal,
					       float scale_log2,
					       const int dim,
					       const int stages,
					       const int overlap)
{
	extern __shared__ unsigned char w_raw[];
	__shared__ __align__(8) unsigned long long bars_s[1 + 3 * W_MAXST];
	unsigned int raw = smem_addr(w_raw);
	/* The 128-byte swizzle repeats every 1024 bytes: slabs start on one. */
	unsigned int qs = (raw + 1023) & ~1023u;
	unsigned int kv = qs + W_Q_BYTES(dim);
	unsigned int bars = smem_addr(bars_s);
	int qtiles = (seq + W_BR - 1) / W_BR;
	/* Heaviest first: the last query tile of every head, then ... */
	int q0 = (qtiles - 1 - (int)blockIdx.x / heads) * W_BR;
	int head = blockIdx.x % heads;
	int ntiles = (seq + W_BC - 1) / W_BC;

	if (causal)
		ntiles = min(ntiles, (q0 + W_BR - 1) / W_BC + 1);
	if (threadIdx.x == 0) {
		w_bar_init(W_FULLQ(bars), 1);
		for (int st = 0; st < stages; st++) {
			w_bar_init(W_FULLK(bars, st), 1);
			w_bar_init(W_FULLV(bars, st), 1);
			w_bar_init(W_EMPTY(bars, st), W_CONSUMERS * 4);
		}
		/* The inits, visible to the TMA (the async proxy). */
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	if (threadIdx.x < 128) {
		asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;"
			     :: "n"(W_PROD_REGS));
		if (threadIdx.x == 0)
			w_produce(mq, mk, mv, qs, kv, bars, q0, head, ntiles,
				  dim, stages);
	} else {
		asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;"
			     :: "n"(W_CONS_REGS));
		w_consume(w_raw + (qs - raw), qs, kv, bars,
			  o + (size_t)head * seq * dim, q0, seq, causal,
			  scale_log2, ntiles, dim, stages, overlap);
	}
}
#endif /* W_OK */

#if W_OK
#define W_BODY(dim, st, ov) \
	w_block(&mq, &mk, &mv, o, heads, seq, causal, scale_log2, (dim), \
		(st), (ov))
#else
#define W_BODY(dim, st, ov) \
	((void)o, (void)heads, (void)seq, (void)causal, (void)scale_log2)
#endif

#define W_KERNEL(name, dim, st, ov)                                           \
	static __global__ void __launch_bounds__(W_THREADS)                 \
	name(const __grid_constant__ CUtensorMap mq,                        \
	     const __grid_constant__ CUtensorMap mk,                        \
	     const __grid_constant__ CUtensorMap mv, __nv_bfloat16 *o,      \
	     int heads, int seq, int causal, float scale_log2)              \
	{                                                                   \
		W_BODY(dim, st, ov);                                        \
	}

W_KERNEL(attn_wgmma_d64, 64, W_ST64, W_OV64)
W_KERNEL(attn_wgmma_d128, 128, W_ST128, W_OV128)

/* 1 in the object's sm_90a code, 0 in any other: read once. */
static __device__ int w_built = W_OK;

/* Path 2 where the GPU is compute capability 9.0 and this object has its
 * sm_90a code; asked once. */
static int wgmma_ready(void)
{
	static int asked, ready;
	int dev, major, minor, built = 0;

	if (asked)
		return ready;
	asked = 1;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaDeviceGetAttribute(
		&major, cudaDevAttrComputeCapabilityMajor, dev));
	CUDA_CHECK(cudaDeviceGetAttribute(
		&minor, cudaDevAttrComputeCapabilityMinor, dev));
	if (major != 9 || minor != 0)
		return 0;
	CUDA_CHECK(cudaMemcpyFromSymbol(&built, w_built, sizeof(built)));
	if (!built)
		return 0;
	CUDA_CHECK(cudaFuncSetAttribute(attn_wgmma_d64,
			cudaFuncAttributeMaxDynamicSharedMemorySize,
			W_SMEM(64, W_ST64)));
	CUDA_CHECK(cudaFuncSetAttribute(attn_wgmma_d128,
			cudaFuncAttributeMaxDynamicSharedMemorySize,
			W_SMEM(128, W_ST128)));
	ready = 1;
	return ready;
}

/* heads x seq x dim bf16, boxes of 64 columns (128 bytes) x rows of one
 * head, 128-byte swizzle, zeros past seq. */
static int w_map(CUtensorMap *map, const void *p, int heads, int seq,
		 int dim, unsigned int rows)
{
	cuuint64_t size[3] = { (cuuint64_t)dim, (cuuint64_t)seq,
			       (cuuint64_t)heads };
	cuuint64_t stride[2] = { (cuuint64_t)dim * 2,
				 (cuuint64_t)seq * dim * 2 };
	cuuint32_t box[3] = { 64, rows, 1 };
	cuuint32_t one[3] = { 1, 1, 1 };

	return wb_tensor_map_encode_tiled(map,
		CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, (void *)p, size, stride,
		box, one, CU_TENSOR_MAP_INTERLEAVE_NONE,
		CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
		CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/* 0 where the maps cannot be made (then path 1 runs). */
static int attention_sm90(const bf16_bits *q, const bf16_bits *k,
			  const bf16_bits *v, bf16_bits *o, int heads,
			  int seq, int dim, int causal, float scale_log2)
{
	CUtensorMap mq, mk, mv;
	unsigned int grid = (unsigned int)((seq + W_BR - 1) / W_BR) * heads;

	if (!w_map(&mq, q, heads, seq, dim, W_BR) ||
	    !w_map(&mk, k, heads, seq, dim, W_BC) ||
	    !w_map(&mv, v, heads, seq, dim, W_BC))
		return 0;
	if (dim == 64)
		attn_wgmma_d64<<<grid, W_THREADS, W_SMEM(64, W_ST64)>>>(
			mq, mk, mv, (__nv_bfloat16 *)o, heads, seq, causal,
			scale_log2);
	else
		attn_wgmma_d128<<<grid, W_THREADS, W_SMEM(128, W_ST128)>>>(
			mq, mk, mv, (__nv_bfloat16 *)o, heads, seq, causal,
			scale_log2);
	CUDA_CHECK_LAUNCH();
	return 1;
}

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
	if (wgmma_ready() && attention_sm90(q, k, v, o, heads, seq, dim,
					    causal ? 1 : 0, scale_log2))
		return;
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
