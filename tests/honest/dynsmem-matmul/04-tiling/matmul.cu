/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): a register-blocked SGEMM whose tiles
 * live in dynamic shared memory, launched the way CUTLASS-style code does:
 * the launcher raises the kernel's dynamic shared memory limit with
 * cudaFuncSetAttribute before the first launch (needed past 48 KB; done
 * unconditionally so the tile can grow). 128 x 128 tiles of c per block of
 * 256 threads, 8 x 8 per thread, k in steps of 16; a is stored transposed
 * in shared memory, padded against bank conflicts. Expected: PASS;
 * statically BUILT, technique ok.
 */
#include "tiling.h"

#define BM 128
#define BN 128
#define BK 16
#define TM 8
#define TN 8
#define THREADS ((BM / TM) * (BN / TN))
#define AS_LD (BM + 4) /* padded row of the transposed a tile */
#define SMEM_BYTES ((BK * AS_LD + BK * BN) * sizeof(float))

/* Stage a's BM x BK tile (transposed) and b's BK x BN tile; zeros outside. */
static __device__ void load_tiles(const float *a, const float *b, float *as,
				  float *bs, size_t m, size_t k, size_t n,
				  size_t row0, size_t col0, size_t k0)
{
	for (int l = threadIdx.x; l < BM * BK; l += THREADS) {
		int r = l / BK, c = l % BK;
		size_t gr = row0 + r, gc = k0 + c;

		as[c * AS_LD + r] = gr < m && gc < k ? a[gr * k + gc] : 0.0f;
	}
	for (int l = threadIdx.x; l < BK * BN; l += THREADS) {
		int r = l / BN, c = l % BN;
		size_t gr = k0 + r, gc = col0 + c;

		bs[r * BN + c] = gr < k && gc < n ? b[gr * n + gc] : 0.0f;
	}
}

static __global__ void __launch_bounds__(THREADS)
sgemm_kernel(const float *__restrict__ a, const float *__restrict__ b,
	     float *__restrict__ c, size_t m, size_t k, size_t n)
{
	extern __shared__ float smem[];
	float *as = smem, *bs = smem + BK * AS_LD;
	int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
	size_t row0 = (size_t)blockIdx.y * BM, col0 = (size_t)blockIdx.x * BN;
	float acc[TM][TN] = { { 0.0f } }, ra[TM], rb[TN];

	for (size_t k0 = 0; k0 < k; k0 += BK) {
		load_tiles(a, b, as, bs, m, k, n, row0, col0, k0);
		__syncthreads();
#pragma unroll
		for (int kk = 0; kk < BK; kk++) {
#pragma unroll
			for (int i = 0; i < TM; i++)
				ra[i] = as[kk * AS_LD + ty * TM + i];
#pragma unroll
			for (int j = 0; j < TN; j++)
				rb[j] = bs[kk * BN + tx * TN + j];
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] += ra[i] * rb[j];
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < TM; i++) {
		size_t r = row0 + ty * TM + i;

		if (r >= m)
			break;
#pragma unroll
		for (int j = 0; j < TN; j++) {
			size_t col = col0 + tx * TN + j;

			if (col < n)
				c[r * n + col] = acc[i][j];
		}
	}
}

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	static int ready;
	dim3 grid((unsigned int)wb_ceil_div(n, BN), (unsigned int)wb_ceil_div(m, BM));

	if (!ready) {
		CUDA_CHECK(cudaFuncSetAttribute(
			sgemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
			(int)SMEM_BYTES));
		ready = 1;
	}
	sgemm_kernel<<<grid, THREADS, SMEM_BYTES>>>(a, b, c, m, k, n);
	CUDA_CHECK_LAUNCH();
}
