/* SPDX-License-Identifier: MIT */
/*
 * attention_ref.h - the CPU reference of lab 08's attention and its check.
 */
#ifndef ATTENTION_REF_H
#define ATTENTION_REF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A bfloat16's raw bits as a double (exact). */
double bf16_to_double(uint16_t h);

/* The nearest bfloat16 to x (ties to even), as raw bits. */
uint16_t double_to_bf16(double x);

/*
 * The reference output, in double from the bf16 inputs (layout and mask
 * as in attention.h), and each output's tolerance (derived in
 * attention_ref.c). ref and tol have batch * heads * seq * dim entries.
 * Rows are shared out over the CPU's cores.
 */
void attention_ref(const uint16_t *q, const uint16_t *k, const uint16_t *v,
		   int batch, int heads, int seq, int dim, int causal,
		   double *ref, double *tol);

/*
 * One row r (of batch * heads * seq) of the same: ref and tol are the whole
 * arrays, as above; only row r's dim entries are written. For spot checks
 * of shapes too large to check whole.
 */
void attention_ref_row(const uint16_t *q, const uint16_t *k,
		       const uint16_t *v, int seq, int dim, int causal,
		       long r, double *ref, double *tol);

/*
 * Compare a bf16 output with the reference: returns the number of
 * outputs outside their tolerance (NaN and inf always are) and prints the
 * first max_print of them as (batch, head, row, dim) with got, expected,
 * error and tolerance, then the worst error as a share of its tolerance.
 */
long attention_check(const uint16_t *o, const double *ref, const double *tol,
		     int batch, int heads, int seq, int dim, int max_print);

#ifdef __cplusplus
}
#endif

#endif /* ATTENTION_REF_H */
