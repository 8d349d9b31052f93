/* SPDX-License-Identifier: MIT */
/*
 * fusion.h - the entry points of lab 07 (kernel fusion).
 *
 * Four memory-bound operations that an eager framework runs as several
 * kernels, each writing its intermediate to global memory for the next to
 * read back, and a count of the bytes such chains move (passes). Each
 * exercise file defines one of these host functions; the grader calls
 * the four operations with device pointers (256-byte aligned, from
 * cudaMalloc) and waits for the device afterwards. Launch on the default
 * stream and choose grid, block and shared memory inside: everything
 * launched counts in the time. Matrices are row-major and contiguous:
 * row r of a matrix with `cols` columns starts at element r * cols, so
 * rows are 16-byte aligned only when cols % 4 == 0. Every array has fewer
 * than 2^31 elements: no size the grader can check reaches 2^31 elements
 * on the GPUs students have; 32-bit element indices are enough.
 */
#ifndef FUSION_H
#define FUSION_H

#include <stddef.h>
#include "workbook.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * GeLU, tanh form, elementwise over n floats (1 <= n < 2^31):
 *     y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
 */
void gelu(const float *x, float *y, size_t n);

/*
 * y[r][c] = gelu(x[r][c] + b[c]); rows, cols >= 1, rows * cols < 2^31;
 * b has cols floats.
 */
void bias_gelu(const float *x, const float *b, float *y, size_t rows,
	       size_t cols);

/*
 * The residual add and RMSNorm of a transformer block, per row of hidden
 * floats (rows >= 1, 1 <= hidden <= 16384, rows * hidden < 2^31,
 * eps > 0):
 *     h = x + residual, written back into residual (in place)
 *     y = h / sqrt(mean(h^2) + eps) * w
 */
void add_rmsnorm(const float *x, float *residual, const float *w, float *y,
		 size_t rows, size_t hidden, float eps);

/*
 * Row softmax, numerically stable; rows, cols >= 1, rows * cols < 2^31;
 * x finite:
 *     y[r][c] = exp(x[r][c] - m) / sum_j exp(x[r][j] - m),  m = max_j x[r][j]
 */
void softmax(const float *x, float *y, size_t rows, size_t cols);

/*
 * The passes exercise: a chain of kernels, in launch order, over float
 * buffers 0 .. nbufs-1. Kernel i reads the buffers k[i].in (each listed
 * once) and then writes the buffers k[i].out (each listed once; a buffer
 * may be both, for an update in place). result[b] is 1 for the buffers
 * the operation must leave in memory, each written by some kernel.
 */
#define CHAIN_MAX_BUFS 12
#define CHAIN_MAX_KERNELS 12
#define KERNEL_MAX_ARGS 4

struct chain_kernel {
	int nin, nout;              /* 0 to KERNEL_MAX_ARGS each */
	int in[KERNEL_MAX_ARGS];    /* buffers read */
	int out[KERNEL_MAX_ARGS];   /* buffers written */
};

struct chain {
	int nbufs, nkernels;                    /* 1 to the maxima above */
	unsigned long long floats[CHAIN_MAX_BUFS]; /* each buffer's size */
	int result[CHAIN_MAX_BUFS];
	struct chain_kernel k[CHAIN_MAX_KERNELS];
};

/* Bytes read from and written to global memory. */
struct chain_bytes {
	unsigned long long read, write;
};

/*
 * The passes exercise: the bytes the chain moves run eagerly (each kernel
 * reads every buffer it lists and writes every buffer it lists, whole)
 * and fused into one kernel (each buffer read from memory at most once,
 * only if its first use is a read; each result written once; nothing
 * else touches memory). Host code: no GPU, no CUDA call.
 */
void chain_traffic(const struct chain *ch, struct chain_bytes *eager,
		   struct chain_bytes *fused);

/*
 * The naive references the grader times against (naive.cu): the eager
 * kernel sequences, one kernel per operation.
 */
void naive_gelu(const float *x, float *y, size_t n);
void naive_bias_gelu(const float *x, const float *b, float *y, size_t rows,
		     size_t cols);
void naive_add_rmsnorm(const float *x, float *residual, const float *w,
		       float *y, size_t rows, size_t hidden, float eps);
void naive_softmax(const float *x, float *y, size_t rows, size_t cols);

#ifdef __cplusplus
}
#endif

#endif /* FUSION_H */
