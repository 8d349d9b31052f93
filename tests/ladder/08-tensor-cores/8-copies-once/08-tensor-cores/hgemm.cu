/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 8 (hgemm, issue #31): the mma.sync kernel, what the
 * solution runs on a GPU without wgmma (sm_80 to sm_89, or a Hopper GPU
 * with code built for plain sm_90), and was alone until 2026-11-28.
 *
 * c = a b, bf16 in, fp32 accumulation and out, with mma.sync on the
 * tensor cores. A block of 256 threads (8 warps, 2 along m x 4 along n)
 * computes a 128 x 256 tile of c; each warp a 64 x 64 block of it: 4 x 8
 * mma.sync.m16n8k16 per 16-deep k-step, 128 float accumulators a thread.
 * The k dimension is walked in 32-deep tiles through a 4-stage cp.async
 * pipeline into XOR-swizzled shared tiles (96 KiB: an RTX 30xx or 40xx
 * gives a block 99 KiB), read by ldmatrix one k-step ahead of the mma
 * that use them (two register sets), with blocks rasterised in groups of
 * 16 rows of tiles for the L2. That is ladder step 6, which measured 33%
 * of cuBLAS on an H100; this file changes one thing, and measured 54%.
 *
 * What changes, and why: the copies' arithmetic. Step 6 issued each
 * k-tile's copies from a loop whose trip count depends on threadIdx.x
 * (q = threadIdx.x; q < chunks; q += THREADS): ptxas cannot unroll it, and
 * every copy recomputed its row and chunk (a division and a remainder),
 * its swizzled shared offset, its global address (64-bit multiplies) and
 * its bounds: in the SASS (cuobjdump -sass), hundreds of instructions
 * and branches between a tile's ldmatrix and its first mma.sync. With one
 * block of 8 warps per SM (2 a scheduler), every warp at the same point
 * of the tile, the tensor cores idled while they issued. Here each thread
 * works out once, before the main loop, which rows and chunk it copies
 * (the same for every tile: THREADS is a multiple of the chunks per row),
 * their shared offsets (the swizzle of row r + 8j is the swizzle of row
 * r) and whether its rows of a and its columns of b are inside c. A
 * tile's copies are then a fixed count (2 of a, 4 of b), fully unrolled,
 * each an add to a base address and one compare against k.
 *
 * A caution, measured too: the same change written with the copies in a
 * helper that took a struct measured 45%, not 54%. Its SASS issued all of
 * a tile's mma.sync before the barrier and the next tile's ldmatrix after
 * it, so every tile began by waiting for shared memory. This form's SASS
 * has the barrier after the first few mma.sync of the tile's last k-step
 * and the next tile's ldmatrix among the rest. ptxas decides such
 * schedules, not the source's order: measure after every edit, and read
 * the SASS when a change moves the time more than it should.
 */
#include <cuda_bf16.h>

#include "tensor_cores.h"

#define BM 128          /* rows of c per block */
#define BN 256          /* columns of c per block */
#define BK 32           /* depth of a k-tile */
#define STAGES 4        /* k-tiles in flight */
#define WARPS_M 2       /* warps along m */
#define WARPS_N 4       /* warps along n */
#define THREADS (WARPS_M * WARPS_N * 32)
#define WM (BM / WARPS_M)       /* rows of c per warp: 64 */
#define WN (BN / WARPS_N)       /* columns of c per warp: 64 */
#define MI (WM / 16)    /* m16 fragments per warp */
#define NI (WN / 8)     /* n8 fragments per warp */
#define KSTEPS (BK / 16)        /* 16-deep mma steps per k-tile */
#define GROUP_M 16      /* rows of tiles per rasterisation group */

/* The fragment pipeline alternates two register sets, and its barrier
 * sits on a tile's last k-step, which must not also be its first. */
#if KSTEPS < 2 || KSTEPS % 2
#error "BK must be an even multiple of 16"
#endif

/* Shared memory: per stage, a tile of a (BM x BK) and of b (BK x BN). */
#define A_STAGE (BM * BK)
#define B_STAGE (BK * BN)
#define SMEM_BYTES (STAGES * (A_STAGE + B_STAGE) * 2)

/*
 * One thread's share of every tile's copies: 16-byte chunks, CA of a and
 * CB of b. Thread t copies chunk t % (BK / 8) of a rows t / (BK / 8) +
 * j * A_ROWS_STEP, and chunk t % (BN / 8) of b rows t / (BN / 8) +
 * j * B_ROWS_STEP: the same rows and chunk in every tile.
 */
#define CA (BM * BK / 8 / THREADS)      /* a chunks a thread copies: 2 */
#define CB (BK * BN / 8 / THREADS)      /* b chunks a thread copies: 4 */
#define NCOPY (CA + CB)
#define A_ROWS_STEP (THREADS / (BK / 8))        /* 64 */
#define B_ROWS_STEP (THREADS / (BN / 8))        /* 8 */

/* Rows 8 apart share a swizzle (a: (row / 2) % 4, b: row % 8), so each
 * copy's shared offset is the first's plus whole rows. */
#if CA * A_ROWS_STEP != BM || CB * B_ROWS_STEP != BK || \
	A_ROWS_STEP % 8 || B_ROWS_STEP % 8
#error "the copies must cover the tiles in rows 8 apart"
#endif

/*
 * Swizzles, in 16-byte chunks (8 bf16). A row of the a tile is 64 bytes
 * (4 chunks): rows 2 apart would share banks, so chunk ^= (row / 2) % 4.
 * A row of the b tile is 512 bytes (32 chunks): every row starts at bank
 * 0, so chunk ^= row % 8 (the low 3 bits: a chunk stays in its 128-byte
 * line). Each spreads 8 consecutive rows over the 8 chunk positions of a
 * 128-byte line: ldmatrix reads them in one pass.
 */
static __device__ __forceinline__ int a_off(int row, int chunk)
{
	return row * BK + ((chunk ^ ((row >> 1) & 3)) << 3);
}

static __device__ __forceinline__ int b_off(int row, int chunk)
{
	return row * BN + ((chunk ^ (row & 7)) << 3);
}

static __device__ __forceinline__ unsigned int smem_addr(const void *p)
{
	return (unsigned int)__cvta_generic_to_shared(p);
}

/* 16 bytes global -> shared, bypassing L1; zero-filled when !valid. */
static __device__ __forceinline__ void cp_async16(void *dst, const void *src,
						  bool valid)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
		     :: "r"(smem_addr(dst)), "l"(src), "r"(valid ? 16 : 0));
}

