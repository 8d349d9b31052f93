/* SPDX-License-Identifier: MIT */
/*
 * attention_ref.c - the CPU reference of lab 08's attention, in double,
 * and the tolerance a correct kernel must meet.
 *
 * Tolerance, per output o = sum_j p_j v_j / sum_j p_j of row i, column d.
 * Let a = sum_j P_j |v_j| (P the exact probabilities: |o| <= a) and
 * u = 2^-24, the float32 unit roundoff; bfloat16's is 2^-8 (8 significant
 * bits, round to nearest).
 *
 *  1. The output is rounded to bf16 once: at most 2^-8 |o|.
 *  2. P is rounded to bf16 for the tensor-core product P V (the fused
 *     kernel and the cuBLAS peer both do): each p_j moves by at most
 *     2^-8 p_j, the numerator by at most 2^-8 a. A kernel may also sum the
 *     rounded p_j for the denominator: at most another 2^-8 |o|.
 *  3. The scores in float32: q and k are bf16, so each product q_d k_d is
 *     exact in float32; a dim-term sum, the scale and the shift into log2
 *     units (or the subtraction of the max) add at most (dim + 4) u A in
 *     absolute terms, A = scale max_j sum_d |q_d k_jd|. A score and the max
 *     both err, so an exponent errs by 2 (dim + 4) u A, and exp (exp2f,
 *     expf, ex2.approx: a few ulps) adds 2^-21: each p_j is off by a
 *     relative rho = 2 (dim + 4) u A + 2^-21, numerator and denominator
 *     alike: 2 rho a.
 *  4. The float32 sums of P V and of the denominator: (seq + 2) u a, far
 *     below item 2 for any seq the tests use (seq 4096: 2.4e-4 a against
 *     3.9e-3 a); included to be a bound.
 *
 *     tol = 2^-7 |o| + (2^-8 + 2 rho + (seq + 2) u) a
 *
 * So tol is 0.4% to 1.2% of a (|o| <= a); with inputs in [-1, 1], a is a
 * weighted average of |v|, about 0.5. What it catches: a missing scale
 * (scores 8 or 11 times too sharp) moves outputs by tenths; a causal mask
 * off by one moves row i by about |v - o| / (i + 2), a third at row 0; a
 * dropped key tile removes a quarter or more of a short row's weight; no
 * max subtraction overflows expf at scores over 88, which the large-input
 * case (inputs up to 12: scores in the hundreds) makes sure of, and gives
 * inf or NaN, which always fail.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attention_ref.h"

#define U32 (1.0 / 16777216.0)	/* 2^-24, float32 unit roundoff */
#define U16 (1.0 / 256.0)	/* 2^-8, bfloat16 unit roundoff */

double bf16_to_double(uint16_t h)
{
	uint32_t bits = (uint32_t)h << 16;
	float f;

	memcpy(&f, &bits, sizeof(f));
	return f;
}

uint16_t double_to_bf16(double x)
{
	float f = (float)x;
	uint32_t bits;

	memcpy(&bits, &f, sizeof(bits));
	if ((bits & 0x7fffffffu) > 0x7f800000u)	/* NaN stays NaN */
		return (uint16_t)((bits >> 16) | 0x40);
	bits += 0x7fffu + ((bits >> 16) & 1);	/* round to nearest even */
	return (uint16_t)(bits >> 16);
}

struct ref_job {
	const uint16_t *q, *k, *v;
	int seq, dim, causal;
	long row0, row1;	/* rows [row0, row1) of batch * heads * seq */
	double *ref, *tol;
};

