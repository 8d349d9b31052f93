/* SPDX-License-Identifier: MIT */
/*
 * ex_matmul.c - lab 04's matmul: its CPU references and its hooks for the
 * table in lab.c. A file per exercise keeps lab.c the table alone.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ref.h"
#include "tiling.h"
#include "lab_hooks.h"

/* ---- CPU references, in double precision ---- */

/*
 * Row i of a b (a: m x k, b: k x n), into want[0..n-1], and the size of
 * its terms, mag[j] = sum_p |a[i][p]| |b[p][j]|, for the tolerance. Rows
 * of b are walked in order, so the loop streams b once per row.
 */
static void cpu_matmul_row(const float *a, const float *b, size_t k,
			   size_t n, size_t i, double *want, double *mag)
{
	memset(want, 0, n * sizeof(double));
	memset(mag, 0, n * sizeof(double));
	for (size_t p = 0; p < k; p++) {
		double x = a[i * k + p], ax = fabs(x);
		const float *br = b + p * n;

		for (size_t j = 0; j < n; j++) {
			want[j] += x * br[j];
			mag[j] += ax * fabs(br[j]);
		}
	}
}

/*
 * Column j of a b, into want[0..m-1] and mag[0..m-1]; bcol (k doubles) is
 * scratch for column j of b, gathered once so each dot product is a
 * contiguous walk.
 */
static void cpu_matmul_col(const float *a, const float *b, size_t m,
			   size_t k, size_t n, size_t j, double *bcol,
			   double *want, double *mag)
{
	for (size_t p = 0; p < k; p++)
		bcol[p] = b[p * n + j];
	for (size_t i = 0; i < m; i++) {
		const float *ar = a + i * k;
		double s = 0, t = 0;

		for (size_t p = 0; p < k; p++) {
			s += ar[p] * bcol[p];
			t += fabs(ar[p]) * fabs(bcol[p]);
		}
		want[i] = s;
		mag[i] = t;
	}
}

/* ---- matmul ---- */

enum { M_A, M_B, M_C };

int lab04_matmul_setup(struct wb_ctx *c)
{
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];
	float *a = wb_input_as(c, "a", m * k * sizeof(float), WB_FRESH_F32);
	float *b = wb_input_as(c, "b", k * n * sizeof(float), WB_FRESH_F32);

	/* Signed values: the terms of a dot product cancel, so a term
	 * dropped or counted twice stands out against the tolerance. */
	wb_fill_uniform(c, a, m * k, -1.0, 1.0);
	wb_fill_uniform(c, b, k * n, -1.0, 1.0);
	wb_output(c, "c", m * n * sizeof(float));
	return 0;
}

typedef void matmul_fn(const float *, const float *, float *, size_t,
		       size_t, size_t);

int lab04_matmul_run(struct wb_ctx *c, enum wb_impl impl)
{
	matmul_fn *f = impl == WB_STUDENT ? matmul :
		       impl == WB_NAIVE   ? naive_matmul :
					    peer_matmul;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, M_A), wb_dev(c, M_B), wb_dev(c, M_C), c->size->n[0],
	  c->size->n[1], c->size->n[2]);
	return 0;
}

/*
 * Tolerance: |c[i][j] - ref| <= 5e-6 * sum_p |a[i][p]| |b[p][j]|, per
 * element. The bound is relative to the size of the terms, not of the
 * result: the terms have random signs and cancel, so c[i][j] is ~sqrt(k)
 * times smaller than the terms' sum and a relative tolerance on it would
 * sit below honest rounding. A float32 dot product in any order (one
 * accumulator, a tree, split over tiles, with or without FMA) errs by a
 * few 1e-8 of that sum whatever k (at most ~2e-7 over 16M elements), 25x
 * inside. A dropped or repeated term is on average 1/k of the sum (2.4e-4
 * at k = 4096, 50x outside; 97% of terms are outside alone). TF32 (10-bit
 * mantissas) errs by ~8e-6 of the sum at k = 4096 and by more at smaller
 * k: it fails, as it must; lower precisions fail by far.
 */
#define MM_RTOL 5e-6

/*
 * Every element of c is checked at every size. Products up to this many
 * multiply-adds against the host's reference (~0.2 s on one host core);
 * larger ones against the GPU's (ref.cu, which says why and what it
 * costs), which the host checks first on MM_REF_LINES rows and as many
 * columns.
 */
#define MM_FULL_MACS (1u << 27)

/* The GPU reference's results, a slab of rows at a time: 32 MiB (512
 * rows at n = 4096) on the device and as much on the host. */
