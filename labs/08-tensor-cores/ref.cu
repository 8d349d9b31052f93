/* SPDX-License-Identifier: MIT */
/*
 * ref.cu - hgemm's reference in double precision, on the GPU.
 *
 * Why on the GPU: as for lab 04's matmul (labs/04-tiling/ref.cu), the
 * benchmark, 4096^3, is 6.9e10 multiply-adds, twice over with the terms'
 * sizes the tolerance needs: ~100 s on one host core, and a run checks the
 * benchmark several times. One GPU thread per element, in double, takes
 * ~50 ms on an H100. lab.c checks it against the host's reference on
 * three rows every time before trusting it.
 *
 * Deliberately plain: no tiling, each dot product walked in order p = 0,
 * 1, ..., k - 1, as the host walks it. A bf16 is a float with its low 16
 * bits zero, and the product of two is exact in double, so both add the
 * same exact terms in the same order and agree bit for bit.
 */
#include <stdio.h>

#include "ref.h"

#define REF_THREADS_X 32
#define REF_THREADS_Y 8

static __device__ double ref_ld(const bf16_bits *p, size_t i)
{
	return (double)__uint_as_float((unsigned int)p[i] << 16);
}

/* c[i][j] and sum_p |a[i][p] b[p][j]|, one element a thread. */
static __global__ void ref_hgemm_kernel(const bf16_bits *a,
					const bf16_bits *b, size_t m, size_t k,
					size_t n, double *want, double *mag)
{
	size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t i = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
	double s = 0, t = 0;

	if (i >= m || j >= n)
		return;
	for (size_t p = 0; p < k; p++) {
		double x = ref_ld(a, i * k + p), y = ref_ld(b, p * n + j);

		s += x * y;
		t += fabs(x) * fabs(y);
	}
	want[i * n + j] = s;
	mag[i * n + j] = t;
}

/* What failed, for the check's message: the call and the error's name. */
static char ref_why[160];

static const char *failed(const char *call, cudaError_t err)
{
	snprintf(ref_why, sizeof(ref_why), "%s: %s (%s)", call,
		 cudaGetErrorName(err), cudaGetErrorString(err));
	return ref_why;
}

/* Run call; on failure note what failed and go to out. */
#define REF_TRY(call)                                                      \
	do {                                                               \
		cudaError_t ref_err_ = (call);                             \
		if (ref_err_ != cudaSuccess) {                             \
			why = failed(#call, ref_err_);                     \
			goto out;                                          \
		}                                                          \
	} while (0)

const char *hg_ref(const bf16_bits *a, const bf16_bits *b, size_t m,
		   size_t k, size_t n, double *want, double *mag)
{
	bf16_bits *da = NULL, *db = NULL;
	double *dw = NULL, *dm = NULL;
	const char *why = NULL;
	dim3 block(REF_THREADS_X, REF_THREADS_Y);
	dim3 grid((unsigned int)((n + REF_THREADS_X - 1) / REF_THREADS_X),
		  (unsigned int)((m + REF_THREADS_Y - 1) / REF_THREADS_Y));

	REF_TRY(cudaMalloc(&da, m * k * sizeof(*da)));
	REF_TRY(cudaMalloc(&db, k * n * sizeof(*db)));
	REF_TRY(cudaMalloc(&dw, m * n * sizeof(*dw)));
	REF_TRY(cudaMalloc(&dm, m * n * sizeof(*dm)));
	REF_TRY(cudaMemcpy(da, a, m * k * sizeof(*da), cudaMemcpyHostToDevice));
	REF_TRY(cudaMemcpy(db, b, k * n * sizeof(*db), cudaMemcpyHostToDevice));
	ref_hgemm_kernel<<<grid, block>>>(da, db, m, k, n, dw, dm);
	REF_TRY(cudaGetLastError());
	REF_TRY(cudaMemcpy(want, dw, m * n * sizeof(*dw),
			   cudaMemcpyDeviceToHost));
	REF_TRY(cudaMemcpy(mag, dm, m * n * sizeof(*dm),
			   cudaMemcpyDeviceToHost));
out:
	cudaFree(da);
	cudaFree(db);
	cudaFree(dw);
	cudaFree(dm);
	return why;
}
