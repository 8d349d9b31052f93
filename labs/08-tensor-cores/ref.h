/* SPDX-License-Identifier: MIT */
/*
 * ref.h - hgemm's double-precision reference on the GPU (ref.cu), for the
 * products too large for the host to check element by element.
 *
 * Grader code, not for students: lab.c calls it from hgemm's check. It
 * computes c = a b and the size of its terms, mag[i][j] = sum_p |a[i][p]|
 * |b[p][j]|, in double, for the whole matrix; lab.c checks it against its
 * host reference on a few rows before it judges the submission with it.
 */
#ifndef TENSOR_CORES_REF_H
#define TENSOR_CORES_REF_H

#include <stddef.h>

#include "tensor_cores.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * want and mag: host arrays of m x n doubles. Returns NULL, or what failed
 * (a CUDA call and its error, in a static buffer); nothing stays allocated
 * on the device either way.
 */
const char *hg_ref(const bf16_bits *a, const bf16_bits *b, size_t m,
		   size_t k, size_t n, double *want, double *mag);

#ifdef __cplusplus
}
#endif

#endif /* TENSOR_CORES_REF_H */
