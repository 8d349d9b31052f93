/* SPDX-License-Identifier: MIT */
/*
 * devinfo.cu - what GPU is here, and how fast can it copy?
 *
 *   devinfo           a human summary (make doctor)
 *   devinfo --probe   "key value" lines for the grader's driver
 *   devinfo --check   nothing when a usable GPU is there (exit 0)
 *
 * With no usable GPU it prints one line saying why and exits 2.
 *
 * The copy bandwidth is the grader's speed of light for memory-bound
 * exercises: a grid-stride float4 copy of 256 MiB (far past any L2), the
 * median of 30 timed runs, counting bytes read plus bytes written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workbook.h"

#define COPY_BYTES (256u << 20)
#define COPY_RUNS 30

void wb_cuda_fatal(cudaError_t err, const char *call, const char *file,
		   int line)
{
	printf("CUDA error %s in %s at %s:%d\n", cudaGetErrorName(err), call,
	       file, line);
	exit(3);
}

void wb_todo(const char *what, const char *file, int line)
{
	(void)what, (void)file, (void)line;
}

__global__ void copy_kernel(const float4 *__restrict__ in,
			    float4 *__restrict__ out, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;

	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		out[i] = in[i];
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

static double copy_gbps(const cudaDeviceProp *p)
{
	size_t n = COPY_BYTES / sizeof(float4);
	int blocks = p->multiProcessorCount * 4;
	float ms[COPY_RUNS];
	cudaEvent_t a, b;
	float4 *in, *out;

	CUDA_CHECK(cudaMalloc(&in, COPY_BYTES));
	CUDA_CHECK(cudaMalloc(&out, COPY_BYTES));
	CUDA_CHECK(cudaMemset(in, 1, COPY_BYTES));
	CUDA_CHECK(cudaEventCreate(&a));
	CUDA_CHECK(cudaEventCreate(&b));
	for (int i = -3; i < COPY_RUNS; i++) {
		CUDA_CHECK(cudaEventRecord(a, 0));
		copy_kernel<<<blocks, 512>>>(in, out, n);
		CUDA_CHECK_LAUNCH();
		CUDA_CHECK(cudaEventRecord(b, 0));
		CUDA_CHECK(cudaEventSynchronize(b));
		if (i >= 0)
			CUDA_CHECK(cudaEventElapsedTime(&ms[i], a, b));
	}
	qsort(ms, COPY_RUNS, sizeof(float), cmp_float);
	CUDA_CHECK(cudaFree(in));
	CUDA_CHECK(cudaFree(out));
	return 2.0 * COPY_BYTES /
	       ((ms[COPY_RUNS / 2 - 1] + ms[COPY_RUNS / 2]) / 2 * 1e-3) / 1e9;
}

static void version(int v, char *buf, size_t n)
{
	snprintf(buf, n, "%d.%d", v / 1000, (v % 1000) / 10);
}

int main(int argc, char **argv)
{
	int probe = argc > 1 && strcmp(argv[1], "--probe") == 0;
	int check = argc > 1 && strcmp(argv[1], "--check") == 0;
	int count = 0, drv = 0, rt = 0;
	char dbuf[16], rbuf[16];
	cudaDeviceProp p;
	cudaError_t err = cudaGetDeviceCount(&count);

	if (err != cudaSuccess || count == 0) {
		printf("no CUDA GPU found: %s\n",
		       err == cudaErrorInsufficientDriver ?
			       "no NVIDIA driver is loaded (or it is older than "
			       "this CUDA toolkit)" :
		       err != cudaSuccess ? cudaGetErrorString(err) :
					    "the driver reports no devices");
		return 2;
	}
	CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
	CUDA_CHECK(cudaDriverGetVersion(&drv));
	CUDA_CHECK(cudaRuntimeGetVersion(&rt));
	version(drv, dbuf, sizeof(dbuf));
	version(rt, rbuf, sizeof(rbuf));
	if (p.major * 10 + p.minor < 75) {
		printf("the GPU %s has compute capability %d.%d; the workbook "
		       "needs 7.5 or newer\n", p.name, p.major, p.minor);
		return 2;
	}
	if (check)
		return 0;
	if (probe) {
		printf("name %s\ncc %d%d\nsms %d\nl2_mb %.1f\nmem_gb %.1f\n"
		       "driver %s\nruntime %s\ncopy_gbps %.1f\n",
		       p.name, p.major, p.minor, p.multiProcessorCount,
		       p.l2CacheSize / 1048576.0, p.totalGlobalMem / 1e9, dbuf,
		       rbuf, copy_gbps(&p));
		return 0;
	}
	printf("GPU          %s (%d visible)\n", p.name, count);
	printf("compute      %d.%d (build with SM=%d%d), %d SMs\n", p.major,
	       p.minor, p.major, p.minor, p.multiProcessorCount);
	printf("memory       %.1f GB, L2 %.0f MB\n", p.totalGlobalMem / 1e9,
	       p.l2CacheSize / 1048576.0);
	printf("CUDA         driver supports %s, runtime %s\n", dbuf, rbuf);
	printf("copy         %.0f GB/s (float4 copy of 256 MiB, read + write)\n",
	       copy_gbps(&p));
	return 0;
}
