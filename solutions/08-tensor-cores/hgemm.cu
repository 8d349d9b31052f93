/* SPDX-License-Identifier: MIT */
/*
 * Lab 08, exercise 2: hgemm - solution.
 *
 * c = a b, bf16 in, fp32 accumulation and out, on the tensor cores, by
 * two paths. hgemm() at the end picks one, once:
 *
 *   1. mma.sync (any GPU from sm_80): ladder step 8, whose header
 *      (tests/ladder/08-tensor-cores/8-copies-once) says what it changes
 *      from step 6 and why. A block of 8 warps computes a 128 x 256 tile
 *      of c, each warp 64 x 64 of it, 4 x 8 mma.sync.m16n8k16 per 16-deep
 *      k-step, through a 4-stage cp.async pipeline into XOR-swizzled
 *      shared tiles read by ldmatrix one k-step ahead; each thread's
 *      copies worked out once, before the main loop.
 *   2. wgmma fed by the TMA (a Hopper GPU, this file built for sm_90a, as
 *      the Makefile builds it there). Section 8 of the README teaches it;
 *      the paragraphs below say what each part does and why.
 *
 * Why a second path. mma.sync issues one 16 x 8 x 16 product per warp
 * instruction, from registers that ldmatrix filled; on a Hopper GPU that
 * tops out near two thirds of the tensor cores' rate (637-639 TFLOP/s
 * from registers alone with no loads at all, on an H200, where wgmma
 * reaches 906), and path 1 reaches 62-63% of that ceiling. wgmma.mma_async
 * has a warp group (4 warps) issue a 64 x N x 16 product whose operands
 * the tensor cores read from shared memory themselves: no ldmatrix, no
 * fragment registers, and the issuing warps are free while it runs.
 *
 * Operands. Both from shared memory, each described by a 64-bit matrix
 * descriptor (start address, leading and stride byte offsets, swizzle
 * mode). A k-tile is 64 deep, so a row of the a tile (k contiguous) is
 * 128 bytes: the 128-byte swizzle, 8-row atoms of 1024 bytes, stride 1024
 * between atoms along m; a 16-deep step moves the start address by 32
 * bytes. b is k x n row-major, n contiguous: for wgmma that is B
 * "transposed" (MN-major, imm-trans-b = 1), loaded as 64-column slabs of
 * 64 k-rows of 128 bytes (8 KiB, 128-byte swizzle); the descriptor's
 * leading offset is the step between slabs along n (8 KiB), its stride
 * offset the step between 8-row groups along k (1024 bytes). Swapping
 * the two fails every size with more than one slab (n > 64).
 *
 * Loads. The TMA (cp.async.bulk.tensor.2d) copies a box of a matrix into
 * shared memory, writing the 128-byte swizzle wgmma reads, computing
 * every address itself (one thread issues a whole stage) and filling
 * with zeros what lies outside the matrix: ragged m, n and k need no
 * special path (a zero row of a or b adds nothing). Its CUtensorMaps are
 * made on the host by the driver's cuTensorMapEncodeTiled, which a
 * submission reaches through wb_tensor_map_encode_tiled() (tma.h, from
 * tensor_cores.h). Fed by cp.async instead (16-byte copies that write
 * the swizzle themselves, signalling an mbarrier), the same kernel
 * measured 43-56% of cuBLAS, against the TMA's 97%.
 *
 * Pipeline. H_STAGES k-tiles in shared memory, each with a "full"
 * mbarrier (the producer's arrive.expect_tx, completed by the TMA's
 * bytes) and an "empty" one (an arrive per consumer warp once the wgmma
 * that read the stage have finished). Consumers keep one wgmma group in
 * flight (wait_group 1) and release the stage before it.
 *
 * Warp specialisation. Warp group 0 is the producer: one of its threads
 * issues the TMA, and setmaxnreg gives its registers to the others. Warp
 * groups 1 and 2 each compute 64 rows by 256 columns of the block's 128 x
 * 256 tile with m64n256k16, 128 accumulators a thread.
 *
 * Scheduling. One block per SM walks the tiles (stride gridDim.x) in
 * groups of 16 rows of tiles, for the L2, so that the producer loads the
 * next tile while the consumers store this one.
 *
 * Measured on an H200 (2026-11-28), 4096^3, TFLOP/s and share of cuBLAS
 * (cublasGemmEx, bf16 in, fp32 out). In the lab (make grade, 5 runs, and
 * make bench, cuBLAS in the same run): path 1 392 (52%, 45% of the wgmma
 * roof); path 2 712-738 (96-97%, 81-82% of the roof). In a standalone
 * bench while the kernel was designed (median of 30, L2 flushed, cuBLAS
 * interleaved; the lab's 15 sizes and 4 larger ones all within 1e-5 of
 * each row's sum of |terms|): path 2 724-742 (97%); 3 stages 718 (96%);
 * not persistent 710 (95%); wait_group 0 or 8-row groups 724 (97%);
 * 128 x 128, 6 stages 670 (89%); 256 x 128, 4 stages 706 (94%). Path 2
 * at 8192^3: 103% of cuBLAS; at 4000^3 (ragged tiles) 96-98%; at 2048^3
 * 95%.
 */