static __device__ __forceinline__ void cp_async_commit(void)
{
	asm volatile("cp.async.commit_group;\n" ::);
}

/* Wait until at most n of this thread's newest groups are pending. */
#define CP_ASYNC_WAIT(n) asm volatile("cp.async.wait_group %0;\n" :: "n"(n))

static __device__ __forceinline__ void ldmatrix_x4(unsigned int *r,
						   const void *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 "
		     "{%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(smem_addr(p)));
}

static __device__ __forceinline__ void ldmatrix_x4_trans(unsigned int *r,
							 const void *p)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 "
		     "{%0, %1, %2, %3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
		     : "r"(smem_addr(p)));
}

/* d += a b for one 16 x 8 tile: a 16 x 16 (4 regs), b 16 x 8 (2 regs). */
static __device__ __forceinline__ void mma_bf16(float *d,
						const unsigned int *a,
						const unsigned int *b)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
		     "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
		     "{%0, %1, %2, %3};\n"
		     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
		     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]),
		       "r"(b[0]), "r"(b[1]));
}

/*
 * Start copy j (0 .. NCOPY - 1) of the k-tile at k0 into a stage: chunk j
 * of a (j < CA) or chunk j - CA of b. ga, gb: this thread's first chunk of
 * a (k 0) and of b (k-row 0), clamped inside the matrices so that a
 * zero-filled copy still names a valid address; a_sm, b_sm: their offsets
 * in a stage; a_rows_ok, bit j: a row j inside m; b_cols_ok: its b columns
 * inside n. An add to a base address and a compare with k: zero-filled
 * past m, n or k (k and n are multiples of 8, so a chunk is all in or all
 * out).
 */
static __device__ __forceinline__ void copy_chunk(
	int j, const __nv_bfloat16 *ga, const __nv_bfloat16 *gb,
	__nv_bfloat16 *as, __nv_bfloat16 *bs, int a_sm, int b_sm,
	unsigned int a_rows_ok, int ach, int brow, unsigned int b_cols_ok,
	int k0, int k, int n)
{
	if (j < CA) {
		bool ok = ((a_rows_ok >> j) & 1) && k0 + ach * 8 < k;

		cp_async16(as + a_sm + j * A_ROWS_STEP * BK,
			   ok ? ga + (size_t)j * A_ROWS_STEP * k + k0 : ga, ok);
	} else {
		int i = j - CA;
		int r = brow + i * B_ROWS_STEP;
		bool ok = b_cols_ok && k0 + r < k;

		cp_async16(bs + b_sm + i * B_ROWS_STEP * BN,
			   ok ? gb + ((size_t)k0 + i * B_ROWS_STEP) * n : gb,
			   ok);
	}
}