#define MM_REF_SLAB_BYTES ((size_t)32 << 20)

/* The lines the host computes to check the GPU reference each time: the
 * first, the last and one at random, of rows and of columns (6 x 16M
 * multiply-adds at 4096^3, ~0.15 s). */
#define MM_REF_LINES 3

static void mm_judge(struct tally *t, size_t i, size_t j, float got,
		     double want, double mag)
{
	double tol = MM_RTOL * mag;

	t->n++;
	if (!wb_close(got, want, tol, 0))
		lab04_tally_bad(t, i, j, got, want, tol);
}

/* Pick up to count distinct indices below n: 0, n - 1, then random ones.
 * Returns how many. */
static int mm_pick(struct wb_ctx *c, size_t n, size_t *idx, int count)
{
	int k = 0;

	for (int tries = 0; k < count && tries < 4 * count; tries++) {
		size_t x = tries == 0 ? 0 : tries == 1 ? n - 1 :
			   (size_t)wb_rng_below(&c->rng, n);
		int dup = 0;

		for (int s = 0; s < k; s++)
			dup |= idx[s] == x;
		if (!dup)
			idx[k++] = x;
	}
	return k;
}

/* The host's reference, element by element. */
static void mm_check_host(struct wb_ctx *c, struct tally *t)
{
	const float *a = c->buf[M_A].host, *b = c->buf[M_B].host;
	const float *got = c->buf[M_C].host;
	size_t k = c->size->n[1], n = c->size->n[2];
	double *want = wb_ref_scratch(c, 2 * n), *mag = want + n;

	if (!want)
		return;
	for (size_t i = 0; i < c->size->n[0]; i++) {
		cpu_matmul_row(a, b, k, n, i, want, mag);
		for (size_t j = 0; j < n; j++)
			mm_judge(t, i, j, got[i * n + j], want[j], mag[j]);
	}
	free(want);
}

/*
 * The host's values of c[i][j] and of its terms' size, and the GPU
 * reference's. They add the same exact products (a float times a float
 * is exact in double), in the same order, so they agree bit for bit; in
 * any order they would still agree to (k - 1) 2^-53 of mag.
 */
struct mm_pair {
	double want, mag;   /* the host's */
	double gwant, gmag; /* the GPU reference's */
	size_t i, j;
};

static int mm_agree(const struct mm_pair *p, size_t k)
{
	double tol = (double)k * DBL_EPSILON * p->mag;

	return fabs(p->gwant - p->want) <= tol &&
	       fabs(p->gmag - p->mag) <= tol;
}

/* What the host knows: MM_REF_LINES rows and columns of c and of mag. */
struct mm_lines {
	size_t rows[MM_REF_LINES], cols[MM_REF_LINES];
	int nr, nc;
	double *rw, *rm; /* row s: rw[s * n + j], rm[s * n + j] */
	double *cw, *cm; /* column s: cw[s * m + i], cm[s * m + i] */
};

static void mm_host_lines(struct wb_ctx *c, struct mm_lines *l,
			  double *bcol)
{
	const float *a = c->buf[M_A].host, *b = c->buf[M_B].host;
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];

	l->nr = mm_pick(c, m, l->rows, MM_REF_LINES);
	l->nc = mm_pick(c, n, l->cols, MM_REF_LINES);
	for (int s = 0; s < l->nr; s++)
		cpu_matmul_row(a, b, k, n, l->rows[s], l->rw + s * n,
			       l->rm + s * n);
	for (int s = 0; s < l->nc; s++)
		cpu_matmul_col(a, b, m, k, n, l->cols[s], bcol, l->cw + s * m,
			       l->cm + s * m);
}

/* Note the pair (host, GPU) at c[i][j] in *p; do the two agree? */
static int mm_pair_ok(struct mm_pair *p, double want, double mag,
		      double gwant, double gmag, size_t i, size_t j, size_t k)
{
	*p = (struct mm_pair){ want, mag, gwant, gmag, i, j };
	return mm_agree(p, k);
}

/*
 * Compare rows i0 .. i0 + rows - 1 of the GPU reference (want, mag) with
 * what the host computed of them. Returns 0, or -1 with the first
 * disagreement in *bad.
 */