#include <cuda_bf16.h>

#include "tensor_cores.h"

/*
 * ==== Path 1: mma.sync (sm_80 on) ====
 */

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

static void hgemm_mma(const bf16_bits *a, const bf16_bits *b, float *c,
		      size_t m, size_t k, size_t n)
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

/*
 * ==== Path 2: wgmma and the TMA (a Hopper GPU, code built for sm_90a) ====
 */
#define H_BN 256        /* columns of c per block (one wgmma's N) */
#define H_MI 1          /* m64 blocks per consumer warp group */
#define H_CONSUMERS 2   /* consumer warp groups */
#define H_STAGES 4      /* k-tiles in flight */
#define H_PRODUCERS 1   /* the producer warp group */
#define H_GROUP_M 16    /* rows of tiles per rasterisation group */
#define H_PROD_REGS 40  /* setmaxnreg: the producer gives registers away */
#define H_CONS_REGS 232 /* and the consumers take them */

#define H_BK 64                           /* k-tile: one 128-byte row */
#define H_BM (64 * H_MI * H_CONSUMERS)        /* rows of c per block */
#define H_WG_THREADS 128
#define H_P_THREADS (H_PRODUCERS * H_WG_THREADS)
#define H_THREADS (H_CONSUMERS * H_WG_THREADS + H_P_THREADS)
#define H_A_TILE (H_BM * H_BK * 2)            /* bytes of a per stage */
#define H_B_SLAB (H_BK * 64 * 2)            /* bytes of one 64-column b slab */
#define H_B_TILE (H_BN / 64 * H_B_SLAB)
#define H_STAGE_BYTES (H_A_TILE + H_B_TILE)
#define H_SMEM_BYTES (H_STAGES * H_STAGE_BYTES + 1024)  /* + alignment slack */
#define H_ACC (H_MI * H_BN / 2)               /* accumulators a thread */

#if H_BM > 256
#error "a's TMA box is at most 256 rows"
#endif

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define H_WGMMA_OK 1
#else
#define H_WGMMA_OK 0
#endif

#if H_WGMMA_OK
static __device__ __forceinline__ unsigned int h_smem_u32(const void *p)
{
	return (unsigned int)__cvta_generic_to_shared(p);
}

/* ---- mbarriers ---- */

static __device__ __forceinline__ void h_mbar_init(unsigned int bar, int count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;"
		     :: "r"(bar), "r"(count) : "memory");
}

/* The producer: this stage will receive `bytes` from the TMA. */
static __device__ __forceinline__ void h_mbar_expect(unsigned int bar,
						   unsigned int bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
		     :: "r"(bar), "r"(bytes) : "memory");
}

static __device__ __forceinline__ void h_mbar_arrive(unsigned int bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];"
		     :: "r"(bar) : "memory");
}

/* Spin until the phase of parity `parity` has completed. */
static __device__ __forceinline__ void h_mbar_wait(unsigned int bar,
						 unsigned int parity)
{
	asm volatile("{\n.reg .pred p;\n"
		     "WAIT_%=:\n"
		     "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
		     "@!p bra WAIT_%=;\n}\n"
		     :: "r"(bar), "r"(parity) : "memory");
}

/* ---- TMA ---- */

