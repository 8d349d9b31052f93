/* SPDX-License-Identifier: MIT */
/*
 * ref.cu - matmul's reference in double precision, on the GPU.
 *
 * Why on the GPU: every reference of this workbook is computed on the
 * host in double, and so is matmul's up to 2^27 multiply-adds (lab.c,
 * MM_FULL_MACS). The benchmark, 4096^3, is 6.9e10 of them: 137 GFLOP for
 * c, as much again for the sizes of the terms the tolerance needs. One
 * host core does ~6.7e8 a second in that loop (2^27 take ~0.2 s), so one
 * check would take ~100 s, and a run checks the benchmark several times
 * (the submission before and after timing and on new inputs, the naive,
 * the library peer): far past the exercise's time limit. So the host
 * used to check 10 rows and 10 columns there, 0.5% of c, and a bug
 * confined to one tile could pass. Here one GPU thread computes one
 * element in double: 2 fp64 fused multiply-adds a term, 2.7e11 fp64
 * operations at 4096^3, ~10 ms at an H100's 34 fp64 TFLOP/s, ~50 ms in
 * practice (the loads of an untiled loop, as in the naive), ~0.2-0.5 s on
 * a GPU with 1/64-rate fp64. lab.c checks this reference against its host
 * one on a few rows and columns every time before trusting it.
 *
 * Deliberately plain: no tiling, no shared memory, each dot product
 * walked in order p = 0, 1, ..., k - 1, as the host's reference walks it.
 * The product of two floats is exact in double (24 + 24 bits), so both
 * add the same exact terms in the same order and agree bit for bit, with
 * or without fused multiply-adds.
 */
#include <stdio.h>

#include "ref.h"

#define REF_THREADS_X 32
#define REF_THREADS_Y 8
/* gridDim.y is at most 65535: the most rows one launch covers. */
#define REF_MAX_SLAB ((size_t)65535 * REF_THREADS_Y)

/* One element of rows i0.. of c and of mag: c[i][j], sum |a[i][p] b[p][j]|. */
static __global__ void ref_matmul_kernel(const float *a, const float *b,
					 size_t k, size_t n, size_t i0,
					 size_t rows, double *want, double *mag)
{
	size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	size_t r = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
	const float *ar;
	double s = 0, t = 0;

	if (r >= rows || j >= n)
		return;
	ar = a + (i0 + r) * k;
	for (size_t p = 0; p < k; p++) {
		double x = ar[p], y = b[p * n + j];

		s += x * y;
		t += fabs(x) * fabs(y);
	}
	want[r * n + j] = s;
	mag[r * n + j] = t;
}

/* What failed, for the check's message: the call and the error's name. */
static char ref_why[160];

static const char *failed(const char *call, cudaError_t err)
{
	snprintf(ref_why, sizeof(ref_why), "%s: %s (%s)", call,
		 cudaGetErrorName(err), cudaGetErrorString(err));
	return ref_why;
}

/* Run call; on failure return what failed from the calling function. */
#define REF_TRY(call)                                                      \
	do {                                                               \
		cudaError_t ref_err_ = (call);                             \
		if (ref_err_ != cudaSuccess)                               \
			return failed(#call, ref_err_);                    \
	} while (0)

static const char *ref_upload(struct mm_ref *r, const float *a,
			      const float *b)
{
	size_t m = r->m, k = r->k, n = r->n;

	REF_TRY(cudaMalloc(&r->a, m * k * sizeof(float)));
	REF_TRY(cudaMalloc(&r->b, k * n * sizeof(float)));
	REF_TRY(cudaMalloc(&r->want, r->slab * n * sizeof(double)));
	REF_TRY(cudaMalloc(&r->mag, r->slab * n * sizeof(double)));
	REF_TRY(cudaMemcpy(r->a, a, m * k * sizeof(float),
			   cudaMemcpyHostToDevice));
	REF_TRY(cudaMemcpy(r->b, b, k * n * sizeof(float),
			   cudaMemcpyHostToDevice));
	return NULL;
}

const char *mm_ref_open(struct mm_ref *r, const float *a, const float *b,
			size_t m, size_t k, size_t n, size_t slab_bytes)
{
	const char *why;

	r->a = r->b = NULL;
	r->want = r->mag = NULL;
	r->m = m;
	r->k = k;
	r->n = n;
	r->slab = slab_bytes / (2 * sizeof(double) * n);
	r->slab = r->slab > REF_MAX_SLAB ? REF_MAX_SLAB : r->slab;
	r->slab = r->slab < 1 ? 1 : r->slab > m ? m : r->slab;
	why = ref_upload(r, a, b);
	if (why)
		mm_ref_close(r);
	return why;
}

const char *mm_ref_rows(struct mm_ref *r, size_t i0, size_t rows,
			double *want, double *mag)
{
	dim3 block(REF_THREADS_X, REF_THREADS_Y);
	dim3 grid((unsigned int)((r->n + REF_THREADS_X - 1) / REF_THREADS_X),
		  (unsigned int)((rows + REF_THREADS_Y - 1) / REF_THREADS_Y));

	if (rows > r->slab || i0 + rows > r->m)
		return "mm_ref_rows: rows outside the slab or the matrix";
	ref_matmul_kernel<<<grid, block>>>(r->a, r->b, r->k, r->n, i0, rows,
					   r->want, r->mag);
	REF_TRY(cudaGetLastError());
	REF_TRY(cudaMemcpy(want, r->want, rows * r->n * sizeof(double),
			   cudaMemcpyDeviceToHost));
	REF_TRY(cudaMemcpy(mag, r->mag, rows * r->n * sizeof(double),
			   cudaMemcpyDeviceToHost));
	return NULL;
}

void mm_ref_close(struct mm_ref *r)
{
	cudaFree(r->a);
	cudaFree(r->b);
	cudaFree(r->want);
	cudaFree(r->mag);
	r->a = r->b = NULL;
	r->want = r->mag = NULL;
}
