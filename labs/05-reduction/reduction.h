/* SPDX-License-Identifier: MIT */
/*
 * reduction.h - the entry points of lab 05 (reduction).
 *
 * Each exercise file defines one of these host functions; the grader calls
 * it with device pointers and waits for the device afterwards. Choose grid,
 * block and shared memory inside it: the launch configuration is part of
 * the exercise. Every launch's cost counts, including any cudaMemset.
 *
 * n < 2^31 in both: no size the grader can check reaches 2^31 elements on
 * the GPUs students have; 32-bit element indices are enough.
 */
#ifndef REDUCTION_H
#define REDUCTION_H

#include <stddef.h>
#include "workbook.h"

/*
 * Scratch device memory handed to every entry point: REDUCE_WORK_BYTES,
 * 256-byte aligned, contents undefined on entry (the grader poisons it).
 */
#define REDUCE_WORK_BYTES (1u << 20)

#ifdef __cplusplus
extern "C" {
#endif

/* out[0] = in[0] + ... + in[n-1] (float32); 1 <= n < 2^31. */
void reduce_sum(const float *in, size_t n, float *out, void *work);

/*
 * out[0] = the index of the largest in[i]; the lowest such index on ties.
 * 1 <= n < 2^31; the inputs are finite.
 */
void reduce_argmax(const float *in, size_t n, long long *out, void *work);

/* The naive references the grader times against (naive.cu). */
void naive_reduce_sum(const float *in, size_t n, float *out, void *work);
void naive_reduce_argmax(const float *in, size_t n, long long *out,
			 void *work);

/* Library peers for make bench (peers.cu): CUB's DeviceReduce. */
void peer_reduce_sum(const float *in, size_t n, float *out, void *work);
void peer_reduce_argmax(const float *in, size_t n, long long *out,
			void *work);

#ifdef __cplusplus
}
#endif

#endif /* REDUCTION_H */
