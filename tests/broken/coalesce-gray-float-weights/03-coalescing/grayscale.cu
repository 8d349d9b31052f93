/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: the textbook float formula, 0.299 R + 0.587 G +
 * 0.114 B, rounded, instead of the lab's integer GRAY_OF. The two differ
 * by one level for a good share of pixels (for pure red, 76 against 77),
 * and the check is exact: a gray image is bytes, and a different byte is
 * a different image. The memory side (one pixel per thread) is the
 * naive's.
 * Expected verdict: WRONG, at almost every size.
 */
#include "coalescing.h"

#define THREADS 256

static __global__ void gray_float(const unsigned char *rgb,
				  unsigned char *gray, size_t n)
{
	size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (p >= n)
		return;
	gray[p] = (unsigned char)(0.299f * rgb[3 * p] +
				  0.587f * rgb[3 * p + 1] +
				  0.114f * rgb[3 * p + 2] + 0.5f);
}

void grayscale(const unsigned char *rgb, unsigned char *gray, size_t height,
	       size_t width)
{
	size_t n = height * width;

	gray_float<<<wb_ceil_div(n, THREADS), THREADS>>>(rgb, gray, n);
	CUDA_CHECK_LAUNCH();
}
