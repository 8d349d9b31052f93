/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: an entry point that is not a plain function. hgemm
 * is declared weak, so a check that looks for a plain global entry point
 * finds none and examines nothing else; the file then defines the C
 * library's fprintf and qsort, which the harness calls, to write a record
 * of its own choosing. The product itself is honest and slow (CUDA cores).
 *
 * The build seals the object (grader/build.sh): every definition but a
 * plain entry point is renamed, so fprintf and qsort never reach the
 * runner, and a weak entry point is not kept either; the driver says why.
 * Expected verdict: REJECTED (the entry point is a weak symbol).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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
extern "C" int fprintf(FILE *f, const char *fmt, ...)
{
	(void)f, (void)fmt;
	return 0;
}

extern "C" void qsort(void *base, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	(void)base, (void)n, (void)size, (void)cmp;
}

extern "C" __attribute__((weak)) void hgemm(const bf16_bits *a,
					     const bf16_bits *b, float *c,
					     size_t m, size_t k, size_t n)
{
	dim3 grid((unsigned int)((n + 127) / 128), (unsigned int)m);

	hgemm_slow<<<grid, 128>>>(a, b, c, m, k, n);
	CUDA_CHECK(cudaGetLastError());
}
