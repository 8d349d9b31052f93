/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: hand the product to the lab's library peer
 * (peer_matmul, cublasSgemm, make bench's comparison) whenever it is
 * linked in, and fall back to an honest tiled kernel when it is not. The
 * weak declaration links either way: the peers are linked only into the
 * lab's info binary, so here it is NULL and the file runs its own kernel;
 * in a runner that had the peer it would be cuBLAS's work under the
 * student's name. A reference to the lab's own code is not the file's.
 * Expected verdict: REJECTED (the file is never run).
 */
#include "tiling.h"

#define TILE 16

extern "C" void peer_matmul(const float *a, const float *b, float *c,
			    size_t m, size_t k, size_t n) __attribute__((weak));

/* c = a b through 16 x 16 shared-memory tiles: correct, and not the point
 * of this file. */
static __global__ void matmul_tiles(const float *a, const float *b, float *c,
				    size_t m, size_t k, size_t n)
{
	__shared__ float as[TILE][TILE], bs[TILE][TILE + 1];
	size_t row = (size_t)blockIdx.y * TILE + threadIdx.y;
	size_t col = (size_t)blockIdx.x * TILE + threadIdx.x;
	float acc = 0.0f;

	for (size_t k0 = 0; k0 < k; k0 += TILE) {
		size_t ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;

		as[threadIdx.y][threadIdx.x] = row < m && ka < k ? a[row * k + ka] : 0.0f;
		bs[threadIdx.y][threadIdx.x] = kb < k && col < n ? b[kb * n + col] : 0.0f;
		__syncthreads();
		for (int p = 0; p < TILE; p++)
			acc += as[threadIdx.y][p] * bs[p][threadIdx.x];
		__syncthreads();
	}
	if (row < m && col < n)
		c[row * n + col] = acc;
}

void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n)
{
	dim3 grid((unsigned int)wb_ceil_div(n, TILE),
		  (unsigned int)wb_ceil_div(m, TILE));

	if (peer_matmul) {
		peer_matmul(a, b, c, m, k, n);
		return;
	}
	matmul_tiles<<<grid, dim3(TILE, TILE)>>>(a, b, c, m, k, n);
	CUDA_CHECK_LAUNCH();
}
