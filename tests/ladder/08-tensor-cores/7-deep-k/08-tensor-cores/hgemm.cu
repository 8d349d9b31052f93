/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 7 (hgemm, issue #16), measured on an H100 (2026-11-27) at
 * 41% of cuBLAS (step 6: 33%; the solution, step 8: 54%): step 6
 * (128 x 256 block, 64 x 64
 * warp tiles, double-buffered fragments, rasterised blocks) with 64-deep
 * k-tiles in a 3-stage pipeline: CUTLASS's usual sm_80 shape for 16-bit
 * GEMMs (128 x 256 x 64, 3 stages, 8 warps of 64 x 64).
 *
 * What changes, and why. With 32-deep tiles every block stops at a
 * barrier every 2 k-steps (64 mma.sync a warp), and with one block per SM
 * nothing else runs while its 8 warps gather there. 64-deep tiles halve
 * the barriers (one every 4 k-steps, 128 mma a warp) and the cp.async
 * bookkeeping per FLOP, and each thread's copies come in 12 chunks per
 * tile instead of 6 (more bytes in flight per request). A row of the a
 * tile is now 128 bytes, 8 chunks: its swizzle is chunk ^ (row % 8), like
 * b's. The price is shared memory: 3 stages x (128 x 64 + 64 x 256) x 2
 * bytes = 144 KiB, so 3 stages (two tiles in flight while one is
 * multiplied, each 4 k-steps long) instead of 4. 144 KiB is within an
 * A100's (163 KiB a block) and an H100's (227 KiB), but not an RTX 30xx
 * or 40xx's (sm_86, sm_89: 99 KiB). It is a side branch: half the
 * barriers also halve the copy bursts per FLOP, which step 8 removes
 * instead, at 32-deep tiles that fit every GPU of the lab.
 */
#include <cuda_bf16.h>

#include "tensor_cores.h"

#define BM 128          /* rows of c per block */
#define BN 256          /* columns of c per block */
#define BK 64           /* depth of a k-tile */
#define STAGES 3        /* k-tiles in flight */
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
 * Swizzles, in 16-byte chunks (8 bf16). A row of the a tile is 128 bytes
 * (8 chunks) and of the b tile 512 bytes (32 chunks): every row starts at
 * bank 0, so chunk ^= row % 8 in both (the low 3 bits: a chunk stays in
 * its 128-byte line). That spreads 8 consecutive rows over the 8 chunk
 * positions of a 128-byte line: ldmatrix reads them in one pass.
 */
static __device__ __forceinline__ int a_off(int row, int chunk)
{
	return row * BK + ((chunk ^ (row & 7)) << 3);
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

/* Start the copies of k-tile kt into a stage: 4 chunks of a and 8 of b
 * per thread. */
static __device__ __forceinline__ void load_tile(
	const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *as,
	__nv_bfloat16 *bs, int m, int k, int n, int bm, int bn, int kt)
{
	int k0 = kt * BK;

	for (int q = threadIdx.x; q < BM * BK / 8; q += THREADS) {
		int row = q / (BK / 8), ch = q % (BK / 8);
		int gr = bm + row, gk = k0 + ch * 8;
		bool ok = gr < m && gk < k;

		cp_async16(as + a_off(row, ch),
			   ok ? a + (size_t)gr * k + gk : a, ok);
	}
	for (int q = threadIdx.x; q < BK * BN / 8; q += THREADS) {
		int row = q / (BN / 8), ch = q % (BN / 8);
		int gk = k0 + row, gc = bn + ch * 8;
		bool ok = gk < k && gc < n;

		cp_async16(bs + b_off(row, ch),
			   ok ? b + (size_t)gk * n + gc : b, ok);
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
	for (int i = 0; i < MI; i++) {
		int row = wm + i * 16 + (q & 1) * 8 + r;

		ldmatrix_x4(af[i], as + a_off(row, kk * 2 + (q >> 1)));
	}
	/* b, transposed: matrices (k 0-7 | 8-15) x (n 0-7 | 8-15): the two
	 * registers of two n8 fragments. */
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

/* One 16-deep step: 4 x 8 mma.sync, each a fragment used 8 times, each b
 * fragment 4 times. */
static __device__ __forceinline__ void mma_step(float acc[MI][NI][4],
						unsigned int af[MI][4],
						unsigned int bf[NI][2])
{
	for (int i = 0; i < MI; i++)
		for (int j = 0; j < NI; j++)
			mma_bf16(acc[i][j], af[i], bf[j]);
}

/* The accumulators to c: thread (g = lane / 4, t = lane % 4) holds rows g
 * and g + 8, columns 2t and 2t + 1, of each 16 x 8 fragment. */
static __device__ __forceinline__ void store_c(float *c, float acc[MI][NI][4],
					       int m, int n, int r0, int c0,
					       int lane)
{
	int g = lane >> 2, t = lane & 3;

	for (int i = 0; i < MI; i++)
		for (int j = 0; j < NI; j++) {
			int row = r0 + i * 16 + g, col = c0 + j * 8 + 2 * t;

			/* n is a multiple of 8: col < n means col + 1 < n. */
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

/*
 * Block number -> (row, column) of its tile of c, in groups of GROUP_M
 * rows of tiles: down a group's column, then the next column. A
 * bijection: the last group may have fewer rows (gsize), and it is
 * walked in the same order with its own height.
 */
static __device__ __forceinline__ void raster(int gm, int gn, int *tm,
					      int *tn)
{
	int pid = blockIdx.x, group = GROUP_M * gn;
	int first = pid / group * GROUP_M;
	int gsize = min(gm - first, GROUP_M);

	*tm = first + pid % group % gsize;
	*tn = pid % group / gsize;
}

/* One block per SM: 128 accumulators a thread leave no room for two. */
static __global__ void __launch_bounds__(THREADS, 1)
hgemm_kernel(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c,
	     int m, int k, int n)
{
	extern __shared__ __align__(128) __nv_bfloat16 smem[];
	__nv_bfloat16 *as = smem, *bs = smem + STAGES * A_STAGE;
	int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
	int wm = (warp % WARPS_M) * WM, wn = (warp / WARPS_M) * WN;
	int kts = (k + BK - 1) / BK;
	int tm, tn, bm, bn;
	float acc[MI][NI][4] = {};
	/* Two sets of fragments: step s's in use, step s + 1's loading. */
	unsigned int af[2][MI][4], bf[2][NI][2];

	raster((m + BM - 1) / BM, (n + BN - 1) / BN, &tm, &tn);
	bm = tm * BM;
	bn = tn * BN;
	/* Prologue: the first STAGES - 1 tiles in flight, and the first
	 * k-step's fragments of tile 0 loaded once it has landed. */
	for (int s = 0; s < STAGES - 1; s++) {
		if (s < kts)
			load_tile(a, b, as + s * A_STAGE, bs + s * B_STAGE, m,
				  k, n, bm, bn, s);
		cp_async_commit();
	}
	CP_ASYNC_WAIT(STAGES - 2);
	__syncthreads();
	load_frags(af[0], bf[0], as, bs, 0, wm, wn, lane);

	for (int kt = 0; kt < kts; kt++) {
		int s = kt % STAGES, s1 = (kt + 1) % STAGES;

		/* Unrolled: the fragment sets must stay in registers. */
#pragma unroll
		for (int kk = 0; kk < KSTEPS; kk++) {
			if (kk == KSTEPS - 1) {
				/* Tile kt + 1 has landed (STAGES - 1 + kt + 1
				 * groups committed; at most STAGES - 2, the
				 * tiles after it, pending), for every
				 * thread's copies; and every warp has read
				 * its last fragments of tile kt - 1. */
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
			if (kk == 0) {
				/* Refill the stage of tile kt - 1: every warp
				 * passed the barrier after its last read. */
				int next = kt + STAGES - 1;

				if (next < kts)
					load_tile(a, b,
						  as + (next % STAGES) * A_STAGE,
						  bs + (next % STAGES) * B_STAGE,
						  m, k, n, bm, bn, next);
				cp_async_commit();
			}
			mma_step(acc, af[kk & 1], bf[kk & 1]);
		}
	}
	CP_ASYNC_WAIT(0);
	store_c(c, acc, m, n, bm + wm, bn + wn, lane);
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
