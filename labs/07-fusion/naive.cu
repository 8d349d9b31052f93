/* SPDX-License-Identifier: MIT */
/*
 * naive.cu - the naive references the grader times the submissions against.
 *
 * Each is what an eager framework launches when the operation is written
 * as separate tensor operations: one kernel per operation, every
 * intermediate written to global memory and read back by the next kernel.
 * The kernels themselves are reasonable (coalesced, one thread per element
 * or a block per row, warp shuffles for the row sums), so the speedup a
 * fused kernel earns comes from the passes over memory it saves:
 *
 *   gelu         9 elementwise kernels: 12 reads + 9 writes of n floats
 *   bias_gelu    a bias add, then the same 9: 13 reads + 10 writes
 *   add_rmsnorm  an in-place add, then a good RMSNorm: 5 passes, not 4
 *   softmax      row max, exp and row sum, divide: 5 passes, not 2
 */
#include <math.h>

#include "fusion.h"

#define NAIVE_THREADS 256     /* elementwise kernels and softmax's rows */
#define NAIVE_ROW_THREADS 512 /* RMSNorm: one block of 512 per row */
#define NAIVE_MAX_GRID_Y 65535u

/*
 * Device scratch for the intermediates (the eager sequences' temporaries,
 * softmax's row maxima and sums): static buffers, allocated with
 * cudaMalloc on first use and grown when a larger call comes. The grader
 * calls the naive code once, untimed, to check it at the benchmark size
 * before timing it, so no cudaMalloc (nor the cudaFree of an outgrown
 * buffer, which synchronises) lands in a timed sample. They are never
 * freed: the process ends after one exercise.
 */
#define NAIVE_SLOTS 3

static float *slot_buf[NAIVE_SLOTS];
static size_t slot_len[NAIVE_SLOTS];

static float *naive_scratch(int slot, size_t n)
{
	if (slot_len[slot] < n) {
		if (slot_buf[slot])
			CUDA_CHECK(cudaFree(slot_buf[slot]));
		CUDA_CHECK(cudaMalloc(&slot_buf[slot], n * sizeof(float)));
		slot_len[slot] = n;
	}
	return slot_buf[slot];
}

/* One thread per element: the grid that covers n. */
static unsigned int ew_blocks(size_t n)
{
	return (unsigned int)wb_ceil_div(n, NAIVE_THREADS);
}

/*
 * A grid of (column blocks, row strides) for kernels that need each
 * element's row: the row comes from blockIdx.y, not from a 64-bit
 * division per element. Rows beyond 65535 are strided over.
 */
static dim3 row_grid(size_t rows, size_t cols)
{
	size_t gy = rows < NAIVE_MAX_GRID_Y ? rows : NAIVE_MAX_GRID_Y;

	return dim3((unsigned int)wb_ceil_div(cols, NAIVE_THREADS),
		    (unsigned int)gy);
}

/* ---- elementwise kernels: one operator each ---- */

static __global__ void naive_mul(const float *a, const float *b,
				 float *out, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = a[i] * b[i];
}

static __global__ void naive_add(const float *a, const float *b,
				 float *out, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = a[i] + b[i];
}

/* out = s * a */
static __global__ void naive_scale(const float *a, float s, float *out,
				   size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = s * a[i];
}

/* out = s + a */
static __global__ void naive_add_scalar(const float *a, float s,
					float *out, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = s + a[i];
}

static __global__ void naive_tanh(const float *a, float *out, size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = tanhf(a[i]);
}

/*
 * GeLU as nine tensor operations, the way eager PyTorch runs
 * 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3))):
 * t and u are full-size temporaries in global memory.
 */
