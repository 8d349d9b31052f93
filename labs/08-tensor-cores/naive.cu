/* SPDX-License-Identifier: MIT */
/*
 * naive.cu - hgemm's naive reference: what lab 04 taught, on these inputs.
 *
 * 16 x 16 tiles of a and b in shared memory (converted from bf16 to float
 * on the way in), one thread per element of c, float32 multiply-adds on
 * the CUDA cores. It is not the slowest possible kernel: it is the honest
 * CUDA-core baseline, so the speedup says what the tensor cores add (lab
 * 04's ladder step 1-shared-tile, which reached 16% of cuBLAS's fp32 GEMM).
 * Correct at every size (edges zero-padded); used as the speedup's base.
 */
#include <cuda_bf16.h>

#include "tensor_cores.h"

#define NAIVE_TILE 16

static __device__ float naive_ld(const bf16_bits *p, size_t i)
{
	return __uint_as_float((unsigned int)p[i] << 16);
}

static __global__ void naive_hgemm_kernel(const bf16_bits *a,
					  const bf16_bits *b, float *c,
					  size_t m, size_t k, size_t n)
{
	__shared__ float as[NAIVE_TILE][NAIVE_TILE];
	__shared__ float bs[NAIVE_TILE][NAIVE_TILE];
	size_t i = (size_t)blockIdx.y * NAIVE_TILE + threadIdx.y;
	size_t j = (size_t)blockIdx.x * NAIVE_TILE + threadIdx.x;
	float acc = 0.0f;

	for (size_t p0 = 0; p0 < k; p0 += NAIVE_TILE) {
		size_t pa = p0 + threadIdx.x, pb = p0 + threadIdx.y;

		as[threadIdx.y][threadIdx.x] = i < m && pa < k ?
					       naive_ld(a, i * k + pa) : 0.0f;
		bs[threadIdx.y][threadIdx.x] = pb < k && j < n ?
					       naive_ld(b, pb * n + j) : 0.0f;
		__syncthreads();
		for (int q = 0; q < NAIVE_TILE; q++)
			acc = fmaf(as[threadIdx.y][q], bs[q][threadIdx.x], acc);
		__syncthreads();
	}
	if (i < m && j < n)
		c[i * n + j] = acc;
}

void naive_hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
		 size_t k, size_t n)
{
	dim3 block(NAIVE_TILE, NAIVE_TILE);
	dim3 grid((unsigned int)wb_ceil_div(n, NAIVE_TILE),
		  (unsigned int)wb_ceil_div(m, NAIVE_TILE));

	naive_hgemm_kernel<<<grid, block>>>(a, b, c, m, k, n);
	CUDA_CHECK_LAUNCH();
}
