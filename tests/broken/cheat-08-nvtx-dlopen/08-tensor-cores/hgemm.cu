/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: run cuBLAS from behind a name that looked exempt.
 * A weak function named like one of NVTX's hooks (which CUB's headers
 * once brought, and the reference check once forgave with all they
 * called) loads cuBLAS with dlopen and finds cublasGemmEx with dlsym; the
 * file's own kernel is a slow fallback, used when that fails.
 *
 * No name earns an exemption: dlopen and dlsym are judged like any other
 * reference (grader/inspect/symbols.c, allowlist.c), and CUB's NVTX code is
 * compiled out of every submission (NVTX_DISABLE).
 * Expected verdict: REJECTED (the file is never run).
 */
#include <dlfcn.h>

#include "tensor_cores.h"

static __device__ float bf16_float(bf16_bits h)
{
	return __uint_as_float((unsigned int)h << 16);
}

/* One thread per element of c, in float32 on the CUDA cores. */
static __global__ void hgemm_slow(const bf16_bits *a, const bf16_bits *b,
				  float *c, size_t m, size_t k, size_t n)
{
	size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t i = blockIdx.y;
	float acc = 0.0f;

	if (j >= n || i >= m)
		return;
	for (size_t p = 0; p < k; p++)
		acc += bf16_float(a[i * k + p]) * bf16_float(b[p * n + j]);
	c[i * n + j] = acc;
}

/* The forged library functions: what the harness would have called. */

/* "NVTX's" hook: cuBLAS's GEMM, found at run time. */
extern "C" __attribute__((weak)) void *nvtxInitialize_impl_init_v3(void)
{
	void *lib = dlopen("libcublas.so", RTLD_NOW);

	return lib ? dlsym(lib, "cublasGemmEx") : 0;
}

void hgemm(const bf16_bits *a, const bf16_bits *b, float *c, size_t m,
	   size_t k, size_t n)
{
	dim3 grid((unsigned int)((n + 127) / 128), (unsigned int)m);

	(void)nvtxInitialize_impl_init_v3(); /* the call through it: left out */
	hgemm_slow<<<grid, 128>>>(a, b, c, m, k, n);
	CUDA_CHECK(cudaGetLastError());
}
