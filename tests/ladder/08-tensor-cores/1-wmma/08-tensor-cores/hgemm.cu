/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (hgemm): the tensor cores through the WMMA API (<mma.h>).
 * A block of 4 warps computes a 64 x 64 tile of c, each warp 32 x 32 as
 * 2 x 2 fragments of 16 x 16 (wmma::mma_sync on bf16, fp32 accumulators).
 * The 64 x 32 tile of a and the 32 x 64 tile of b go through shared memory
 * with plain 16-byte loads (zero outside the matrices), rows padded by 8
 * elements so fragment loads stay 32-byte aligned; the block synchronises
 * around every tile. No pipeline: the warps wait for each tile's loads,
 * and the small tile reuses each load only 32 times. Measured on an H100
 * (2026-11-27): 11% of cuBLAS, tier 1.
 */
#include <cuda_bf16.h>
#include <mma.h>

#include "tensor_cores.h"

using namespace nvcuda;

#define BM 64
#define BN 64
#define BK 32
#define PAD 8
#define THREADS 128

/* 8 bf16 from global, or zeros past the matrix (k, n are multiples of 8:
 * a chunk is all in or all out). */
static __device__ uint4 load8(const __nv_bfloat16 *p, bool ok)
{
	return ok ? *(const uint4 *)p : make_uint4(0, 0, 0, 0);
}

static __device__ void load_tiles(const __nv_bfloat16 *a,
				  const __nv_bfloat16 *b,
				  __nv_bfloat16 (*as)[BK + PAD],
				  __nv_bfloat16 (*bs)[BN + PAD], int m, int k,
				  int n, int bm, int bn, int k0)
{
	for (int q = threadIdx.x; q < BM * BK / 8; q += THREADS) {
		int r = q / (BK / 8), ch = q % (BK / 8);
		bool ok = bm + r < m && k0 + ch * 8 < k;

		*(uint4 *)&as[r][ch * 8] =
			load8(a + (size_t)(bm + r) * k + k0 + ch * 8, ok);
	}
	for (int q = threadIdx.x; q < BK * BN / 8; q += THREADS) {
		int r = q / (BN / 8), ch = q % (BN / 8);
		bool ok = k0 + r < k && bn + ch * 8 < n;

		*(uint4 *)&bs[r][ch * 8] =
			load8(b + (size_t)(k0 + r) * n + bn + ch * 8, ok);
	}
}

/* One 16 x 16 accumulator to c at (row, col), guarded at the edges
 * through a per-warp staging tile. */
static __device__ void store_frag(float *c, float *stage,
				  wmma::fragment<wmma::accumulator, 16, 16, 16,
						 float> &f,
				  int m, int n, int row, int col)
{
	int lane = threadIdx.x & 31;

	if (row + 16 <= m && col + 16 <= n) {
		wmma::store_matrix_sync(c + (size_t)row * n + col, f, n,
					wmma::mem_row_major);
		return;
	}
	wmma::store_matrix_sync(stage, f, 16, wmma::mem_row_major);
	__syncwarp();
	for (int e = lane; e < 256; e += 32) {
		int r = row + e / 16, cc = col + e % 16;

		if (r < m && cc < n)
			c[(size_t)r * n + cc] = stage[e];
	}
	__syncwarp();
}

static __global__ void __launch_bounds__(THREADS)
hgemm_wmma(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int m,
	   int k, int n)
{
	__shared__ __align__(32) __nv_bfloat16 as[BM][BK + PAD];
	__shared__ __align__(32) __nv_bfloat16 bs[BK][BN + PAD];
	__shared__ __align__(32) float stage[THREADS / 32][16 * 16];
	int warp = threadIdx.x >> 5;
	int wm = (warp & 1) * 32, wn = (warp >> 1) * 32;
	int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16,
		       wmma::row_major> fa[2];
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16,
		       wmma::row_major> fb[2];
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];

	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			wmma::fill_fragment(acc[i][j], 0.0f);
	for (int k0 = 0; k0 < k; k0 += BK) {
		load_tiles(a, b, as, bs, m, k, n, bm, bn, k0);
		__syncthreads();
		for (int kk = 0; kk < BK; kk += 16) {
			for (int i = 0; i < 2; i++)
				wmma::load_matrix_sync(fa[i],
						       &as[wm + i * 16][kk],
						       BK + PAD);
			for (int j = 0; j < 2; j++)
				wmma::load_matrix_sync(fb[j],
						       &bs[kk][wn + j * 16],
						       BN + PAD);
			for (int i = 0; i < 2; i++)
				for (int j = 0; j < 2; j++)
					wmma::mma_sync(acc[i][j], fa[i], fb[j],
						       acc[i][j]);
		}
		__syncthreads();
	}
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			store_frag(c, stage[warp], acc[i][j], m, n,
				   bm + wm + i * 16, bn + wn + j * 16);
}

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	dim3 grid((unsigned int)wb_ceil_div(n, BN),
		  (unsigned int)wb_ceil_div(m, BM));

	hgemm_wmma<<<grid, THREADS>>>((const __nv_bfloat16 *)a,
				      (const __nv_bfloat16 *)b, c, (int)m,
				      (int)k, (int)n);
	CUDA_CHECK_LAUNCH();
}
