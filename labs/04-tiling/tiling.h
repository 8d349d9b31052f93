/* SPDX-License-Identifier: MIT */
/*
 * tiling.h - the entry points of lab 04 (shared-memory tiling).
 *
 * Two kernels whose threads need each other's data: a transpose (every
 * element changes place) and a matrix multiply (every input is used many
 * times). Each exercise file defines one of these host functions; the
 * grader calls it with device pointers (256-byte aligned, from cudaMalloc)
 * and waits for the device afterwards. Launch on the default stream and choose grid,
 * block and shared memory inside: everything launched counts in the time.
 *
 * Matrices are row-major and contiguous: row r of a matrix with `cols`
 * columns starts at element r * cols, so rows are 16-byte aligned only
 * when cols % 4 == 0. Every extent is between 1 and 1,000,000 and every
 * matrix has fewer than 2^31 elements.
 */
#ifndef TILING_H
#define TILING_H

#include <stddef.h>
#include "workbook.h"

#ifdef __cplusplus
extern "C" {
#endif

/* b = a^T: a is rows x cols, b is cols x rows; b[c][r] = a[r][c]. */
void transpose(const float *a, float *b, size_t rows, size_t cols);

/*
 * c = a b in float32: a is m x k, b is k x n, c is m x n;
 *     c[i][j] = sum over p < k of a[i][p] * b[p][j].
 * No cuBLAS (or other library GEMM), no tensor cores, no TF32.
 */
void matmul(const float *a, const float *b, float *c, size_t m, size_t k,
	    size_t n);

/*
 * Exercise 3, roofline: a kernel of this lab, as the roofline model sees
 * it. op is ROOF_MATMUL (c = a b, a m x k, b k x n) or ROOF_TRANSPOSE
 * (a m x n into b n x m; k unused). A matmul block computes a tile_m x
 * tile_n tile of c, loading every row of a and column of b its tile
 * needs, k deep, from global memory; tile 1 x 1 is naive.cu's thread per
 * element of c. Every extent and tile is at least 1.
 */
enum { ROOF_MATMUL, ROOF_TRANSPOSE };

struct roof_kernel {
	int op;
	unsigned long long m, k, n;
	unsigned long long tile_m, tile_n;
};

/* A GPU's two roofs: fp32 peak (GFLOP/s) and memory bandwidth (GB/s). */
struct roof_gpu {
	double peak_gflops;
	double bw_gbps;
};

/* What you predict for one kernel on one GPU. */
struct roof_pred {
	double flops;      /* floating-point operations (an FMA is 2) */
	double bytes;      /* bytes loaded from and stored to global memory */
	double intensity;  /* flops per byte */
	int compute_bound; /* 1 right of the ridge, 0 left of it */
	double time_us;    /* the roofline's least time, microseconds */
	double gflops;     /* attainable GFLOP/s: flops over that time */
};

void roofline(const struct roof_kernel *k, const struct roof_gpu *g,
	      struct roof_pred *p);

/*
 * Exercise 4, peak: a GPU's two roofs from what its driver reports
 * (README, section 12), and where a kernel of a given intensity sits
 * under them. Host code: no GPU, no CUDA call.
 */
struct peak_gpu {
	int cc;               /* compute capability x 10: 70, 75, 80, 86, 89,
			       * 90 or 120 */
	int sms;              /* multiprocessors, at least 1 */
	double clock_mhz;     /* the highest SM clock */
	double mem_clock_mhz; /* the memory clock */
	int bus_bits;         /* the memory bus width, in bits */
};

struct peak_pred {
	int lanes;            /* FP32 lanes per SM */
	double peak_gflops;   /* FP32 peak: a fused multiply-add a lane a clock */
	double bw_gbps;       /* memory bandwidth, GB/s (10^9 bytes) */
	double ridge;         /* flop/B where the two roofs meet */
	double gflops;        /* attainable at the given intensity */
	double fp64_gflops;   /* FP64 peak */
};

void peak(const struct peak_gpu *g, double intensity, struct peak_pred *p);

/*
 * Exercise 5, constant: one warp-wide read of a __constant__ table of
 * 4-byte elements (README, section 13). Active lane t, 0 <= t < lanes,
 * reads element
 *     (base + (t / group) * step) mod entries
 * (the remainder from 0 to entries - 1, also where base + (t / group)
 * step is negative) of a table of `entries` elements whose first byte is
 * 256-byte aligned. Host code: no GPU, no CUDA call.
 */
struct const_read {
	long long base;  /* 0 to 2^40 */
	long long step;  /* elements between groups: 0, positive or negative,
			  * |step| < 2^40 */
	int group;       /* neighbouring lanes that share an index: 1 to 32 */
	int entries;     /* the table's elements: 1 to 16384 (64 KB) */
	int lanes;       /* active lanes 0 .. lanes-1: 1 to 32 */
};

struct const_pred {
	int passes;           /* the constant cache's passes for this read */
	int sectors;          /* the same read as a global load: the 32-byte
			       * sectors its request touches (lab 03) */
	double random_passes; /* the passes expected were every active lane
			       * to read an entry drawn uniformly at random */
};

void constant_passes(const struct const_read *r, struct const_pred *p);

/* The naive references the grader times against (naive.cu). */
void naive_transpose(const float *a, float *b, size_t rows, size_t cols);
void naive_matmul(const float *a, const float *b, float *c, size_t m,
		  size_t k, size_t n);

/*
 * Library peers (peers.cu), cuBLAS: cublasSgeam for the transpose and
 * cublasSgemm in fp32 with pedantic math (no TF32) for the multiply.
 * make bench shows both; matmul's is also timed when grading, so the
 * report gives your TFLOP/s as a share of cuBLAS's, measured in the same
 * run. Not for students to call.
 */
void peer_transpose(const float *a, float *b, size_t rows, size_t cols);
void peer_matmul(const float *a, const float *b, float *c, size_t m,
		 size_t k, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* TILING_H */
