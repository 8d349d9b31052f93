/* SPDX-License-Identifier: MIT */
/*
 * A fixture for tests/unit/test_inspect.c: what honest launchers in the
 * style of public repositories use, all in one file, none of which may
 * cost it: std::vector, std::sort and std::min in the host code, malloc
 * and free, printf and fprintf(stderr); streams and events of its own; a
 * graph by stream capture and one by explicit nodes; a cooperative launch
 * with a grid barrier; cudaLaunchKernelEx with an attribute; dynamic
 * shared memory raised with cudaFuncSetAttribute; the occupancy API;
 * cudaMalloc and cudaMallocAsync; device printf, assert and an inline PTX
 * instruction of its own. Its audit line names every unusual feature.
 */
#include <algorithm>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#include <cooperative_groups.h>

#include "reduction.h"

namespace cg = cooperative_groups;

static __device__ unsigned int lane_id(void)
{
	unsigned int lane;

	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	return lane;
}

static __global__ void scale(float *x, size_t n, float s)
{
	extern __shared__ float buf[];
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	assert(blockDim.x <= 1024);
	buf[threadIdx.x] = i < n ? x[i] * s : 0.0f;
	__syncthreads();
	if (i < n)
		x[i] = buf[threadIdx.x];
	if (i == 0 && n == 0)
		printf("lane %u\n", lane_id());
}

static __global__ void grid_sum(const float *in, size_t n, float *out)
{
	cg::grid_group grid = cg::this_grid();

	if (grid.thread_rank() == 0)
		*out = 0.0f;
	grid.sync();
	for (size_t i = grid.thread_rank(); i < n; i += grid.size())
		atomicAdd(out, in[i]);
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	std::vector<int> sizes = { 512, 128, 256 };
	cudaStream_t s;
	cudaEvent_t e;
	cudaGraph_t g, g2;
	cudaGraphExec_t ge, ge2;
	cudaGraphNode_t node;
	cudaKernelNodeParams kp = {};
	cudaLaunchConfig_t cfg = {};
	cudaLaunchAttribute attr;
	float *tmp, *tmp2, *host = (float *)malloc(sizeof(float));
	float two = 2.0f;
	int min_grid, block, threads;
	void *args[] = { &in, &n, &out };
	void *kargs[] = { &tmp, &n, &two };

	std::sort(sizes.begin(), sizes.end());
	threads = std::min(sizes.back(), 1024);
	CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, grid_sum));
	CUDA_CHECK(cudaFuncSetAttribute(scale,
					cudaFuncAttributeMaxDynamicSharedMemorySize,
					threads * (int)sizeof(float)));
	CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CUDA_CHECK(cudaEventCreate(&e));
	CUDA_CHECK(cudaMalloc(&tmp, n * sizeof(float)));
	CUDA_CHECK(cudaMallocAsync((void **)&tmp2, n * sizeof(float), s));
	CUDA_CHECK(cudaMemcpyAsync(tmp, in, n * sizeof(float),
				   cudaMemcpyDeviceToDevice, s));
	/* a graph by capture */
	CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
	scale<<<wb_ceil_div(n, threads), threads, threads * sizeof(float), s>>>(
		tmp, n, 0.5f);
	CUDA_CHECK(cudaStreamEndCapture(s, &g));
	CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
	CUDA_CHECK(cudaGraphLaunch(ge, s));
	/* a graph by explicit nodes */
	kp.func = (void *)scale;
	kp.gridDim = dim3((unsigned int)wb_ceil_div(n, threads));
	kp.blockDim = dim3(threads);
	kp.sharedMemBytes = threads * sizeof(float);
	kp.kernelParams = kargs;
	CUDA_CHECK(cudaGraphCreate(&g2, 0));
	CUDA_CHECK(cudaGraphAddKernelNode(&node, g2, NULL, 0, &kp));
	CUDA_CHECK(cudaGraphInstantiate(&ge2, g2, 0));
	CUDA_CHECK(cudaGraphLaunch(ge2, s));
	/* cudaLaunchKernelEx with an attribute */
	cfg.gridDim = dim3((unsigned int)wb_ceil_div(n, threads));
	cfg.blockDim = dim3(threads);
	cfg.dynamicSmemBytes = threads * sizeof(float);
	cfg.stream = s;
	attr.id = cudaLaunchAttributePriority;
	attr.val.priority = 0;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	CUDA_CHECK(cudaLaunchKernelEx(&cfg, scale, tmp, n, 2.0f));
	CUDA_CHECK(cudaEventRecord(e, s));
	CUDA_CHECK(cudaStreamWaitEvent(0, e, 0));
	/* a cooperative launch with a grid barrier */
	CUDA_CHECK(cudaLaunchCooperativeKernel((void *)grid_sum, min_grid, block,
					       args, 0, 0));
	CUDA_CHECK(cudaFreeAsync(tmp2, s));
	CUDA_CHECK(cudaStreamSynchronize(s));
	CUDA_CHECK(cudaGraphExecDestroy(ge));
	CUDA_CHECK(cudaGraphExecDestroy(ge2));
	CUDA_CHECK(cudaGraphDestroy(g));
	CUDA_CHECK(cudaGraphDestroy(g2));
	CUDA_CHECK(cudaFree(tmp));
	CUDA_CHECK(cudaEventDestroy(e));
	CUDA_CHECK(cudaStreamDestroy(s));
	if (!host) {
		fprintf(stderr, "out of memory\n");
		abort();
	}
	free(host);
	printf("sum of %zu with %p\n", n, work);
}
