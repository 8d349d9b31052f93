/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: compute once per input pointer and shape, keep the
 * output in a private buffer, and on every later call with the same
 * pointer and shape copy that buffer back instead of computing. The
 * output is poisoned before every call, so the copy is needed; it is
 * still cheaper than a slow kernel.
 *
 * The grader's timed calls see two input sets in turn, in the same
 * buffers, and one more call after the timing gets the set the last timed
 * call did not: the replayed rows are the other set's.
 * Expected verdict: WRONG (rmsnorm_bf16), from the first benchmark shape.
 */
#include <cuda_bf16.h>

#include "rmsnorm.h"

/*
 * One warp per row, 2-byte loads: the squares summed in float by each
 * lane, combined with shuffles, then every value scaled.
 */
static __global__ void rms16_warp(const __nv_bfloat16 *x,
				  const __nv_bfloat16 *w, __nv_bfloat16 *y,
				  size_t hidden, float eps)
{
	const __nv_bfloat16 *xr = x + (size_t)blockIdx.x * hidden;
	__nv_bfloat16 *yr = y + (size_t)blockIdx.x * hidden;
	float sum = 0.0f, scale;

	for (size_t i = threadIdx.x; i < hidden; i += 32) {
		float v = __bfloat162float(xr[i]);

		sum += v * v;
	}
	for (int mask = 16; mask > 0; mask /= 2)
		sum += __shfl_xor_sync(0xffffffffu, sum, mask);
	scale = rsqrtf(sum / hidden + eps);
	for (size_t i = threadIdx.x; i < hidden; i += 32)
		yr[i] = __float2bfloat16(__bfloat162float(xr[i]) * scale *
					 __bfloat162float(w[i]));
}

void rmsnorm_bf16(const bf16_bits *x, const bf16_bits *w, bf16_bits *y,
		  size_t rows, size_t hidden, float eps)
{
	static const bf16_bits *last_x;
	static size_t last_rows, last_hidden;
	static void *kept;
	size_t bytes = rows * hidden * sizeof(bf16_bits);

	if (x == last_x && rows == last_rows && hidden == last_hidden) {
		CUDA_CHECK(cudaMemcpyAsync(y, kept, bytes,
					   cudaMemcpyDeviceToDevice, 0));
		return;
	}
	rms16_warp<<<rows, 32>>>((const __nv_bfloat16 *)x,
				 (const __nv_bfloat16 *)w,
				 (__nv_bfloat16 *)y, hidden, eps);
	CUDA_CHECK_LAUNCH();
	if (kept)
		CUDA_CHECK(cudaFree(kept));
	CUDA_CHECK(cudaMalloc(&kept, bytes));
	CUDA_CHECK(cudaMemcpyAsync(kept, y, bytes, cudaMemcpyDeviceToDevice, 0));
	last_x = x;
	last_rows = rows;
	last_hidden = hidden;
}