/* One row: scores, max, exponentials, weighted sums, tolerances. */
static void ref_row(const struct ref_job *jb, long r, double *p)
{
	int seq = jb->seq, dim = jb->dim, i = (int)(r % seq);
	int n = jb->causal ? i + 1 : seq;	/* keys j < n */
	const uint16_t *q = jb->q + r * dim;
	const uint16_t *k = jb->k + (r - i) * dim;	/* the head's keys */
	const uint16_t *v = jb->v + (r - i) * dim;
	double scale = 1.0 / sqrt((double)dim), mx = -INFINITY, big = 0.0;
	double sum = 0.0, rho;

	for (int j = 0; j < n; j++) {
		double s = 0.0, sa = 0.0;

		for (int d = 0; d < dim; d++) {
			double x = bf16_to_double(q[d]) *
				   bf16_to_double(k[(long)j * dim + d]);
			s += x;
			sa += fabs(x);
		}
		p[j] = s * scale;
		mx = fmax(mx, p[j]);
		big = fmax(big, sa * scale);
	}
	for (int j = 0; j < n; j++) {
		p[j] = exp(p[j] - mx);
		sum += p[j];
	}
	rho = 2.0 * (dim + 4) * U32 * big + 2.0 / 2097152.0;	/* 2^-21 */
	for (int d = 0; d < dim; d++) {
		double o = 0.0, a = 0.0;

		for (int j = 0; j < n; j++) {
			double x = bf16_to_double(v[(long)j * dim + d]);

			o += p[j] * x;
			a += p[j] * fabs(x);
		}
		o /= sum;
		a /= sum;
		jb->ref[r * dim + d] = o;
		jb->tol[r * dim + d] = 2.0 * U16 * fabs(o) +
			(U16 + 2.0 * rho + (seq + 2) * U32) * a;
	}
}

void attention_ref_row(const uint16_t *q, const uint16_t *k,
		       const uint16_t *v, int seq, int dim, int causal,
		       long r, double *ref, double *tol)
{
	struct ref_job jb = { q, k, v, seq, dim, causal, r, r + 1, ref, tol };
	double *p = malloc(sizeof(double) * (size_t)seq);

	if (!p) {
		fprintf(stderr, "attention_ref: out of memory\n");
		exit(2);
	}
	ref_row(&jb, r, p);
	free(p);
}

static void *ref_thread(void *arg)
{
	struct ref_job *jb = arg;
	double *p = malloc(sizeof(double) * (size_t)jb->seq);

	if (!p) {
		fprintf(stderr, "attention_ref: out of memory\n");
		exit(2);
	}
	for (long r = jb->row0; r < jb->row1; r++)
		ref_row(jb, r, p);
	free(p);
	return NULL;
}

void attention_ref(const uint16_t *q, const uint16_t *k, const uint16_t *v,
		   int batch, int heads, int seq, int dim, int causal,
		   double *ref, double *tol)
{
	long rows = (long)batch * heads * seq;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nt = (int)(cpus < 1 ? 1 : cpus > 64 ? 64 : cpus);
	pthread_t th[64];
	struct ref_job jobs[64];

	if (nt > rows)
		nt = (int)rows;
	for (int t = 0; t < nt; t++) {
		jobs[t] = (struct ref_job){ q, k, v, seq, dim, causal,
					    rows * t / nt, rows * (t + 1) / nt,
					    ref, tol };
		if (pthread_create(&th[t], NULL, ref_thread, &jobs[t])) {
			ref_thread(&jobs[t]);	/* no thread: do it here */
			th[t] = 0;
		}
	}
	for (int t = 0; t < nt; t++)
		if (th[t])
			pthread_join(th[t], NULL);
}

long attention_check(const uint16_t *o, const double *ref, const double *tol,
		     int batch, int heads, int seq, int dim, int max_print)
{
	size_t n = (size_t)batch * heads * seq * dim, worst_at = 0;
	double worst = 0.0;
	long bad = 0;

	for (size_t x = 0; x < n; x++) {
		double got = bf16_to_double(o[x]), err = fabs(got - ref[x]);
		double share = err / tol[x];

		if (share != share)	/* NaN: worse than any error */
			share = INFINITY;

		if (!(err <= tol[x])) {	/* NaN fails too */
			if (bad < max_print) {
				size_t row = x / dim;

				printf("    mismatch at b=%zu h=%zu i=%zu d=%zu: "
				       "got %.6g expected %.6g error %.3g "
				       "tol %.3g\n",
				       row / seq / heads, row / seq % heads,
				       row % seq, x % dim, got, ref[x], err,
				       tol[x]);
			}
			bad++;
		}
		if (!(share <= worst)) {
			worst = share;
			worst_at = x;
		}
	}
	printf("    worst error %.3g of its tolerance at flat index %zu "
	       "(%ld of %zu outside)\n", worst, worst_at, bad, n);
	return bad;
}