/* A 2-d box at (x innermost, y) of the tensor map into shared memory,
 * completing `bytes` on the mbarrier. */
static __device__ __forceinline__ void h_tma_2d(unsigned int dst,
					      const CUtensorMap *map, int x,
					      int y, unsigned int bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global."
		     "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
		     :: "r"(dst), "l"(map), "r"(x), "r"(y), "r"(bar)
		     : "memory");
}

/* ---- wgmma ---- */

/* Matrix descriptor, 128-byte swizzle (mode 1 in bits 62-63); the
 * offsets in 16-byte units. */
static __device__ __forceinline__ unsigned long long
h_desc(unsigned int addr, unsigned int lead, unsigned int stride)
{
	return (unsigned long long)((addr & 0x3ffff) >> 4) |
	       (unsigned long long)(lead >> 4) << 16 |
	       (unsigned long long)(stride >> 4) << 32 | 1ull << 62;
}

static __device__ __forceinline__ void h_wgmma_fence(void)
{
	asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

static __device__ __forceinline__ void h_wgmma_commit(void)
{
	asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

#define H_WGMMA_WAIT(n) \
	asm volatile("wgmma.wait_group.sync.aligned %0;" :: "n"(n) : "memory")

/* Pin the accumulators: no read of them moves above a wait. */
static __device__ __forceinline__ void h_acc_fence(float *d)
{
#pragma unroll
	for (int i = 0; i < H_ACC; i++)
		asm volatile("" : "+f"(d[i]) :: "memory");
}

/* d (64 x H_BN) += a (64 x 16, K-major) b (16 x H_BN, N-major). */
static __device__ __forceinline__ void h_wgmma(float *d, unsigned long long da,
					     unsigned long long db)
{
	asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
		     "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
		     "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,"
		     "%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,"
		     "%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,"
		     "%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,"
		     "%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,%78,%79,%80,%81,"
		     "%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,"
		     "%98,%99,%100,%101,%102,%103,%104,%105,%106,%107,%108,%109,%110,"
		     "%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,%122,%123,"
		     "%124,%125,%126,%127}, "
		     "%128, %129, p, 1, 1, 0, 1;\n}\n"
		     :
		       "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]),
		       "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
		       "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
		       "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
		       "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]),
		       "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
		       "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]),
		       "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
		       "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
		       "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
		       "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),
		       "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
		       "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]),
		       "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
		       "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
		       "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
		       "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]),
		       "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
		       "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]),
		       "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
		       "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
		       "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
		       "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]),
		       "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
		       "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]),
		       "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
		       "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
		       "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
		       "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]),
		       "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
		       "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]),
		       "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
		     : "l"(da), "l"(db));
}

/* ---- the kernel's parts ---- */

/* Tile number -> its first row and column of c: groups of H_GROUP_M rows
 * of tiles, walked down a group's column, then the next column. */
static __device__ __forceinline__ void h_tile_origin(int t, int gm, int gn,
						   int *bm, int *bn)
{
	int group = H_GROUP_M * gn, first = t / group * H_GROUP_M;
	int gsize = min(gm - first, H_GROUP_M);

	*bm = (first + t % group % gsize) * H_BM;
	*bn = t % group / gsize * H_BN;
}

/* The producer's one thread: every k-tile of every tile of this block. */
static __device__ __forceinline__ void h_produce(const CUtensorMap *ma,
					       const CUtensorMap *mb,
					       unsigned int tiles,
					       unsigned int full,
					       unsigned int empty, int gm,
					       int gn, int kts, int tiles_total)
{
	int s = 0;
	unsigned int phase = 0;

	for (int t = blockIdx.x; t < tiles_total; t += gridDim.x) {
		int bm, bn;

		h_tile_origin(t, gm, gn, &bm, &bn);
		for (int kt = 0; kt < kts; kt++) {
			unsigned int st = tiles + s * H_STAGE_BYTES;

			/* Fresh barriers count as released (parity 1). */
			h_mbar_wait(empty + 8 * s, phase ^ 1);
			h_mbar_expect(full + 8 * s, H_STAGE_BYTES);
			h_tma_2d(st, ma, kt * H_BK, bm, full + 8 * s);
#pragma unroll
			for (int j = 0; j < H_BN / 64; j++)
				h_tma_2d(st + H_A_TILE + j * H_B_SLAB, mb,
				       bn + j * 64, kt * H_BK, full + 8 * s);
			if (++s == H_STAGES) {
				s = 0;
				phase ^= 1;
			}
		}
	}
}




/* One consumer warp group's H_MI x 64 rows of the tile to c, guarded. */
static __device__ __forceinline__ void h_store(float *acc, float *c, int m,
					     int n, int row0, int col0)
{
	int tid = threadIdx.x % H_WG_THREADS, lane = tid & 31;
	int g = lane >> 2, q = lane & 3;

#pragma unroll
	for (int i = 0; i < H_MI; i++) {
		int row = row0 + i * 64 + (tid >> 5) * 16 + g;

#pragma unroll
		for (int j = 0; j < H_BN / 8; j++) {
			int col = col0 + j * 8 + 2 * q;
			float *d = acc + i * (H_BN / 2) + j * 4;

			if (col >= n)
				continue;
			if (row < m)
				*(float2 *)(c + (size_t)row * n + col) =
					make_float2(d[0], d[1]);
			if (row + 8 < m)
				*(float2 *)(c + (size_t)(row + 8) * n + col) =
					make_float2(d[2], d[3]);
		}
	}
}

static __device__ __forceinline__ void h_consume(float *c, int m, int n,
					       unsigned int tiles,
					       unsigned int full,
					       unsigned int empty, int gm,
					       int gn, int kts, int tiles_total)
{
	int cw = threadIdx.x / H_WG_THREADS - H_PRODUCERS;
	int lane = threadIdx.x & 31;
	int s = 0;
	int prev = 0;
	unsigned int phase = 0;
	float acc[H_ACC];

	for (int t = blockIdx.x; t < tiles_total; t += gridDim.x) {
		int bm, bn;

		h_tile_origin(t, gm, gn, &bm, &bn);
#pragma unroll
		for (int i = 0; i < H_ACC; i++)
			acc[i] = 0.0f;
		for (int kt = 0; kt < kts; kt++) {
			unsigned int a0 = tiles + s * H_STAGE_BYTES +
					  cw * H_MI * 64 * 128;
			unsigned int b0 = tiles + s * H_STAGE_BYTES + H_A_TILE;

			h_mbar_wait(full + 8 * s, phase);
			h_acc_fence(acc);
			h_wgmma_fence();
#pragma unroll
			for (int kk = 0; kk < H_BK / 16; kk++)
#pragma unroll
				for (int i = 0; i < H_MI; i++)
					h_wgmma(acc + i * (H_BN / 2),
					      h_desc(a0 + i * 64 * 128 + kk * 32,
						   16, 1024),
					      h_desc(b0 + kk * 2048, H_B_SLAB,
						   1024)
					      );
			h_wgmma_commit();
			H_WGMMA_WAIT(1);
			h_acc_fence(acc);
			/* The group before this one has read its stage. */
			if (kt > 0 && lane == 0)
				h_mbar_arrive(empty + 8 * prev);
			prev = s;
			if (++s == H_STAGES) {
				s = 0;
				phase ^= 1;
			}
		}
		H_WGMMA_WAIT(0);
		h_acc_fence(acc);
		if (lane == 0)
			h_mbar_arrive(empty + 8 * prev);
		h_store(acc, c, m, n, bm + cw * H_MI * 64, bn);
	}
}

#endif /* H_WGMMA_OK */

static __global__ void __launch_bounds__(H_THREADS, 1)
hgemm_wgmma_kernel(const __grid_constant__ CUtensorMap ma,
		   const __grid_constant__ CUtensorMap mb,
		   const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c,
		   int m, int k, int n)
{
#if H_WGMMA_OK
	extern __shared__ unsigned char smem_raw[];
	/* The 128-byte swizzle repeats every 1024 bytes: tiles start on one. */
	unsigned int tiles = (h_smem_u32(smem_raw) + 1023) & ~1023u;
	int gm = (m + H_BM - 1) / H_BM, gn = (n + H_BN - 1) / H_BN;
	int kts = (k + H_BK - 1) / H_BK;

	__shared__ __align__(8) unsigned long long bars[2 * H_STAGES];
	unsigned int full = h_smem_u32(bars), empty = full + 8 * H_STAGES;

	if (threadIdx.x == 0) {
		for (int s = 0; s < H_STAGES; s++) {
			h_mbar_init(full + 8 * s, 1);
			h_mbar_init(empty + 8 * s, H_CONSUMERS * 4);
		}
		/* Make the inits visible to the TMA (the async proxy). */
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
	}
	__syncthreads();
	if (threadIdx.x < H_P_THREADS) {
		asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;"
			     :: "n"(H_PROD_REGS));
		if (threadIdx.x == 0)
			h_produce(&ma, &mb, tiles, full, empty, gm, gn, kts,
				gm * gn);
	} else {
		asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;"
			     :: "n"(H_CONS_REGS));
		h_consume(c, m, n, tiles, full, empty, gm, gn, kts, gm * gn);
	}
