/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 2 (hgemm): mma.sync by hand, on shared tiles. A block of 8
 * warps stages a 128 x 32 tile of a and a 32 x 128 tile of b in shared
 * memory (lab 04's tiling, with plain 16-byte loads through registers)
 * and each warp multiplies its 64 x 32 block of c: fragments loaded with
 * ldmatrix (.trans for b, which is stored k-major) and multiplied with
 * mma.sync.m16n8k16 in inline PTX, 4 x 4 of them per 16-deep k-step. One
 * k-tile at a time: the block waits for every load before it multiplies,
 * and the rows are unpadded, so ldmatrix reads at 4- and 8-way bank
 * conflicts (a_off() says why). Measured on an H100 (2026-11-27): 2046
 * us at 4096^3, 8.9% of cuBLAS, tier 2: each element loaded from global
 * memory now serves the 4 warps (a) or 2 (b) that share its rows or
 * columns, and each fragment 4 products, where step 1 loaded a fragment
 * for every product.
 */
#include <cuda_bf16.h>

#include "tensor_cores.h"

#define BM 128          /* rows of c per block */
#define BN 128          /* columns of c per block */
#define BK 32           /* depth of a k-tile */
#define STAGES 1        /* one tile at a time: loaded, then used */
#define THREADS 256     /* 8 warps: 2 along m x 4 along n */
#define WM 64           /* rows of c per warp */
#define WN 32           /* columns of c per warp */
#define MI (WM / 16)    /* m16 fragments per warp */
#define NI (WN / 8)     /* n8 fragments per warp */

/* Shared memory: per stage, a tile of a (BM x BK) and of b (BK x BN). */
#define A_STAGE (BM * BK)
#define B_STAGE (BK * BN)
#define SMEM_BYTES (STAGES * (A_STAGE + B_STAGE) * 2)

/*
 * The tiles are stored as they come, 16-byte chunk c of row r at chunk
 * position c. That costs bank conflicts: shared memory serves 32 banks of
 * 4 bytes (one 128-byte line) a cycle, and an ldmatrix phase reads 8 rows
 * of 16 bytes. A row of the b tile is 256 bytes, so all 8 rows start in
 * bank 0 (8-way conflicts); rows of the a tile are 64 bytes, so rows two
 * apart collide (4-way). Step 4 removes them.
 */
static __device__ __forceinline__ int a_off(int row, int chunk)
{
	return row * BK + (chunk << 3);
}

static __device__ __forceinline__ int b_off(int row, int chunk)
{
	return row * BN + (chunk << 3);
}

static __device__ __forceinline__ unsigned int smem_addr(const void *p)
{
	return (unsigned int)__cvta_generic_to_shared(p);
}

/* 16 bytes global -> shared through registers; zeros when !valid. */
static __device__ __forceinline__ void copy16(void *dst, const void *src,
					      bool valid)
{
	*(uint4 *)dst = valid ? *(const uint4 *)src : make_uint4(0, 0, 0, 0);
}

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

/* Load k-tile kt into shared memory: 2 chunks of a and 2 of b per
 * thread. */
static __device__ __forceinline__ void load_tile(
	const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *as,
	__nv_bfloat16 *bs, int m, int k, int n, int bm, int bn, int kt)
{
	int k0 = kt * BK;

	for (int q = threadIdx.x; q < BM * BK / 8; q += THREADS) {
		int row = q / (BK / 8), ch = q % (BK / 8);
		int gr = bm + row, gk = k0 + ch * 8;
		bool ok = gr < m && gk < k;

		copy16(as + a_off(row, ch),
			   ok ? a + (size_t)gr * k + gk : a, ok);
	}
	for (int q = threadIdx.x; q < BK * BN / 8; q += THREADS) {
		int row = q / (BN / 8), ch = q % (BN / 8);
		int gk = k0 + row, gc = bn + ch * 8;
		bool ok = gk < k && gc < n;

		copy16(bs + b_off(row, ch),
			   ok ? b + (size_t)gk * n + gc : b, ok);
	}
}

/* One k-tile from shared memory: two 16-deep steps of 4 x 4 mma.sync. */
static __device__ __forceinline__ void mma_tile(const __nv_bfloat16 *as,
						const __nv_bfloat16 *bs,
						float acc[MI][NI][4], int wm,
						int wn, int lane)
{
	/* ldmatrix: lane l gives the address of row l % 8 of matrix l / 8. */
	int q = lane >> 3, r = lane & 7;

	for (int kk = 0; kk < BK / 16; kk++) {
		unsigned int af[MI][4], bf[NI][2];

		/* a: matrices (rows 0-7 | 8-15) x (k 0-7 | 8-15), in the
		 * order of the mma's a registers. */
		for (int i = 0; i < MI; i++) {
			int row = wm + i * 16 + (q & 1) * 8 + r;

			ldmatrix_x4(af[i], as + a_off(row, kk * 2 + (q >> 1)));
		}
		/* b, transposed: matrices (k 0-7 | 8-15) x (n 0-7 | 8-15):
		 * the two registers of two n8 fragments. */
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
		for (int i = 0; i < MI; i++)
			for (int j = 0; j < NI; j++)
				mma_bf16(acc[i][j], af[i], bf[j]);
	}
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

static __global__ void __launch_bounds__(THREADS)
hgemm_kernel(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c,
	     int m, int k, int n)
{
	extern __shared__ __align__(128) __nv_bfloat16 smem[];
	__nv_bfloat16 *as = smem, *bs = smem + STAGES * A_STAGE;
	int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
	int wm = (warp & 1) * WM, wn = (warp >> 1) * WN;
	int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
	int kts = (k + BK - 1) / BK;
	float acc[MI][NI][4] = {};

	for (int kt = 0; kt < kts; kt++) {
		load_tile(a, b, as, bs, m, k, n, bm, bn, kt);
		__syncthreads();
		mma_tile(as, bs, acc, wm, wn, lane);
		/* Every warp is done with the tile before it is replaced. */
		__syncthreads();
	}
	store_c(c, acc, m, n, bm + wm, bn + wn, lane);
}

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	dim3 grid((unsigned int)wb_ceil_div(n, BN),
		  (unsigned int)wb_ceil_div(m, BM));

	CUDA_CHECK(cudaFuncSetAttribute(hgemm_kernel,
			cudaFuncAttributeMaxDynamicSharedMemorySize,
			SMEM_BYTES));
	hgemm_kernel<<<grid, THREADS, SMEM_BYTES>>>(
		(const __nv_bfloat16 *)a, (const __nv_bfloat16 *)b, c, (int)m,
		(int)k, (int)n);
	CUDA_CHECK_LAUNCH();
}
