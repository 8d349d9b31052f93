/* SPDX-License-Identifier: MIT */
/*
 * Gaming the timer on purpose: GeLU half fused, in two kernels (five
 * passes over memory instead of two), launched on a stream that does not
 * wait for the default stream, returning at once. CUDA events on the
 * default stream alone would time almost nothing; the grader's tail event
 * after a device-wide synchronisation counts both kernels.
 * Expected verdict: PASS, under the speed of light (share < 1: what these
 * two kernels earn on the default stream), not the thousandfold speedup
 * of untimed work; or SUSPICIOUS, where the GPU runs the small shape's
 * side work (1 MiB) in less than the tail's noise floor (5 us on an
 * H100): that shape alone then measures far above its speed of light.
 */
#include "fusion.h"

#define THREADS 256

/* Kernel 1: the polynomial inside tanh, t = x + 0.044715 x^3, into y. */
static __global__ void gelu_inner(const float *x, float *y, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = x[i] + 0.044715f * x[i] * x[i] * x[i];
}

/* Kernel 2: y = 0.5 x (1 + tanh(sqrt(2/pi) t)), reading x and t again. */
static __global__ void gelu_outer(const float *x, float *y, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = 0.5f * x[i] * (1.0f + tanhf(0.7978845608f * y[i]));
}

void gelu(const float *x, float *y, size_t n)
{
	static cudaStream_t side;
	size_t blocks = wb_ceil_div(n, THREADS);

	if (!side)
		CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
	gelu_inner<<<blocks, THREADS, 0, side>>>(x, y, n);
	CUDA_CHECK_LAUNCH();
	gelu_outer<<<blocks, THREADS, 0, side>>>(x, y, n);
	CUDA_CHECK_LAUNCH();
}