/* The fragments of 16-deep step kk of a k-tile: 4 ldmatrix.x4 for a, 4
 * ldmatrix.x4.trans for b. */
static __device__ __forceinline__ void load_frags(unsigned int af[MI][4],
						  unsigned int bf[NI][2],
						  const __nv_bfloat16 *as,
						  const __nv_bfloat16 *bs,
						  int kk, int wm, int wn,
						  int lane)
{
	/* ldmatrix: lane l gives the address of row l % 8 of matrix l / 8. */
	int q = lane >> 3, r = lane & 7;

	/* a: matrices (rows 0-7 | 8-15) x (k 0-7 | 8-15), in the order of
	 * the mma's a registers. */
#pragma unroll
	for (int i = 0; i < MI; i++) {
		int row = wm + i * 16 + (q & 1) * 8 + r;

		ldmatrix_x4(af[i], as + a_off(row, kk * 2 + (q >> 1)));
	}
	/* b, transposed: matrices (k 0-7 | 8-15) x (n 0-7 | 8-15): the two
	 * registers of two n8 fragments. */
#pragma unroll
	for (int j = 0; j < NI; j += 2) {
		int row = kk * 16 + (q & 1) * 8 + r;
		int col = wn + j * 8 + (q >> 1) * 8;
		unsigned int t[4];

		ldmatrix_x4_trans(t, bs + b_off(row, col >> 3));
		bf[j][0] = t[0];
		bf[j][1] = t[1];
		bf[j + 1][0] = t[2];
		bf[j + 1][1] = t[3];
	}
}

/*
 * One block per SM: 128 accumulators a thread leave no room for two.
 * Block number -> tile of c in groups of GROUP_M rows of tiles, down a
 * group's column, then the next column (a bijection: the last group may
 * have fewer rows, gsize, and is walked in the same order).
 */