#else
	(void)a;
	(void)b;
	(void)m;
	(void)k;
	(void)n;
	(void)c;
#endif
}

/* ---- host ---- */

/* 1 in the object's sm_90a code, 0 in any other: read once, to pick the
 * path (a plain sm_90 build of this file has no wgmma). */
static __device__ int h_built = H_WGMMA_OK;

/* A rows x cols bf16 row-major matrix, boxes of box_rows x 64 columns
 * (128 bytes), 128-byte swizzle, zeros outside. */
static void h_make_map(CUtensorMap *map, const void *p, size_t rows,
		       size_t cols, unsigned int box_rows)
{
	cuuint64_t dim[2] = { cols, rows };
	cuuint64_t stride[1] = { cols * 2 };
	cuuint32_t box[2] = { 64, box_rows };
	cuuint32_t one[2] = { 1, 1 };
	CUresult r = wb_tensor_map_encode_tiled(
		map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void *)p, dim,
		stride, box, one, CU_TENSOR_MAP_INTERLEAVE_NONE,
		CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
		CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);

	if (r != CUDA_SUCCESS)
		wb_cuda_fatal(cudaErrorInvalidValue, "wb_tensor_map_encode_tiled",
			      __FILE__, __LINE__);
}

static int sms90;

/* Path 2 where the GPU is compute capability 9.0 and this object has its
 * sm_90a code; asked once. */
