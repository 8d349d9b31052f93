/* SPDX-License-Identifier: MIT */
/*
 * Ladder step 3 (segment_sum): one float4 per thread, so 8 lanes hold a
 * segment, summed with three __shfl_xor_sync of width 8. Four times fewer
 * load instructions and threads than step 1, but still one load in flight
 * per thread and one thread per 4 elements (no grid-stride loop): the
 * solution adds eight loads in flight and a wave of blocks.
 */
#include "shfl.h"

#define THREADS 256

static __device__ float4 load4_padded(const float *in, size_t n, size_t q)
{
	size_t i = 4 * q;
	float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

	if (i + 3 < n)
		return ((const float4 *)in)[q];
	if (i < n)
		v.x = in[i];
	if (i + 1 < n)
		v.y = in[i + 1];
	if (i + 2 < n)
		v.z = in[i + 2];
	return v;
}

static __global__ void segsum_float4(const float *in, size_t n, float *out)
{
	size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float4 x = load4_padded(in, n, q);
	float v = (x.x + x.y) + (x.z + x.w);

	for (int m = 4; m > 0; m /= 2)
		v += __shfl_xor_sync(0xffffffffu, v, m, 8);
	if (threadIdx.x % 8 == 0 && 4 * q < n)
		out[q / 8] = v;
}

void segment_sum(const float *in, size_t n, float *out)
{
	segsum_float4<<<wb_ceil_div(wb_ceil_div(n, 4), THREADS), THREADS>>>(
		in, n, out);
	CUDA_CHECK_LAUNCH();
}
