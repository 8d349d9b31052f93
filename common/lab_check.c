/* SPDX-License-Identifier: MIT */
/*
 * lab_check.c - what a lab's check() calls (harness.h): the comparisons
 * wb_check_f32() and wb_check_i64(), and wb_ref_scratch() for the double
 * reference.
 *
 * A comparison is made by check.c, fed to the diagnosis (diag.h) and, when
 * values are wrong, reported through wb_fail() with the first mismatches.
 * Host code with no CUDA: the unit tests include it whole
 * (tests/unit/test_lab_check.c).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "integrity.h"
#include "knobs.h"

static void report_cmp(struct wb_ctx *c, const char *what,
		       const struct wb_cmp *r, const char *tol)
{
	wb_fail(c, "%zu of %zu values of %s wrong (%s)%s%s", r->bad, r->n,
		what, tol,
		r->poisoned == r->n ? ": none was written" :
		r->poisoned ? ": some never written (still poison)" : "",
		r->nonfinite && r->poisoned != r->n ? ", NaN or inf among them" :
						      "");
	for (size_t i = 0; i < r->nshown; i++)
		wb_fail(c, "  %s[%zu] = %.9g, expected %.9g", what,
			r->shown[i].index, r->shown[i].got, r->shown[i].want);
}

void wb_check_f32(struct wb_ctx *c, const char *what, const float *got,
		  const double *want, size_t n, double atol, double rtol)
{
	struct wb_cmp r;
	char tol[96];

	wb_cmp_f32(got, want, n, atol, rtol, &r);
	if (r.bad || wb_diag.rerun)
		wb_diag_cmp_f32(&wb_diag, got, want, n, atol, rtol);
	else
		wb_diag_cmp_ok(&wb_diag, n);
	if (!r.bad)
		return;
	snprintf(tol, sizeof(tol), "tolerance %.3g + %.3g x |expected|", atol,
		 rtol);
	report_cmp(c, what, &r, tol);
}

void wb_check_i64(struct wb_ctx *c, const char *what, const int64_t *got,
		  const int64_t *want, size_t n)
{
	struct wb_cmp r;

	wb_cmp_i64(got, want, n, &r);
	if (r.bad || wb_diag.rerun)
		wb_diag_cmp_i64(&wb_diag, got, want, n);
	else
		wb_diag_cmp_ok(&wb_diag, n);
	if (r.bad)
		report_cmp(c, what, &r, "must match exactly");
}

/* p, or with the size failed when it is NULL. */
static void *ref_memory(struct wb_ctx *c, void *p)
{
	if (!p)
		wb_fail(c, "the grader ran out of host memory for its "
			   "reference");
	return p;
}

double *wb_ref_scratch(struct wb_ctx *c, size_t n)
{
	return ref_memory(c, malloc(n * sizeof(double)));
}

void *wb_ref_parts(struct wb_ctx *c, size_t n, size_t size)
{
	return ref_memory(c, calloc(n ? n : 1, size));
}

/* ---- checks on several threads (wb_check_chunks) ---- */

/* The work shared by the threads of one wb_check_chunks(). */
struct chunk_job {
	struct wb_ctx *c;
	wb_chunk_fn *chunk;
	const void *arg;
	size_t nchunks, scratch;
	atomic_size_t next;      /* the next chunk to take */
	atomic_size_t first_bad; /* the lowest chunk that failed, or nchunks */
	atomic_size_t values;    /* values compared by chunks that passed */
	atomic_size_t calls;     /* their comparisons */
	atomic_int no_memory;
};

/* What a chunk function compares through: quietly, on a thread, or with
 * wb_check_f32() on the caller's thread (serial). */
struct wb_chunks {
	struct wb_ctx *c;
	int serial;
	int bad;                 /* quiet: a comparison of this chunk failed */
	size_t values, calls;
};

void wb_chunk_f32(struct wb_chunks *p, const char *what, const float *got,
		  const double *want, size_t n, double atol, double rtol)
{
	struct wb_cmp r;

	if (p->serial) {
		wb_check_f32(p->c, what, got, want, n, atol, rtol);
		return;
	}
	wb_cmp_f32(got, want, n, atol, rtol, &r);
	p->bad |= r.bad != 0;
	p->values += n;
	p->calls++;
}

static void *chunk_worker(void *arg)
{
	struct chunk_job *j = arg;
	double *scratch = malloc((j->scratch ? j->scratch : 1) * sizeof(double));
	size_t k;

	if (!scratch) {
		atomic_store(&j->no_memory, 1);
		return NULL;
	}
	while ((k = atomic_fetch_add(&j->next, 1)) < j->nchunks &&
	       k < atomic_load(&j->first_bad)) {
		struct wb_chunks p = { .c = j->c };
		size_t bad;

		j->chunk(j->c, &p, k, scratch, j->arg);
		if (!p.bad) {
			atomic_fetch_add(&j->values, p.values);
			atomic_fetch_add(&j->calls, p.calls);
			continue;
		}
		bad = atomic_load(&j->first_bad);
		while (k < bad &&
		       !atomic_compare_exchange_weak(&j->first_bad, &bad, k))
			;
	}
	free(scratch);
	return NULL;
}

/* How many threads share work of n items: the CPUs, at most
 * WB_CHECK_THREADS, at most n, at least one. */
static int threads_for(size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int t = cpus < 1 ? 1 : cpus > WB_CHECK_THREADS ? WB_CHECK_THREADS :
						       (int)cpus;

	return (size_t)t > n ? (int)(n ? n : 1) : t;
}

/* worker(arg) on nthreads threads, this one among them; fewer when a
 * thread cannot start (the workers share one queue, so none is lost). */