static void eager_gelu(const float *x, float *y, size_t n)
{
	float *t = naive_scratch(0, n), *u = naive_scratch(1, n);
	unsigned int b = ew_blocks(n), k = NAIVE_THREADS;

	/* t = x * x;  t = t * x;  t = 0.044715 * t;  t = x + t */
	naive_mul<<<b, k>>>(x, x, t, n);
	CUDA_CHECK_LAUNCH();
	naive_mul<<<b, k>>>(t, x, t, n);
	CUDA_CHECK_LAUNCH();
	naive_scale<<<b, k>>>(t, 0.044715f, t, n);
	CUDA_CHECK_LAUNCH();
	naive_add<<<b, k>>>(x, t, t, n);
	CUDA_CHECK_LAUNCH();
	/* t = sqrt(2/pi) * t;  t = tanh(t);  t = 1 + t */
	naive_scale<<<b, k>>>(t, 0.7978845608f, t, n);
	CUDA_CHECK_LAUNCH();
	naive_tanh<<<b, k>>>(t, t, n);
	CUDA_CHECK_LAUNCH();
	naive_add_scalar<<<b, k>>>(t, 1.0f, t, n);
	CUDA_CHECK_LAUNCH();
	/* u = 0.5 * x;  y = u * t */
	naive_scale<<<b, k>>>(x, 0.5f, u, n);
	CUDA_CHECK_LAUNCH();
	naive_mul<<<b, k>>>(u, t, y, n);
	CUDA_CHECK_LAUNCH();
}

void naive_gelu(const float *x, float *y, size_t n)
{
	eager_gelu(x, y, n);
}

/* ---- bias_gelu: a broadcast add, then the eager GeLU ---- */

static __global__ void naive_bias_add(const float *x, const float *b,
				      float *out, size_t rows, size_t cols)
{
	size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (c >= cols)
		return;
	for (size_t r = blockIdx.y; r < rows; r += gridDim.y)
		out[r * cols + c] = x[r * cols + c] + b[c];
}

void naive_bias_gelu(const float *x, const float *b, float *y, size_t rows,
		     size_t cols)
{
	float *h = naive_scratch(2, rows * cols);

	naive_bias_add<<<row_grid(rows, cols), NAIVE_THREADS>>>(x, b, h, rows,
								cols);
	CUDA_CHECK_LAUNCH();
	eager_gelu(h, y, rows * cols);
}

/* ---- block reductions (blockDim a multiple of 32, at most 1024) ---- */

static __device__ float naive_warp_sum(float v)
{
	for (int offset = 16; offset > 0; offset /= 2)
		v += __shfl_down_sync(0xffffffffu, v, offset);
	return v;
}

static __device__ float naive_warp_max(float v)
{
	for (int offset = 16; offset > 0; offset /= 2)
		v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, offset));
	return v;
}

/*
 * The block's total in every thread: warps reduce with shuffles, warp 0
 * reduces their results and publishes the total in shared memory. The
 * second barrier makes the total visible to all before anyone reads it.
 */
static __device__ float naive_block_sum(float v)
{
	__shared__ float partial[32];
	__shared__ float total;
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	v = naive_warp_sum(v);
	if (lane == 0)
		partial[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < blockDim.x / 32 ? partial[lane] : 0.0f;
		v = naive_warp_sum(v);
		if (lane == 0)
			total = v;
	}
	__syncthreads();
	return total;
}

static __device__ float naive_block_max(float v)
{
	__shared__ float partial[32];
	__shared__ float total;
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

	v = naive_warp_max(v);
	if (lane == 0)
		partial[warp] = v;
	__syncthreads();
	if (warp == 0) {
		v = lane < blockDim.x / 32 ? partial[lane] : -INFINITY;
		v = naive_warp_max(v);
		if (lane == 0)
			total = v;
	}
	__syncthreads();
	return total;
}

/* ---- add_rmsnorm: an add, then a good RMSNorm ---- */

/* residual += x, one thread per element. */
static __global__ void naive_add_inplace(float *residual, const float *x,
					 size_t n)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		residual[i] += x[i];
}

/*
 * One block of 512 per row: the sum of squares (float4 loads when rows
 * are 16-byte aligned), a block sum with shuffles, then a second read of
 * the row (from L1/L2: the block read it moments ago) for the output.
 */