static int mm_verify_slab(const struct mm_lines *l, size_t m, size_t k,
			  size_t n, size_t i0, size_t rows, const double *want,
			  const double *mag, struct mm_pair *bad)
{
	for (int s = 0; s < l->nc; s++) {
		size_t j = l->cols[s];

		for (size_t i = i0; i < i0 + rows; i++) {
			size_t g = (i - i0) * n + j;

			if (!mm_pair_ok(bad, l->cw[s * m + i], l->cm[s * m + i],
					want[g], mag[g], i, j, k))
				return -1;
		}
	}
	for (int s = 0; s < l->nr; s++) {
		size_t i = l->rows[s], g = (i - i0) * n;

		if (i < i0 || i >= i0 + rows)
			continue;
		for (size_t j = 0; j < n; j++)
			if (!mm_pair_ok(bad, l->rw[s * n + j], l->rm[s * n + j],
					want[g + j], mag[g + j], i, j, k))
				return -1;
	}
	return 0;
}

/*
 * Judge every element against the GPU reference, a slab of rows at a
 * time, each slab checked first against the host's lines; want and mag
 * are scratch for one slab. Returns 0, or -1 when the reference failed
 * (reported: a grader error, not the submission's).
 */
static int mm_judge_slabs(struct wb_ctx *c, struct tally *t,
			  struct mm_ref *ref, const struct mm_lines *l,
			  double *want, double *mag)
{
	const float *got = c->buf[M_C].host;
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];
	struct mm_pair bad;
	const char *why;

	for (size_t i0 = 0; i0 < m; i0 += ref->slab) {
		size_t rows = m - i0 < ref->slab ? m - i0 : ref->slab;

		why = mm_ref_rows(ref, i0, rows, want, mag);
		if (why) {
			wb_fail(c, "grader error, not your code's: the GPU "
				   "reference for this size failed (%s)", why);
			return -1;
		}
		if (mm_verify_slab(l, m, k, n, i0, rows, want, mag, &bad)) {
			wb_fail(c, "grader error, not your code's: the GPU "
				   "reference is broken: at c[%zu][%zu] it "
				   "gives %.17g (terms' size %.17g), the host "
				   "%.17g (%.17g); nothing was judged", bad.i,
				bad.j, bad.gwant, bad.gmag, bad.want, bad.mag);
			return -1;
		}
		for (size_t i = i0; i < i0 + rows; i++)
			for (size_t j = 0; j < n; j++)
				mm_judge(t, i, j, got[i * n + j],
					 want[(i - i0) * n + j],
					 mag[(i - i0) * n + j]);
	}
	return 0;
}

/*
 * Every element against the GPU reference (ref.cu). A failure of the
 * reference (a CUDA error, a disagreement with the host) is the grader's:
 * harness.h offers lab code no grader-error verdict (wb_die is the
 * runner's own), so the check fails with a message that says so, and
 * the tally is dropped. Returns 0, or -1 when the reference failed.
 */
static int mm_check_gpu(struct wb_ctx *c, struct tally *t)
{
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];
	struct mm_lines l;
	struct mm_ref ref;
	const char *why;
	double *scratch, *want;
	int st = -1;

	scratch = wb_ref_scratch(c, 2 * MM_REF_LINES * (m + n) + k +
				 MM_REF_SLAB_BYTES / sizeof(double));
	if (!scratch)
		return -1;
	l.rw = scratch;
	l.rm = l.rw + MM_REF_LINES * n;
	l.cw = l.rm + MM_REF_LINES * n;
	l.cm = l.cw + MM_REF_LINES * m;
	want = l.cm + MM_REF_LINES * m + k; /* k doubles: mm_host_lines' */
	mm_host_lines(c, &l, want - k);
	why = mm_ref_open(&ref, c->buf[M_A].host, c->buf[M_B].host, m, k, n,
			  MM_REF_SLAB_BYTES);
	if (why) {
		wb_fail(c, "grader error, not your code's: the GPU reference "
			   "for this size failed (%s)", why);
	} else {
		st = mm_judge_slabs(c, t, &ref, &l, want, want + ref.slab * n);
		mm_ref_close(&ref);
	}
	free(scratch);
	return st;
}

void lab04_matmul_check(struct wb_ctx *c)
{
	struct tally t = { 0 };
	size_t m = c->size->n[0], k = c->size->n[1], n = c->size->n[2];

	if ((double)m * k * n <= MM_FULL_MACS)
		mm_check_host(c, &t);
	else if (mm_check_gpu(c, &t))
		return;
	lab04_tally_report(c, &t, "c",
			   "tolerance 5e-6 x sum_p |a[i][p] b[p][j]|");
}

/* 2 m n k: one multiply and one add per term. The report shows TFLOP/s
 * from it, and the peer's share when it is timed. */
void lab04_matmul_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	double m = s->n[0], k = s->n[1], n = s->n[2];

	t->read = 4 * (m * k + k * n);
	t->write = 4 * m * n;
	t->flops = 2 * m * n * k;
}
