/* SPDX-License-Identifier: MIT */
/*
 * Against the rules on purpose: the row reduction done by CUB's
 * device-wide segmented reduction. The squares go to y first (scratch),
 * cub::DeviceSegmentedReduce::Sum adds each row's, and a last kernel
 * scales. Correct, three passes where one kernel needs two, and against
 * the lab's rule: the row reduction is what the lab teaches. The
 * technique check finds CUB's kernels in this file's object.
 * Expected verdict: PASS with the correctness points only (technique
 * failed: the performance points are withheld).
 */
#include <cub/cub.cuh>

#include "rmsnorm.h"

#define THREADS 256

/* y[i] = x[i]^2, elementwise: the values the library sums per row. */
static __global__ void squares(const float *x, float *y, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = x[i] * x[i];
}

/* Row r starts at r * hidden: the segment offsets CUB wants. */
static __global__ void row_offsets(int *offsets, size_t rows, size_t hidden)
{
	size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (r <= rows)
		offsets[r] = (int)(r * hidden);
}

/* y = x / sqrt(mean + eps) * w, one thread per element. */
static __global__ void scale_rows(const float *x, const float *w,
				  const float *sums, float *y, size_t rows,
				  size_t hidden, float eps)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < rows * hidden)
		y[i] = x[i] * rsqrtf(sums[i / hidden] / hidden + eps) *
		       w[i % hidden];
}

/* Scratch that grows with the largest shape seen; kept between calls. */
static void *grow(void **p, size_t *have, size_t want)
{
	if (want > *have) {
		if (*p)
			CUDA_CHECK(cudaFree(*p));
		CUDA_CHECK(cudaMalloc(p, want));
		*have = want;
	}
	return *p;
}

void rmsnorm(const float *x, const float *w, float *y, size_t rows,
	     size_t hidden, float eps)
{
	static void *scratch;
	static size_t have;
	size_t n = rows * hidden, temp = 0, head;
	int *offsets;
	float *sums;
	char *base;

	CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(NULL, temp, y, y, (int)rows,
						   (int *)NULL, (int *)NULL));
	head = ((rows + 1) * sizeof(int) + rows * sizeof(float) + 255) / 256 * 256;
	base = (char *)grow(&scratch, &have, head + temp);
	offsets = (int *)base;
	sums = (float *)(base + (rows + 1) * sizeof(int));
	squares<<<wb_ceil_div(n, THREADS), THREADS>>>(x, y, n);
	CUDA_CHECK_LAUNCH();
	row_offsets<<<wb_ceil_div(rows + 1, THREADS), THREADS>>>(offsets, rows,
								 hidden);
	CUDA_CHECK_LAUNCH();
	CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(base + head, temp, y, sums,
						   (int)rows, offsets,
						   offsets + 1));
	scale_rows<<<wb_ceil_div(n, THREADS), THREADS>>>(x, w, sums, y, rows,
							 hidden, eps);
	CUDA_CHECK_LAUNCH();
}
