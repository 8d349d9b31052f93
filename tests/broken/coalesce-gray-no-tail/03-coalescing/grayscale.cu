/* SPDX-License-Identifier: MIT */
/*
 * Broken on purpose: 16 pixels per thread with aligned 16-byte loads and
 * stores, and no tail. The grid covers n / 16 groups, so the last n % 16
 * pixels are never written and keep the poison (255). At 1 x 1 and
 * 1 x 15 nothing at all is written.
 * Expected verdict: WRONG, at every pixel count that is not a multiple of
 * 16.
 */
#include "coalescing.h"

#define THREADS 256

static __device__ unsigned int byte_of(const unsigned int *w, int b)
{
	return (w[b / 4] >> (8 * (b % 4))) & 0xffu;
}

static __global__ void gray16_no_tail(const uint4 *rgb, uint4 *gray,
				      size_t groups)
{
	size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int w[12], o[4] = { 0, 0, 0, 0 };
	uint4 a, b, c;

	if (g >= groups)
		return;
	a = rgb[3 * g];
	b = rgb[3 * g + 1];
	c = rgb[3 * g + 2];
	w[0] = a.x, w[1] = a.y, w[2] = a.z, w[3] = a.w;
	w[4] = b.x, w[5] = b.y, w[6] = b.z, w[7] = b.w;
	w[8] = c.x, w[9] = c.y, w[10] = c.z, w[11] = c.w;
#pragma unroll
	for (int p = 0; p < 16; p++)
		o[p / 4] |= GRAY_OF(byte_of(w, 3 * p), byte_of(w, 3 * p + 1),
				    byte_of(w, 3 * p + 2)) << (8 * (p % 4));
	gray[g] = make_uint4(o[0], o[1], o[2], o[3]);
}

void grayscale(const unsigned char *rgb, unsigned char *gray, size_t height,
	       size_t width)
{
	size_t groups = height * width / 16;

	/* At least one block: a grid of 0 blocks is an invalid launch. */
	gray16_no_tail<<<wb_ceil_div(groups, THREADS) + 1, THREADS>>>(
		(const uint4 *)rgb, (uint4 *)gray, groups);
	CUDA_CHECK_LAUNCH();
}
