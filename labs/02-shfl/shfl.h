/* SPDX-License-Identifier: MIT */
/*
 * shfl.h - the entry points of lab 02 (warp shuffle).
 *
 * Each exercise file defines one of these host functions; the grader calls
 * it with device pointers (256-byte aligned, from cudaMalloc) and waits for
 * the device afterwards. Launch on the default stream and choose grid,
 * block and shared memory inside (except for neighbors, whose block shape
 * is the exercise): everything launched, memsets included, counts in the
 * time.
 *
 * A block's threads are numbered x fastest, then y, then z:
 *
 *     t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)
 *
 * and cut into warps of 32: thread t is lane t % 32 of warp t / 32. A block
 * whose size is not a multiple of 32 ends with a partial warp, whose
 * missing lanes do not exist at all.
 *
 * n < 2^31 everywhere: no size the grader can check reaches 2^31 elements
 * on the GPUs students have; 32-bit element indices are enough.
 */
#ifndef SHFL_H
#define SHFL_H

#include <stddef.h>
#include "workbook.h"

/* The segment length of segment_sum and segment_scan: one warp's worth. */
#define SHFL_SEG 32

/* Values per output entry of neighbors: the (x, y, z) of one lane. */
#define NEIGHBORS_COORDS 3

/*
 * Scratch device memory handed to filter: FILTER_WORK_BYTES, 256-byte
 * aligned, contents undefined on entry (the grader poisons it).
 */
#define FILTER_WORK_BYTES (16u << 20)

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Launch ONE block of bx x by x bz threads (at most 1024). The thread with
 * linear index t (above) fills out[t][j][0..2] (out[(t * 32 + j) * 3 + c])
 * for j = 0 .. 31 with the (threadIdx.x, threadIdx.y, threadIdx.z) of lane
 * j of its own warp, collected with __shfl_sync, or with -1, -1, -1 when
 * its warp is partial and has no lane j. For the seed's 8x8x8 block that is
 * an array of shape (8, 8, 8, 32, 3) indexed [z][y][x][lane][coordinate].
 */
void neighbors(int *out, unsigned int bx, unsigned int by, unsigned int bz);

/*
 * out[s] = in[32 s] + in[32 s + 1] + ... + in[min(32 s + 31, n - 1)] for
 * s = 0 .. ceil(n / 32) - 1; the last segment is partial when n % 32 != 0.
 * 1 <= n < 2^31.
 */
void segment_sum(const float *in, size_t n, float *out);

/*
 * The inclusive prefix sum inside every 32-element segment:
 * out[i] = in[32 s] + ... + in[i], with s = i / 32, for i = 0 .. n - 1.
 * 1 <= n < 2^31.
 */
void segment_scan(const float *in, size_t n, float *out);

/*
 * Stream compaction: every in[i] with in[i] > thr (a float comparison;
 * values equal to thr are dropped) is copied to out[0 .. k-1], in any
 * order, and *count = k. out has room for n floats; what lies past k
 * does not matter. 1 <= n < 2^31; thr and the inputs are finite.
 */
void filter(const float *in, size_t n, float thr, float *out, int *count,
	    void *work);

/*
 * y[r] = a[r][0] * x[0] + ... + a[r][cols-1] * x[cols-1] for r = 0 ..
 * rows - 1 (a is row-major: a[r][c] = a[r * cols + c]), with one warp per
 * row whose 32 partial sums are combined inside the warp: seed 001's
 * matrix-vector product, written for GPUs before Volta. The exercise is to
 * make that legacy code correct on Volta and later; compute-sanitizer's
 * racecheck and synccheck grade it every time. 1 <= rows, cols and
 * rows * cols < 2^31.
 */
void lockstep_matvec(const float *a, const float *x, float *y, size_t rows,
		     size_t cols);

/* The naive references the grader times against (naive.cu). */
void naive_segment_sum(const float *in, size_t n, float *out);
void naive_segment_scan(const float *in, size_t n, float *out);
void naive_filter(const float *in, size_t n, float thr, float *out,
		  int *count, void *work);

/* Library peers for make bench (peers.cu): CUB. */
void peer_segment_sum(const float *in, size_t n, float *out);
void peer_segment_scan(const float *in, size_t n, float *out);
void peer_filter(const float *in, size_t n, float thr, float *out,
		 int *count, void *work);

#ifdef __cplusplus
}
#endif

#endif /* SHFL_H */
