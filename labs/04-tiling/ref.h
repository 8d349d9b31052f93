/* SPDX-License-Identifier: MIT */
/*
 * ref.h - matmul's double-precision reference on the GPU (ref.cu), for
 * the products too large for the host to check element by element.
 *
 * Grader code, not for students: lab.c calls it from matmul's check. It
 * uploads a and b, then computes c = a b and the size of its terms,
 * mag[i][j] = sum_p |a[i][p]| |b[p][j]|, in double, a slab of rows at a
 * time; lab.c checks it against its CPU reference on a few rows and
 * columns before it judges the submission with it.
 */
#ifndef TILING_REF_H
#define TILING_REF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct mm_ref {
	float *a, *b;         /* device copies of the inputs */
	double *want, *mag;   /* device results of one slab of rows */
	size_t m, k, n;
	size_t slab;          /* rows per slab */
};

/*
 * Upload a (m x k) and b (k x n) and size the slab to at most
 * slab_bytes of results. Returns NULL, or what failed (a CUDA call and
 * its error, in a static buffer); on failure nothing stays allocated.
 */
const char *mm_ref_open(struct mm_ref *r, const float *a, const float *b,
			size_t m, size_t k, size_t n, size_t slab_bytes);

/*
 * Rows i0 .. i0 + rows - 1 (rows <= r->slab) of c and of mag, into the
 * host arrays want and mag (rows x n each). Returns NULL or what failed.
 */
const char *mm_ref_rows(struct mm_ref *r, size_t i0, size_t rows,
			double *want, double *mag);

/* Free what mm_ref_open() allocated. */
void mm_ref_close(struct mm_ref *r);

#ifdef __cplusplus
}
#endif

#endif /* TILING_REF_H */