static __global__ void __launch_bounds__(THREADS, 1)
hgemm_kernel(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c,
	     int m, int k, int n)
{
	extern __shared__ __align__(128) __nv_bfloat16 smem[];
	__nv_bfloat16 *as = smem, *bs = smem + STAGES * A_STAGE;
	int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
	int wm = (warp % WARPS_M) * WM, wn = (warp / WARPS_M) * WN;
	int kts = (k + BK - 1) / BK;
	float acc[MI][NI][4] = {};
	/* Two sets of fragments: step s's in use, step s + 1's loading. */
	unsigned int af[2][MI][4], bf[2][NI][2];
	int gm = (m + BM - 1) / BM, gn = (n + BN - 1) / BN;
	int pid = blockIdx.x, group = GROUP_M * gn;
	int first = pid / group * GROUP_M;
	int gsize = min(gm - first, GROUP_M);
	int bm = (first + pid % group % gsize) * BM;
	int bn = (pid % group / gsize) * BN;

	/* This thread's copies, worked out once (copy_chunk()). */
	int tid = threadIdx.x;
	int ach = tid % (BK / 8), arow = tid / (BK / 8);
	int bch = tid % (BN / 8), brow = tid / (BN / 8);
	unsigned int a_rows_ok = 0;

	for (int i = 0; i < CA; i++)
		if (bm + arow + i * A_ROWS_STEP < m)
			a_rows_ok |= 1u << i;
	unsigned int b_cols_ok = bn + bch * 8 < n;
	const __nv_bfloat16 *ga = a + (size_t)min(bm + arow, m - 1) * k +
				  ach * 8;
	const __nv_bfloat16 *gb = b + (size_t)brow * n +
				  min(bn + bch * 8, n - 8);
	int a_sm = a_off(arow, ach), b_sm = b_off(brow, bch);

	/* Prologue: the first STAGES - 1 tiles in flight, and the first
	 * k-step's fragments of tile 0 loaded once it has landed. */
#pragma unroll
	for (int st = 0; st < STAGES - 1; st++) {
		if (st < kts)
#pragma unroll
			for (int j = 0; j < NCOPY; j++)
				copy_chunk(j, ga, gb, as + st * A_STAGE,
					   bs + st * B_STAGE, a_sm, b_sm,
					   a_rows_ok, ach, brow, b_cols_ok,
					   st * BK, k, n);
		cp_async_commit();
	}
	CP_ASYNC_WAIT(STAGES - 2);
	__syncthreads();
	load_frags(af[0], bf[0], as, bs, 0, wm, wn, lane);

	/* s: the stage of tile kt; sw: of tile kt + STAGES - 1, the stage
	 * tile kt - 1 used. */
	int s = 0, sw = STAGES - 1;

	for (int kt = 0; kt < kts; kt++) {
		int s1 = s + 1 == STAGES ? 0 : s + 1;
		int next = kt + STAGES - 1;
		bool refill = next < kts;

		/* Unrolled: the fragment sets must stay in registers. */
#pragma unroll
		for (int kk = 0; kk < KSTEPS; kk++) {
			if (kk == KSTEPS - 1) {
				/* This round's copies are one group. Tile
				 * kt + 1 has landed (STAGES - 1 + kt + 1
				 * groups committed; at most STAGES - 2, the
				 * tiles after it, pending), for every
				 * thread's copies; and every warp has read
				 * its last fragments of tile kt - 1. */
				cp_async_commit();
				CP_ASYNC_WAIT(STAGES - 2);
				__syncthreads();
			}
			/* The next step's fragments, into the other set:
			 * step kk + 1 of this tile, or step 0 of the next
			 * (KSTEPS is even: that is set 0 again). */
			if (kk < KSTEPS - 1)
				load_frags(af[(kk + 1) & 1], bf[(kk + 1) & 1],
					   as + s * A_STAGE, bs + s * B_STAGE,
					   kk + 1, wm, wn, lane);
			else if (kt + 1 < kts)
				load_frags(af[0], bf[0], as + s1 * A_STAGE,
					   bs + s1 * B_STAGE, 0, wm, wn, lane);
			/* This step's share of the copies of tile next into
			 * stage sw (every warp has passed the barrier after
			 * its last read of it): spread over the k-steps
			 * before the last, all at step 0 with 32-deep
			 * tiles. */
			if (refill && kk < KSTEPS - 1) {
#pragma unroll
				for (int j = kk * ((NCOPY + KSTEPS - 2) /
						   (KSTEPS - 1));
				     j < (kk + 1) * ((NCOPY + KSTEPS - 2) /
						     (KSTEPS - 1)) &&
				     j < NCOPY; j++)
					copy_chunk(j, ga, gb,
						   as + sw * A_STAGE,
						   bs + sw * B_STAGE, a_sm,
						   b_sm, a_rows_ok, ach, brow,
						   b_cols_ok, next * BK, k, n);
			}
			/* 4 x 8 mma.sync; odd rows walk the columns
			 * backwards, so each row's first mma takes the b
			 * fragment the last one used. */
#pragma unroll
			for (int i = 0; i < MI; i++)
#pragma unroll
				for (int j = 0; j < NI; j++) {
					int jj = (i & 1) ? NI - 1 - j : j;

					mma_bf16(acc[i][jj], af[kk & 1][i],
						 bf[kk & 1][jj]);
				}
		}
		s = s1;
		sw = sw + 1 == STAGES ? 0 : sw + 1;
	}
	CP_ASYNC_WAIT(0);
	/* The accumulators to c: thread (g = lane / 4, t = lane % 4) holds
	 * rows g and g + 8, columns 2t and 2t + 1, of each 16 x 8 fragment
	 * (n is a multiple of 8: col < n means col + 1 < n). */
	int g = lane >> 2, t = lane & 3;
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++) {
			int row = bm + wm + i * 16 + g;
			int col = bn + wn + j * 8 + 2 * t;

			if (col >= n)
				continue;
			if (row < m)
				*(float2 *)(c + (size_t)row * n + col) =
					make_float2(acc[i][j][0], acc[i][j][1]);
			if (row + 8 < m)
				*(float2 *)(c + (size_t)(row + 8) * n + col) =
					make_float2(acc[i][j][2], acc[i][j][3]);
		}
}

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	/* One dimension: raster() maps a block to its tile. */
	size_t blocks = wb_ceil_div(m, BM) * wb_ceil_div(n, BN);

	CUDA_CHECK(cudaFuncSetAttribute(hgemm_kernel,
			cudaFuncAttributeMaxDynamicSharedMemorySize,
			SMEM_BYTES));
	hgemm_kernel<<<(unsigned int)blocks, THREADS, SMEM_BYTES>>>(
		(const __nv_bfloat16 *)a, (const __nv_bfloat16 *)b, c, (int)m,
		(int)k, (int)n);
	CUDA_CHECK_LAUNCH();
}