static void run_threads(int nthreads, void *(*worker)(void *), void *arg)
{
	pthread_t t[WB_CHECK_THREADS];
	int started = 0;

	while (started < nthreads - 1 &&
	       !pthread_create(&t[started], NULL, worker, arg))
		started++;
	worker(arg);
	for (int i = 0; i < started; i++)
		pthread_join(t[i], NULL);
}

/* Every chunk on up to WB_CHECK_THREADS threads; 0 when all passed. */
static int chunks_parallel(struct chunk_job *j)
{
	run_threads(threads_for(j->nchunks), chunk_worker, j);
	return atomic_load(&j->no_memory) ||
	       atomic_load(&j->first_bad) < j->nchunks;
}

/* In order, on this thread, up to the first chunk that fails. */
static void chunks_serial(struct wb_ctx *c, size_t nchunks, size_t scratch,
			  wb_chunk_fn *chunk, const void *arg,
			  wb_chunk_note_fn *note)
{
	struct wb_chunks p = { .c = c, .serial = 1 };
	double *want = wb_ref_scratch(c, scratch ? scratch : 1);

	for (size_t k = 0; want && k < nchunks && !c->failed; k++) {
		chunk(c, &p, k, want, arg);
		if (c->failed && note)
			note(c, k, nchunks);
	}
	free(want);
}

void wb_check_chunks(struct wb_ctx *c, size_t nchunks, size_t scratch,
		     wb_chunk_fn *chunk, const void *arg,
		     wb_chunk_note_fn *note)
{
	struct chunk_job j = {
		.c = c, .chunk = chunk, .arg = arg, .nchunks = nchunks,
		.scratch = scratch,
	};

	/* A rerun (diag.h) compares value by value: one thread, as always. */
	if (nchunks < 2 || wb_diag.rerun) {
		chunks_serial(c, nchunks, scratch, chunk, arg, note);
		return;
	}
	atomic_init(&j.next, 0);
	atomic_init(&j.first_bad, nchunks);
	atomic_init(&j.values, 0);
	atomic_init(&j.calls, 0);
	atomic_init(&j.no_memory, 0);
	if (chunks_parallel(&j)) {
		chunks_serial(c, nchunks, scratch, chunk, arg, note);
		return;
	}
	/* What wb_check_f32() would have counted, chunk after chunk. */
	wb_diag_cmp_ok_n(&wb_diag, atomic_load(&j.values),
			 atomic_load(&j.calls));
}

/* ---- any independent work on several threads (wb_parallel_for) ---- */

struct par_job {
	wb_task_fn *fn;
	void *arg;
	size_t n;
	atomic_size_t next;
};

static void *par_worker(void *arg)
{
	struct par_job *j = arg;
	size_t k;

	while ((k = atomic_fetch_add(&j->next, 1)) < j->n)
		j->fn(k, j->arg);
	return NULL;
}

void wb_parallel_for(size_t n, wb_task_fn *fn, void *arg)
{
	struct par_job j = { .fn = fn, .arg = arg, .n = n };

	atomic_init(&j.next, 0);
	run_threads(threads_for(n), par_worker, &j);
}

/* ---- inputs made on several threads (wb_fill_uniform, wb_fill_bits) ---- */

struct fill_job {
	uint64_t base;     /* stretch k draws from a generator seeded base + k */
	size_t n;          /* floats, or bytes */
	float *x;          /* wb_fill_uniform */
	double lo, hi;
	unsigned char *b;  /* wb_fill_bits */
};

static void fill_uniform_stretch(size_t k, void *arg)
{
	struct fill_job *j = arg;
	struct wb_rng r;

	wb_rng_seed(&r, j->base + k);
	wb_rng_fill_uniform(&r, j->x + k * WB_FILL_STRETCH,
			    wb_stretch_len(j->n, k, WB_FILL_STRETCH), j->lo,
			    j->hi);
}

void wb_fill_uniform(struct wb_ctx *c, float *x, size_t n, double lo,
		     double hi)
{
	struct fill_job j = { .n = n, .x = x, .lo = lo, .hi = hi };

	if (n <= WB_FILL_STRETCH) {
		wb_rng_fill_uniform(&c->rng, x, n, lo, hi);
		return;
	}
	j.base = wb_rng_u64(&c->rng);
	wb_parallel_for((n + WB_FILL_STRETCH - 1) / WB_FILL_STRETCH,
			fill_uniform_stretch, &j);
}

/* Eight bytes from each draw; a short last draw gives its low bytes. */
static void fill_bits_from(struct wb_rng *r, unsigned char *b, size_t n)
{
	size_t i = 0;
	uint64_t v;

	for (; i + 8 <= n; i += 8) {
		v = wb_rng_u64(r);
		memcpy(b + i, &v, 8);
	}
	if (i < n) {
		v = wb_rng_u64(r);
		memcpy(b + i, &v, n - i);
	}
}

static void fill_bits_stretch(size_t k, void *arg)
{
	struct fill_job *j = arg;
	struct wb_rng r;

	wb_rng_seed(&r, j->base + k);
	fill_bits_from(&r, j->b + k * WB_FILL_STRETCH,
		       wb_stretch_len(j->n, k, WB_FILL_STRETCH));
}

void wb_fill_bits(struct wb_ctx *c, void *x, size_t bytes)
{
	struct fill_job j = { .n = bytes, .b = x };

	if (bytes <= WB_FILL_STRETCH) {
		fill_bits_from(&c->rng, x, bytes);
		return;
	}
	j.base = wb_rng_u64(&c->rng);
	wb_parallel_for((bytes + WB_FILL_STRETCH - 1) / WB_FILL_STRETCH,
			fill_bits_stretch, &j);
}