static __global__ void __launch_bounds__(NAIVE_ROW_THREADS)
naive_rmsnorm_kernel(const float *h, const float *w, float *y,
		     size_t hidden, float eps)
{
	const float *hr = h + (size_t)blockIdx.x * hidden;
	float *yr = y + (size_t)blockIdx.x * hidden;
	const float4 *h4 = (const float4 *)hr, *w4 = (const float4 *)w;
	float4 *y4 = (float4 *)yr;
	int vec = hidden % 4 == 0;
	size_t n4 = hidden / 4;
	float ss = 0.0f, scale;

	if (vec) {
		for (size_t i = threadIdx.x; i < n4; i += blockDim.x) {
			float4 v = h4[i];

			ss += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
		}
	} else {
		for (size_t i = threadIdx.x; i < hidden; i += blockDim.x)
			ss += hr[i] * hr[i];
	}
	/* Outside the branches: every thread of the block reaches it. */
	scale = rsqrtf(naive_block_sum(ss) / (float)hidden + eps);
	if (vec) {
		for (size_t i = threadIdx.x; i < n4; i += blockDim.x) {
			float4 v = h4[i], g = w4[i];

			y4[i] = make_float4(v.x * scale * g.x,
					    v.y * scale * g.y,
					    v.z * scale * g.z,
					    v.w * scale * g.w);
		}
	} else {
		for (size_t i = threadIdx.x; i < hidden; i += blockDim.x)
			yr[i] = hr[i] * scale * w[i];
	}
}

void naive_add_rmsnorm(const float *x, float *residual, const float *w,
		       float *y, size_t rows, size_t hidden, float eps)
{
	size_t n = rows * hidden;

	naive_add_inplace<<<ew_blocks(n), NAIVE_THREADS>>>(residual, x, n);
	CUDA_CHECK_LAUNCH();
	naive_rmsnorm_kernel<<<(unsigned int)rows, NAIVE_ROW_THREADS>>>(
		residual, w, y, hidden, eps);
	CUDA_CHECK_LAUNCH();
}

/* ---- softmax: three kernels ---- */

/* (a) Row maxima, one block per row. */
static __global__ void naive_row_max(const float *x, size_t cols,
				     float *maxes)
{
	const float *xr = x + (size_t)blockIdx.x * cols;
	float m = -INFINITY;

	for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
		m = fmaxf(m, xr[c]);
	m = naive_block_max(m);
	if (threadIdx.x == 0)
		maxes[blockIdx.x] = m;
}

/* (b) y = exp(x - max) and the row sums, one block per row. */
static __global__ void naive_exp_sum(const float *x, float *y, size_t cols,
				     const float *maxes, float *sums)
{
	const float *xr = x + (size_t)blockIdx.x * cols;
	float *yr = y + (size_t)blockIdx.x * cols;
	float m = maxes[blockIdx.x], s = 0.0f;

	for (size_t c = threadIdx.x; c < cols; c += blockDim.x) {
		float e = expf(xr[c] - m);

		yr[c] = e;
		s += e;
	}
	s = naive_block_sum(s);
	if (threadIdx.x == 0)
		sums[blockIdx.x] = s;
}

/* (c) y /= the row's sum, elementwise. */
static __global__ void naive_divide(float *y, const float *sums,
				    size_t rows, size_t cols)
{
	size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (c >= cols)
		return;
	for (size_t r = blockIdx.y; r < rows; r += gridDim.y)
		y[r * cols + c] /= sums[r];
}

void naive_softmax(const float *x, float *y, size_t rows, size_t cols)
{
	float *maxes = naive_scratch(0, rows), *sums = naive_scratch(1, rows);

	naive_row_max<<<(unsigned int)rows, NAIVE_THREADS>>>(x, cols, maxes);
	CUDA_CHECK_LAUNCH();
	naive_exp_sum<<<(unsigned int)rows, NAIVE_THREADS>>>(x, y, cols, maxes,
							    sums);
	CUDA_CHECK_LAUNCH();
	naive_divide<<<row_grid(rows, cols), NAIVE_THREADS>>>(y, sums, rows,
							      cols);
	CUDA_CHECK_LAUNCH();
}