static int sm90_ready(void)
{
	static int known, ready;
	int dev, major, minor, built = 0;

	if (known)
		return ready;
	known = 1;
	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaDeviceGetAttribute(
		&major, cudaDevAttrComputeCapabilityMajor, dev));
	CUDA_CHECK(cudaDeviceGetAttribute(
		&minor, cudaDevAttrComputeCapabilityMinor, dev));
	if (major != 9 || minor != 0)
		return 0;
	CUDA_CHECK(cudaMemcpyFromSymbol(&built, h_built, sizeof(built)));
	if (!built)
		return 0;
	CUDA_CHECK(cudaDeviceGetAttribute(
		&sms90, cudaDevAttrMultiProcessorCount, dev));
	CUDA_CHECK(cudaFuncSetAttribute(hgemm_wgmma_kernel,
			cudaFuncAttributeMaxDynamicSharedMemorySize,
			H_SMEM_BYTES));
	ready = 1;
	return ready;
}

/* One block per SM, or per tile when there are fewer (persistent). */
static void hgemm_sm90(const bf16_bits *a, const bf16_bits *b, float *c,
		       size_t m, size_t k, size_t n)
{
	CUtensorMap ma, mb;
	size_t tiles = wb_ceil_div(m, H_BM) * wb_ceil_div(n, H_BN);
	unsigned int grid = tiles < (size_t)sms90 ? (unsigned int)tiles
						  : (unsigned int)sms90;

	h_make_map(&ma, a, m, k, H_BM);
	h_make_map(&mb, b, k, n, H_BK);
	hgemm_wgmma_kernel<<<grid, H_THREADS, H_SMEM_BYTES>>>(
		ma, mb, (const __nv_bfloat16 *)a, (const __nv_bfloat16 *)b, c,
		(int)m, (int)k, (int)n);
	CUDA_CHECK_LAUNCH();
}

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	if (sm90_ready())
		hgemm_sm90(a, b, c, m, k, n);
	else
		hgemm_mma(a, b, c, m, k, n);
}
