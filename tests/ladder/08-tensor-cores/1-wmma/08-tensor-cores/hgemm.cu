/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 1 (hgemm): the tensor cores through the WMMA API (<mma.h>),
 * and nothing else. Each warp computes one 16 x 16 tile of c: for every
 * 16-deep k-step it loads a 16 x 16 fragment of a and one of b straight
 * from global memory (wmma::load_matrix_sync) and multiplies them into
 * fp32 accumulators (wmma::mma_sync). Fragments that cross an edge of a
 * matrix are copied, with zeros outside, through a staging tile of the
 * warp's in shared memory. No tiling beyond the fragment: every fragment
 * is loaded from L1 or L2 and used once, 1 KiB of loads for 4096
 * multiply-adds, and the tensor cores wait on the loads. Measured on an
 * H100 (2026-11-27): 5178 us at 4096^3, 3.5% of cuBLAS, tier 1, three
 * times the CUDA-core naive. Reuse in registers helps (2 x 2 fragments a
 * warp measured 6.7%, 4 x 4 8.4%), but step 2's shared tiles are where
 * the reuse of lab 04 is.
 */
#include <cuda_bf16.h>
#include <mma.h>

#include "tensor_cores.h"

using namespace nvcuda;

#define WARPS 4                 /* warps per block, 4 tiles of c in a row */
#define THREADS (WARPS * 32)

typedef wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16,
		       wmma::row_major> frag_a;
typedef wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16,
		       wmma::row_major> frag_b;
typedef wmma::fragment<wmma::accumulator, 16, 16, 16, float> frag_c;

/*
 * The 16 x 16 tile at (r0, c0) of a row-major rows x cols matrix p, for a
 * fragment load: p itself where the tile is inside the matrix (rows are
 * 16-byte aligned and cols a multiple of 8, as wmma needs), else a copy
 * in the warp's stage with zeros outside. Sets *ld to the tile's row
 * stride.
 */
static __device__ const __nv_bfloat16 *
tile_at(const __nv_bfloat16 *p, int rows, int cols, int r0, int c0,
	__nv_bfloat16 *stage, int *ld)
{
	int lane = threadIdx.x & 31;

	*ld = cols;
	if (r0 + 16 <= rows && c0 + 16 <= cols)
		return p + (size_t)r0 * cols + c0;
	__syncwarp();   /* the last fragment load from stage is done */
	for (int e = lane; e < 256; e += 32) {
		int r = r0 + e / 16, c = c0 + e % 16;

		stage[e] = r < rows && c < cols ? p[(size_t)r * cols + c] :
			   __float2bfloat16(0.0f);
	}
	__syncwarp();
	*ld = 16;
	return stage;
}

/* The accumulator to c at (row, col), through stage at the edges. */
static __device__ void store_tile(float *c, float *stage, const frag_c &f,
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
}

static __global__ void __launch_bounds__(THREADS)
hgemm_wmma(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *c, int m,
	   int k, int n)
{
	__shared__ __align__(32) __nv_bfloat16 stage_a[WARPS][256];
	__shared__ __align__(32) __nv_bfloat16 stage_b[WARPS][256];
	__shared__ __align__(32) float stage_c[WARPS][256];
	int warp = threadIdx.x >> 5;
	int row = blockIdx.y * 16;
	int col = (blockIdx.x * WARPS + warp) * 16;
	frag_a fa;
	frag_b fb;
	frag_c acc;

	if (col >= n)
		return;         /* the whole warp: nothing of c is here */
	wmma::fill_fragment(acc, 0.0f);
	for (int k0 = 0; k0 < k; k0 += 16) {
		const __nv_bfloat16 *p;
		int ld;

		p = tile_at(a, m, k, row, k0, stage_a[warp], &ld);
		wmma::load_matrix_sync(fa, p, ld);
		p = tile_at(b, k, n, k0, col, stage_b[warp], &ld);
		wmma::load_matrix_sync(fb, p, ld);
		wmma::mma_sync(acc, fa, fb, acc);
	}
	store_tile(c, stage_c[warp], acc, m, n, row, col);
}

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	dim3 grid((unsigned int)wb_ceil_div(n, 16 * WARPS),
		  (unsigned int)wb_ceil_div(m, 16));

	hgemm_wmma<<<grid, THREADS>>>((const __nv_bfloat16 *)a,
				      (const __nv_bfloat16 *)b, c, (int)m,
				      (int)k, (int)n);
	CUDA_CHECK_LAUNCH();
}
