/* SPDX-License-Identifier: MIT */
/*
 * Breaking the technique rule: a correct GEMM in float32 on the CUDA cores
 * (the naive's shared tiles), no tensor-core instruction in its PTX. It
 * passes every size but earns no speed points, and without a GPU the
 * inspection says so.
 * Expected verdict: PASS (40 points: correctness only); without a GPU,
 * BUILT with technique=failed.
 */
#include <cuda_bf16.h>

#include "tensor_cores.h"

#define NAIVE_TILE 16

static __device__ float fp32_ld(const bf16_bits *p, size_t i)
{
	return __uint_as_float((unsigned int)p[i] << 16);
}

static __global__ void fp32_hgemm_kernel(const bf16_bits *a,
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
					       fp32_ld(a, i * k + pa) : 0.0f;
		bs[threadIdx.y][threadIdx.x] = pb < k && j < n ?
					       fp32_ld(b, pb * n + j) : 0.0f;
		__syncthreads();
		for (int q = 0; q < NAIVE_TILE; q++)
			acc = fmaf(as[threadIdx.y][q], bs[q][threadIdx.x], acc);
		__syncthreads();
	}
	if (i < m && j < n)
		c[i * n + j] = acc;
}

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
		 size_t k, size_t n)
{
	dim3 block(NAIVE_TILE, NAIVE_TILE);
	dim3 grid((unsigned int)wb_ceil_div(n, NAIVE_TILE),
		  (unsigned int)wb_ceil_div(m, NAIVE_TILE));

	fp32_hgemm_kernel<<<grid, block>>>(a, b, c, m, k, n);
	CUDA_CHECK_LAUNCH();
}
