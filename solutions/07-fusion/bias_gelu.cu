/* SPDX-License-Identifier: MIT */
/*
 * Lab 07, exercise 2: bias_gelu - a solution.
 *
 * What it changes from the naive's bias add and nine GeLU kernels, and why:
 *  - One kernel: x is read once, x + b and the GeLU stay in registers, y is
 *    written once. 23 passes over memory become 2.
 *  - A 2-D grid: blockIdx.x picks a stretch of columns (groups of 4),
 *    blockIdx.y a first row, and each block strides down the rows. A
 *    thread's columns never change, so it loads its bias once, into a
 *    register, and no thread divides a flat index to find its column.
 *  - float4 loads and stores when cols % 4 == 0 (the only case in which
 *    rows are 16-byte aligned), four rows' loads in flight before any
 *    arithmetic; otherwise the same groups of 4 go through scalar loads.
 *  - One wave of blocks (from the occupancy calculator), spread over the
 *    rows: enough threads to fill the GPU, each with many rows.
 */
#include "fusion.h"

#define BG_THREADS 256
#define BG_UNROLL 4
#define BG_MAX_GRID_Y 65535u

static __device__ float gelu1(float x)
{
	const float k0 = 0.7978845608f; /* sqrt(2 / pi) */
	const float k1 = 0.044715f;

	return 0.5f * x * (1.0f + tanhf(k0 * (x + k1 * x * x * x)));
}

/* gelu(v + b), elementwise. */
static __device__ float4 bias_gelu4(float4 v, float4 b)
{
	return make_float4(gelu1(v.x + b.x), gelu1(v.y + b.y),
			   gelu1(v.z + b.z), gelu1(v.w + b.w));
}

/*
 * Elements 4g .. 4g+3 of a row of n floats, 4g < n. vec: the row is
 * 16-byte aligned and n % 4 == 0, so one float4 load; otherwise scalar
 * loads, with 0 past the end of the row.
 */
static __device__ float4 load_group(const float *p, size_t g, size_t n,
				    int vec)
{
	size_t i = 4 * g;

	if (vec)
		return ((const float4 *)p)[g];
	return make_float4(p[i], i + 1 < n ? p[i + 1] : 0.0f,
			   i + 2 < n ? p[i + 2] : 0.0f,
			   i + 3 < n ? p[i + 3] : 0.0f);
}

/* Store elements 4g .. 4g+3 of a row of n floats, those below n. */
static __device__ void store_group(float *p, size_t g, size_t n, int vec,
				   float4 v)
{
	size_t i = 4 * g;

	if (vec) {
		((float4 *)p)[g] = v;
		return;
	}
	p[i] = v.x;
	if (i + 1 < n)
		p[i + 1] = v.y;
	if (i + 2 < n)
		p[i + 2] = v.z;
	if (i + 3 < n)
		p[i + 3] = v.w;
}

/*
 * The kernel's body. The kernels below call it with vec a constant, so
 * each is compiled for one case, with no branch around its loads.
 */
static __device__ __forceinline__ void
bias_gelu_rows(const float *__restrict__ x, const float *__restrict__ b,
	       float *__restrict__ y, size_t rows, size_t cols, int vec)
{
	size_t groups = (cols + 3) / 4, step = gridDim.y, r = blockIdx.y;
	size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	float4 bias;

	if (g >= groups)
		return; /* no barrier follows */
	bias = load_group(b, g, cols, vec);
	for (; r + (BG_UNROLL - 1) * step < rows; r += BG_UNROLL * step) {
		float4 v[BG_UNROLL];

#pragma unroll
		for (int u = 0; u < BG_UNROLL; u++)
			v[u] = load_group(x + (r + u * step) * cols, g, cols,
					  vec);
#pragma unroll
		for (int u = 0; u < BG_UNROLL; u++)
			store_group(y + (r + u * step) * cols, g, cols, vec,
				    bias_gelu4(v[u], bias));
	}
	for (; r < rows; r += step)
		store_group(y + r * cols, g, cols, vec,
			    bias_gelu4(load_group(x + r * cols, g, cols, vec),
				       bias));
}

/* Rows 16-byte aligned (cols % 4 == 0): float4 loads and stores. */
static __global__ void __launch_bounds__(BG_THREADS)
bias_gelu_vec(const float *__restrict__ x, const float *__restrict__ b,
	      float *__restrict__ y, size_t rows, size_t cols)
{
	bias_gelu_rows(x, b, y, rows, cols, 1);
}

/* Any cols: the same groups of 4, through scalar loads and stores. */
static __global__ void __launch_bounds__(BG_THREADS)
bias_gelu_scalar(const float *__restrict__ x, const float *__restrict__ b,
		 float *__restrict__ y, size_t rows, size_t cols)
{
	bias_gelu_rows(x, b, y, rows, cols, 0);
}

/* Blocks of the kernel that fit on the whole GPU at once. */
static size_t one_wave(void)
{
	static size_t wave;

	if (!wave) {
		int dev, sms, per_sm;

		CUDA_CHECK(cudaGetDevice(&dev));
		CUDA_CHECK(cudaDeviceGetAttribute(
			&sms, cudaDevAttrMultiProcessorCount, dev));
		CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&per_sm, bias_gelu_vec, BG_THREADS, 0));
		wave = (size_t)sms * (per_sm > 0 ? per_sm : 1);
	}
	return wave;
}

void bias_gelu(const float *x, const float *b, float *y, size_t rows,
	       size_t cols)
{
	size_t gx = wb_ceil_div(wb_ceil_div(cols, 4), BG_THREADS);
	size_t gy = wb_ceil_div(one_wave(), gx);
	dim3 grid;

	/* A wave's worth of blocks, but no more block-rows than rows. */
	gy = gy < rows ? gy : rows;
	gy = gy < BG_MAX_GRID_Y ? gy : BG_MAX_GRID_Y;
	grid = dim3((unsigned int)gx, (unsigned int)gy);
	if (cols % 4 == 0)
		bias_gelu_vec<<<grid, BG_THREADS>>>(x, b, y, rows, cols);
	else
		bias_gelu_scalar<<<grid, BG_THREADS>>>(x, b, y, rows, cols);
	CUDA_CHECK_LAUNCH();
}
