/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: a 64 x 64 register-blocked matmul (4 x 4 per thread)
 * that loads a's rows into shared memory as float4 whenever the four
 * values lie inside the row (k0 + 4 <= k), and with scalar loads only for
 * the last ragged piece of a row. It never asks whether the row starts on
 * a 16-byte boundary: row i of a begins at i x k floats, aligned only
 * when k % 4 == 0. At 257 x 515 x 1 row 1 begins 2060 bytes in, and the
 * 16-byte load there faults (sizes with k < 4, or a single row, pass).
 * Expected verdict: CRASH (cudaErrorMisalignedAddress).
 * The fix: float4 only when k % 4 == 0 (test it on the host and launch a
 * scalar kernel otherwise), as for b and c with n.
 */
#include "tiling.h"

#define BM 64
#define BN 64
#define BK 8
#define THREADS 256

__global__ void matmul_float4_rows(const float *a, const float *b, float *c,
				   int m, int k, int n)
{
	__shared__ __align__(16) float as[BK][BM + 4];
	__shared__ __align__(16) float bs[BK][BN];
	int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
	int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
	/* a's slice: 64 rows x 8 = two float4 per row, one per thread of 128 */
	int ar = tid / 2, ap = (tid % 2) * 4;
	float acc[4][4] = { { 0.0f } };

	for (int k0 = 0; k0 < k; k0 += BK) {
		if (tid < 2 * BM) {
			float v[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
			const float *src = a + (size_t)(row0 + ar) * k + k0 +
					   ap;

			if (row0 + ar < m && k0 + ap + 4 <= k) {
				float4 q = *(const float4 *)src; /* the bug */

				v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
			} else if (row0 + ar < m) {
				for (int e = 0; e < 4; e++)
					if (k0 + ap + e < k)
						v[e] = src[e];
			}
			for (int e = 0; e < 4; e++)
				as[ap + e][ar] = v[e];
		}
		for (int e = tid; e < BK * BN; e += THREADS) {
			int q = e / BN, cc = e % BN;

			bs[q][cc] = k0 + q < k && col0 + cc < n ?
				    b[(size_t)(k0 + q) * n + col0 + cc] : 0.0f;
		}
		__syncthreads();
		for (int p = 0; p < BK; p++)
			for (int i = 0; i < 4; i++)
				for (int j = 0; j < 4; j++)
					acc[i][j] += as[p][ty * 4 + i] *
						     bs[p][tx * 4 + j];
		__syncthreads();
	}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			int r = row0 + ty * 4 + i, cc = col0 + tx * 4 + j;

			if (r < m && cc < n)
				c[(size_t)r * n + cc] = acc[i][j];
		}
}

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	dim3 grid((unsigned int)wb_ceil_div(n, BN),
		  (unsigned int)wb_ceil_div(m, BM));

	matmul_float4_rows<<<grid, THREADS>>>(a, b, c, (int)m, (int)k, (int)n);
	CUDA_CHECK_LAUNCH();
}
