/* SPDX-License-Identifier: MIT */
/*
 * Honest on purpose (tests/honest): the GeLU kernel launched through a
 * CUDA graph, as code that amortises launch overhead does. The first call
 * (and any call with other pointers or another n) captures the launch on a
 * stream of the file's own into a graph and instantiates it; every call
 * launches the instantiated graph on the default stream, so it runs in
 * order with the grader's work and computes afresh each time. Expected:
 * PASS; statically BUILT, technique ok.
 */
#include "fusion.h"

#define THREADS 256
#define UNROLL 4

static __device__ float gelu1(float x)
{
	const float k0 = 0.7978845608f; /* sqrt(2 / pi) */
	const float k1 = 0.044715f;

	return 0.5f * x * (1.0f + tanhf(k0 * (x + k1 * x * x * x)));
}

static __global__ void __launch_bounds__(THREADS)
gelu_kernel(const float *__restrict__ x, float *__restrict__ y, size_t n)
{
	size_t stride = (size_t)gridDim.x * THREADS;
	size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x;
	const float4 *x4 = reinterpret_cast<const float4 *>(x);
	float4 *y4 = reinterpret_cast<float4 *>(y);

	for (; i < n / 4; i += stride) {
		float4 v = x4[i];

		y4[i] = make_float4(gelu1(v.x), gelu1(v.y), gelu1(v.z),
				    gelu1(v.w));
	}
	if (blockIdx.x == 0 && threadIdx.x < n % 4)
		y[n / 4 * 4 + threadIdx.x] = gelu1(x[n / 4 * 4 + threadIdx.x]);
}

/* The captured launch, and what it was captured for. */
static struct {
	cudaStream_t stream;
	cudaGraphExec_t exec;
	const float *x;
	float *y;
	size_t n;
} g;

static void capture(const float *x, float *y, size_t n)
{
	size_t blocks = wb_ceil_div(n / 4, THREADS);
	cudaGraph_t graph;

	if (!g.stream)
		CUDA_CHECK(cudaStreamCreateWithFlags(&g.stream,
						     cudaStreamNonBlocking));
	if (g.exec)
		CUDA_CHECK(cudaGraphExecDestroy(g.exec));
	if (blocks > 65535)
		blocks = 65535;
	CUDA_CHECK(cudaStreamBeginCapture(g.stream,
					  cudaStreamCaptureModeThreadLocal));
	gelu_kernel<<<blocks ? blocks : 1, THREADS, 0, g.stream>>>(x, y, n);
	CUDA_CHECK(cudaStreamEndCapture(g.stream, &graph));
	CUDA_CHECK(cudaGraphInstantiate(&g.exec, graph, 0));
	CUDA_CHECK(cudaGraphDestroy(graph));
	g.x = x;
	g.y = y;
	g.n = n;
}

void gelu(const float *x, float *y, size_t n)
{
	if (!g.exec || g.x != x || g.y != y || g.n != n)
		capture(x, y, n);
	CUDA_CHECK(cudaGraphLaunch(g.exec, 0));
}
