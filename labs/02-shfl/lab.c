/* SPDX-License-Identifier: MIT */
/*
 * lab.c - lab 02 (warp shuffle): CPU references, input makers and the
 * table of knobs the grader reads. References first, then the hooks, then
 * the table.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "shfl.h"

/* One runner links one submission file: the other entry points are NULL,
 * and so are the peers if PEER_SRCS is emptied. */
#pragma weak neighbors
#pragma weak segment_sum
#pragma weak segment_scan
#pragma weak filter
#pragma weak lockstep_matvec
#pragma weak peer_segment_sum
#pragma weak peer_segment_scan
#pragma weak peer_filter

/* The float checks compare this many values at a time (8 MiB of doubles),
 * so the reference never needs a 64M-double array. */
#define CHECK_CHUNK ((size_t)1 << 20)

/* ---- CPU references, in double precision ---- */

/* The sum of in[lo .. hi-1], exactly enough (at most 32 floats). */
static double cpu_seg_sum(const float *in, size_t lo, size_t hi)
{
	double s = 0;

	for (size_t i = lo; i < hi; i++)
		s += in[i];
	return s;
}

/* want[i - i0] = the segment-inclusive prefix of in at i, i0 <= i < i1;
 * i0 is a multiple of SHFL_SEG. */
static void cpu_seg_scan(const float *in, size_t i0, size_t i1, double *want)
{
	double s = 0;

	for (size_t i = i0; i < i1; i++) {
		s = i % SHFL_SEG ? s + in[i] : in[i];
		want[i - i0] = s;
	}
}

/*
 * Sort 32-bit keys in place: a least-significant-digit radix sort, three
 * passes of 11 bits whose histograms come from one read. Two multisets of
 * floats are equal exactly when their bit patterns, sorted, are equal, so
 * no float order is needed; 32M keys sort in well under a second, where
 * qsort takes several.
 */
#define RADIX_BITS 11
#define RADIX (1u << RADIX_BITS)

static int sort_u32(uint32_t *a, size_t n)
{
	uint32_t *tmp = malloc((n ? n : 1) * sizeof(*tmp)), *src = a, *dst = tmp;
	size_t *cnt = calloc(3 * RADIX, sizeof(*cnt));

	if (!tmp || !cnt) {
		free(tmp);
		free(cnt);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		for (int p = 0; p < 3; p++)
			cnt[p * RADIX + (a[i] >> (RADIX_BITS * p) & (RADIX - 1))]++;
	for (int p = 0; p < 3; p++) {
		size_t *c = cnt + p * RADIX, sum = 0;
		uint32_t *t;

		for (size_t d = 0; d < RADIX; d++) {
			size_t here = c[d];

			c[d] = sum;
			sum += here;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[src[i] >> (RADIX_BITS * p) & (RADIX - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	/* Three passes end in tmp. */
	memcpy(a, src, n * sizeof(*a));
	free(tmp);
	free(cnt);
	return 0;
}

/* ---- neighbors ---- */

enum { N_OUT };

static size_t nb_threads(const struct wb_size *s)
{
	return s->n[0] * s->n[1] * s->n[2];
}

static int neighbors_setup(struct wb_ctx *c)
{
	size_t bytes = nb_threads(c->size) * SHFL_SEG * NEIGHBORS_COORDS *
		       sizeof(int);

	wb_output(c, "out", bytes);
	return 0;
}

static int neighbors_run(struct wb_ctx *c, enum wb_impl impl)
{
	const struct wb_size *s = c->size;

	/* Correctness only: there is no naive and no peer to call. */
	if (impl != WB_STUDENT || !neighbors)
		return WB_MISSING;
	neighbors(wb_dev(c, N_OUT), (unsigned int)s->n[0],
		  (unsigned int)s->n[1], (unsigned int)s->n[2]);
	return 0;
}

/* The expected (x, y, z) of thread u of a bx x by block, or -1s past nt. */
static void nb_coords(size_t u, size_t nt, size_t bx, size_t by, int *want)
{
	if (u >= nt) {
		want[0] = want[1] = want[2] = -1;
		return;
	}
	want[0] = (int)(u % bx);
	want[1] = (int)(u / bx % by);
	want[2] = (int)(u / (bx * by));
}

/* Is the entry of thread t, lane j right? want gets what it should be. */
static int nb_entry_ok(const int *out, const struct wb_size *s, size_t t,
		       size_t j, int *want)
{
	nb_coords(t / SHFL_SEG * SHFL_SEG + j, nb_threads(s), s->n[0], s->n[1],
		  want);
	return !memcmp(out + (t * SHFL_SEG + j) * 3, want, 3 * sizeof(int));
}

/* Count the wrong (thread, lane) entries, then show the first few as
 * "thread (x,y,z), lane j: got (...), expected (...)". */
static void neighbors_check(struct wb_ctx *c)
{
	const int *out = c->buf[N_OUT].host;
	const struct wb_size *s = c->size;
	size_t nt = nb_threads(s), bad = 0, unwritten = 0, shown = 0;
	int want[3], me[3];

	for (size_t t = 0; t < nt; t++)
		for (size_t j = 0; j < SHFL_SEG; j++) {
			const int *got = out + (t * SHFL_SEG + j) * 3;

			if (nb_entry_ok(out, s, t, j, want))
				continue;
			bad++;
			unwritten += got[0] == -1 && got[1] == -1 && got[2] == -1;
		}
	if (!bad)
		return;
	wb_fail(c, "%zu of %zu (thread, lane) entries wrong%s", bad,
		nt * SHFL_SEG,
		unwritten ? ", some still -1 (never written?)" : "");
	for (size_t t = 0; t < nt && shown < WB_MAX_SHOWN; t++)
		for (size_t j = 0; j < SHFL_SEG && shown < WB_MAX_SHOWN; j++) {
			const int *got = out + (t * SHFL_SEG + j) * 3;

			if (nb_entry_ok(out, s, t, j, want))
				continue;
			shown++;
			nb_coords(t, nt, s->n[0], s->n[1], me);
			wb_fail(c, "  thread (%d,%d,%d), lane %zu: got (%d,%d,%d), "
				   "expected (%d,%d,%d)%s", me[0], me[1], me[2], j,
				got[0], got[1], got[2], want[0], want[1], want[2],
				want[0] < 0 ? ": its warp has no such lane" : "");
		}
}

/* ---- segment_sum ---- */

enum { S_IN, S_OUT };

static size_t n_segments(size_t n)
{
	return wb_ceil_div(n, SHFL_SEG);
}

static int seg_setup(struct wb_ctx *c, size_t out_elems)
{
	size_t n = c->size->n[0];
	float *in = wb_input_as(c, "in", n * sizeof(float), WB_FRESH_F32);

	/* Signed values: a dropped or repeated element moves a segment's sum
	 * by about 0.5, far outside the tolerance. */
	wb_fill_uniform(c, in, n, -1.0, 1.0);
	wb_output(c, "out", out_elems * sizeof(float));
	return 0;
}

static int segment_sum_setup(struct wb_ctx *c)
{
	return seg_setup(c, n_segments(c->size->n[0]));
}

typedef void seg_fn(const float *, size_t, float *);

static int segment_sum_run(struct wb_ctx *c, enum wb_impl impl)
{
	seg_fn *f = impl == WB_STUDENT ? segment_sum :
		    impl == WB_NAIVE   ? naive_segment_sum :
					 peer_segment_sum;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, S_IN), c->size->n[0], wb_dev(c, S_OUT));
	return 0;
}

/*
 * Tolerance: 6e-5 absolute, for segment_sum and segment_scan. A float sum
 * of k <= 32 terms, in any order or tree, errs by at most (k - 1) * 2^-24
 * * sum |x| (each add rounds to half an ulp of a partial sum bounded by sum
 * |x|); with |x| <= 1 that is 31 * 2^-24 * 32 = 5.9e-5. Typical errors are
 * ~1e-6. A dropped or repeated element (|x| ~ 0.5) fails unless it is
 * below 6e-5 in size, one chance in 16000.
 */
#define SEG_ATOL 6e-5

/* Segments [k CHECK_CHUNK, (k + 1) CHECK_CHUNK) of out (wb_check_chunks). */
static void segment_sum_chunk(struct wb_ctx *c, struct wb_chunks *p,
			      size_t k, double *want, const void *arg)
{
	const float *in = c->buf[S_IN].host, *out = c->buf[S_OUT].host;
	size_t n = c->size->n[0], m = n_segments(n), s0 = k * CHECK_CHUNK;
	size_t len = m - s0 < CHECK_CHUNK ? m - s0 : CHECK_CHUNK;

	(void)arg;
	for (size_t s = 0; s < len; s++) {
		size_t lo = (s0 + s) * SHFL_SEG;

		want[s] = cpu_seg_sum(in, lo, lo + SHFL_SEG < n ? lo + SHFL_SEG :
								    n);
	}
	wb_chunk_f32(p, "out", out + s0, want, len, SEG_ATOL, 0);
}

static void segment_sum_note(struct wb_ctx *c, size_t k, size_t nchunks)
{
	if (nchunks > 1)
		wb_fail(c, "  (the indices above count from segment %zu)",
			k * CHECK_CHUNK);
}

static void segment_sum_check(struct wb_ctx *c)
{
	size_t n = c->size->n[0], m = n_segments(n);

	wb_check_chunks(c, wb_ceil_div(m, CHECK_CHUNK), CHECK_CHUNK,
			segment_sum_chunk, NULL, segment_sum_note);
	if (c->failed && n % SHFL_SEG)
		wb_fail(c, "  (the last segment, out[%zu], is partial: "
			   "in[%zu .. %zu])", m - 1, (m - 1) * SHFL_SEG, n - 1);
}

/* Every input read once, one float written per segment. */
static void segment_sum_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 4.0 * n_segments(s->n[0]);
}

/* ---- segment_scan ---- */

static int segment_scan_setup(struct wb_ctx *c)
{
	return seg_setup(c, c->size->n[0]);
}

static int segment_scan_run(struct wb_ctx *c, enum wb_impl impl)
{
	seg_fn *f = impl == WB_STUDENT ? segment_scan :
		    impl == WB_NAIVE   ? naive_segment_scan :
					 peer_segment_scan;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, S_IN), c->size->n[0], wb_dev(c, S_OUT));
	return 0;
}

/* Elements [k CHECK_CHUNK, (k + 1) CHECK_CHUNK) of out; CHECK_CHUNK is a
 * multiple of 32, so a chunk starts a segment (wb_check_chunks). */
static void segment_scan_chunk(struct wb_ctx *c, struct wb_chunks *p,
			       size_t k, double *want, const void *arg)
{
	const float *in = c->buf[S_IN].host, *out = c->buf[S_OUT].host;
	size_t n = c->size->n[0], i0 = k * CHECK_CHUNK;
	size_t len = n - i0 < CHECK_CHUNK ? n - i0 : CHECK_CHUNK;

	(void)arg;
	cpu_seg_scan(in, i0, i0 + len, want);
	wb_chunk_f32(p, "out", out + i0, want, len, SEG_ATOL, 0);
}

static void segment_scan_note(struct wb_ctx *c, size_t k, size_t nchunks)
{
	if (nchunks > 1)
		wb_fail(c, "  (the indices above count from element %zu)",
			k * CHECK_CHUNK);
}

/* Chunk by chunk, on several threads; tolerance SEG_ATOL. */
static void segment_scan_check(struct wb_ctx *c)
{
	wb_check_chunks(c, wb_ceil_div(c->size->n[0], CHECK_CHUNK),
			CHECK_CHUNK, segment_scan_chunk, NULL,
			segment_scan_note);
}

static void segment_scan_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 4.0 * s->n[0];
}

/* ---- filter ---- */

enum { F_IN, F_OUT, F_COUNT };

/* How many of the inputs a size keeps: n[1] picks the threshold. */
enum { KEEP_HALF, KEEP_SPARSE, KEEP_ALL, KEEP_NONE };

static float filter_thr(const struct wb_size *s)
{
	switch (s->n[1]) {
	case KEEP_SPARSE:
		return 0.9f;  /* ~5% of uniform [-1, 1) */
	case KEEP_ALL:
		return -2.0f; /* below every input */
	case KEEP_NONE:
		return 2.0f;  /* above every input */
	default:
		return 0.0f;  /* ~half */
	}
}

/* The expected fraction kept, for the byte count (planted ties aside). */
static double filter_fraction(const struct wb_size *s)
{
	static const double frac[] = { 0.5, 0.05, 1.0, 0.0 };

	return frac[s->n[1] % 4];
}

static int filter_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0];
	float *in = wb_input_as(c, "in", n * sizeof(float), WB_FRESH_F32);
	float thr = filter_thr(c->size);

	/* Uniform in [-1, 1), with one element in 64 set to exactly thr
	 * (when thr is in that range): `>` must drop it, `>=` keeps it. */
	for (size_t i = 0; i < n; i++) {
		uint64_t u = wb_rng_u64(&c->rng);

		in[i] = (float)(-1.0 + 2.0 * (double)(u >> 11) * 0x1.0p-53);
		if (u % 64 == 0 && thr > -1.0f && thr < 1.0f)
			in[i] = thr;
	}
	wb_output(c, "out", n * sizeof(float));
	wb_output(c, "count", sizeof(int));
	return 0;
}

typedef void filter_fn(const float *, size_t, float, float *, int *, void *);

static int filter_run(struct wb_ctx *c, enum wb_impl impl)
{
	filter_fn *f = impl == WB_STUDENT ? filter :
		       impl == WB_NAIVE   ? naive_filter :
					    peer_filter;

	if (!f)
		return WB_MISSING;
	f(wb_dev(c, F_IN), c->size->n[0], filter_thr(c->size),
	  wb_dev(c, F_OUT), wb_dev(c, F_COUNT), c->work);
	return 0;
}

static void show_value(struct wb_ctx *c, const char *what, uint32_t bits,
		       size_t times)
{
	float v;

	memcpy(&v, &bits, sizeof(v));
	if (bits == 0xffffffffu)
		wb_fail(c, "  %s: %zu slot(s) still hold the poison (never "
			   "written)", what, times);
	else
		wb_fail(c, "  %s: %.9g (%zu time(s))", what, v, times);
}

/*
 * Walk two sorted multisets of k keys: count what the kernel left out and
 * what it added (duplicates, poison, values at or below the threshold),
 * and with show, report the first few of them.
 */
static size_t walk_sorted(struct wb_ctx *c, const uint32_t *got,
			  const uint32_t *want, size_t k, size_t *missing,
			  int show)
{
	size_t i = 0, j = 0, extra = 0, shown = 0;

	*missing = 0;
	while (i < k || j < k) {
		int take_want = j < k && (i == k || want[j] < got[i]);
		int take_got = !take_want && i < k && (j == k || got[i] < want[j]);
		const uint32_t *p = take_want ? want + j : got + i;
		size_t *idx = take_want ? &j : &i, r = 1;

		if (!take_want && !take_got) {
			i++;
			j++;
			continue;
		}
		while (*idx + r < k && p[r] == p[0])
			r++;
		*(take_want ? missing : &extra) += r;
		if (show && shown++ < WB_MAX_SHOWN)
			show_value(c, take_want ? "missing from out" :
						  "in out but not kept", p[0], r);
		*idx += r;
	}
	return extra;
}

static void compare_sorted(struct wb_ctx *c, const uint32_t *got,
			   const uint32_t *want, size_t k)
{
	size_t missing, extra = walk_sorted(c, got, want, k, &missing, 0);

	if (!missing && !extra)
		return;
	wb_fail(c, "out[0..count) differs from the kept elements as a "
		   "multiset: %zu missing, %zu extra (order does not matter)",
		missing, extra);
	walk_sorted(c, got, want, k, &missing, 1);
}

/*
 * The kept elements of an input, sorted by their bits. At the benchmark
 * size the check runs several times on the same inputs (the submission,
 * the naive), while timed calls get inputs of their own. The harness's
 * generation of the host inputs is never handed out twice (harness.h), so
 * one reference, keyed by it, is all that can be hit again.
 */
static struct {
	unsigned long gen;
	uint32_t *keys;
	size_t k;
} kept;

static const uint32_t *kept_sorted(const struct wb_size *s, const float *in,
				   unsigned long gen, size_t *k_out)
{
	size_t n = s->n[0], k = 0;
	float thr = filter_thr(s);

	if (kept.keys && kept.gen == gen)
		goto out;
	free(kept.keys);
	kept.keys = NULL;
	for (size_t i = 0; i < n; i++)
		k += in[i] > thr;
	kept.keys = malloc((k ? k : 1) * sizeof(*kept.keys));
	if (!kept.keys)
		return NULL;
	for (size_t i = 0, j = 0; i < n; i++)
		if (in[i] > thr)
			memcpy(&kept.keys[j++], &in[i], sizeof(*kept.keys));
	if (sort_u32(kept.keys, k)) {
		free(kept.keys);
		kept.keys = NULL;
		return NULL;
	}
	kept.gen = gen;
	kept.k = k;
out:
	*k_out = kept.k;
	return kept.keys;
}

/*
 * The same multiset test on several threads. Each key goes to a bucket by
 * a hash of its bits; two multisets are equal exactly when every bucket's
 * are, and each bucket (some thousands of keys) is sorted and compared on
 * its own, all buckets at once. The answer is all this gives: when
 * anything differs (or memory runs out), filter_check() walks the whole
 * sorted multisets on one thread for its report, as it always did.
 */
#define FB_BITS 12              /* 4096 buckets: ~8000 keys each at 32M */
#define FB_STRETCH ((size_t)1 << 20)

struct fb_job {
	const uint32_t *in, *out; /* the input (all n), the output (k kept) */
	size_t n, k;
	float thr;
	size_t in_parts, out_parts;
	size_t *at;               /* [part][bucket]: where a part's keys go */
	uint32_t *want, *got;     /* k keys each, bucket after bucket */
	size_t *start;            /* [bucket + 1]: where each bucket begins */
	atomic_int differs;
};

static unsigned fb_bucket(uint32_t key)
{
	return (key * 0x9e3779b1u) >> (32 - FB_BITS);
}

/* A part of the input (kept keys only) or of the output: [lo, hi). */
static const uint32_t *fb_part(const struct fb_job *j, size_t part,
			       size_t *lo, size_t *hi, int *is_in)
{
	size_t len = part < j->in_parts ? j->n : j->k;

	*is_in = part < j->in_parts;
	*lo = (*is_in ? part : part - j->in_parts) * FB_STRETCH;
	*hi = len - *lo < FB_STRETCH ? len : *lo + FB_STRETCH;
	return *is_in ? j->in : j->out;
}

static int fb_kept(const struct fb_job *j, uint32_t key)
{
	float v;

	memcpy(&v, &key, sizeof(v));
	return v > j->thr;
}

static void fb_count(size_t part, void *arg)
{
	struct fb_job *j = arg;
	size_t lo, hi, *at = j->at + part * ((size_t)1 << FB_BITS);
	int is_in;
	const uint32_t *x = fb_part(j, part, &lo, &hi, &is_in);

	for (size_t i = lo; i < hi; i++)
		if (!is_in || fb_kept(j, x[i]))
			at[fb_bucket(x[i])]++;
}

static void fb_scatter(size_t part, void *arg)
{
	struct fb_job *j = arg;
	size_t lo, hi, *at = j->at + part * ((size_t)1 << FB_BITS);
	int is_in;
	const uint32_t *x = fb_part(j, part, &lo, &hi, &is_in);
	uint32_t *dst = is_in ? j->want : j->got;

	for (size_t i = lo; i < hi; i++)
		if (!is_in || fb_kept(j, x[i]))
			dst[at[fb_bucket(x[i])]++] = x[i];
}

static void fb_compare(size_t b, void *arg)
{
	struct fb_job *j = arg;
	size_t lo = j->start[b], len = j->start[b + 1] - lo;

	if (atomic_load(&j->differs))
		return;
	if (sort_u32(j->want + lo, len) || sort_u32(j->got + lo, len) ||
	    memcmp(j->want + lo, j->got + lo, len * sizeof(uint32_t)))
		atomic_store(&j->differs, 1);
}

/*
 * Turn the parts' counts into where each part's keys of each bucket go,
 * input parts into want and output parts into got; 0 when every bucket
 * holds as many of the output's keys as of the kept input's.
 */
static int fb_place(struct fb_job *j)
{
	size_t nb = (size_t)1 << FB_BITS, w = 0, g = 0;

	for (size_t b = 0; b < nb; b++) {
		j->start[b] = w;
		for (size_t p = 0; p < j->in_parts + j->out_parts; p++) {
			size_t *at = &j->at[p * nb + b], here = *at;

			*at = p < j->in_parts ? w : g;
			*(p < j->in_parts ? &w : &g) += here;
		}
		if (w != g)
			return -1;
	}
	j->start[nb] = w;
	return 0;
}

/* 1 when out[0 .. k) holds exactly the k kept values, 0 when it does not
 * or the host has no memory for the test (the caller then looks closer). */
static int filter_same_fast(const float *in, size_t n, float thr,
			    const float *out, size_t k)
{
	struct fb_job j = {
		.in = (const uint32_t *)in, .out = (const uint32_t *)out,
		.n = n, .k = k, .thr = thr,
		.in_parts = wb_ceil_div(n, FB_STRETCH),
		.out_parts = wb_ceil_div(k, FB_STRETCH),
	};
	size_t nb = (size_t)1 << FB_BITS;
	int same = 0;

	atomic_init(&j.differs, 0);
	j.at = calloc((j.in_parts + j.out_parts) * nb, sizeof(*j.at));
	j.start = malloc((nb + 1) * sizeof(*j.start));
	j.want = malloc((k ? k : 1) * sizeof(*j.want));
	j.got = malloc((k ? k : 1) * sizeof(*j.got));
	if (!j.at || !j.start || !j.want || !j.got)
		goto out;
	wb_parallel_for(j.in_parts + j.out_parts, fb_count, &j);
	if (fb_place(&j))
		goto out;
	wb_parallel_for(j.in_parts + j.out_parts, fb_scatter, &j);
	wb_parallel_for(nb, fb_compare, &j);
	same = !atomic_load(&j.differs);
out:
	free(j.at);
	free(j.start);
	free(j.want);
	free(j.got);
	return same;
}

/*
 * The count must be exact; then out[0 .. count) must hold exactly the kept
 * values, in any order: both sides sorted by their bits and compared.
 */
static void filter_check(struct wb_ctx *c)
{
	const float *in = c->buf[F_IN].host, *out = c->buf[F_OUT].host;
	int got_count = *(const int *)c->buf[F_COUNT].host;
	const uint32_t *want;
	uint32_t *got = NULL;
	size_t k;

	/* Most checks pass: the threads' answer, when it is yes, is all. */
	if (got_count >= 0 && (size_t)got_count <= c->size->n[0] &&
	    filter_same_fast(in, c->size->n[0], filter_thr(c->size), out,
			     (size_t)got_count))
		return;
	want = kept_sorted(c->size, in, c->inputs_gen, &k);
	if (!want) {
		wb_fail(c, "the grader ran out of host memory for its "
			   "reference");
		return;
	}
	if (got_count < 0 || (size_t)got_count != k) {
		wb_fail(c, "count is %d, expected %zu (elements > %g)%s",
			got_count, k, filter_thr(c->size),
			got_count == -1 ? " (never written?)" : "");
		return;
	}
	got = malloc((k ? k : 1) * sizeof(*got));
	if (!got)
		goto nomem;
	memcpy(got, out, k * sizeof(*got));
	if (sort_u32(got, k))
		goto nomem;
	compare_sorted(c, got, want, k);
	free(got);
	return;
nomem:
	wb_fail(c, "the grader ran out of host memory for its reference");
	free(got);
}

/* Every input read once; the kept ones and the count written. */
static void filter_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 4.0 * s->n[0] * filter_fraction(s) + 4;
}

/* ---- lockstep ---- */

enum { L_A, L_X, L_Y };

static int lockstep_setup(struct wb_ctx *c)
{
	size_t rows = c->size->n[0], cols = c->size->n[1];
	float *a = wb_input(c, "a", rows * cols * sizeof(float));
	float *x = wb_input(c, "x", cols * sizeof(float));

	/* Signed entries: a row's sum mostly cancels, so one partial sum
	 * lost or added twice (the race's wrong answer) stands out. */
	wb_rng_fill_uniform(&c->rng, a, rows * cols, -1.0, 1.0);
	wb_rng_fill_uniform(&c->rng, x, cols, -1.0, 1.0);
	wb_output(c, "y", rows * sizeof(float));
	return 0;
}

static int lockstep_run(struct wb_ctx *c, enum wb_impl impl)
{
	/* Correctness only: there is no naive and no peer to call. */
	if (impl != WB_STUDENT || !lockstep_matvec)
		return WB_MISSING;
	lockstep_matvec(wb_dev(c, L_A), wb_dev(c, L_X), wb_dev(c, L_Y),
			c->size->n[0], c->size->n[1]);
	return 0;
}

/* The dot product of a row with x, and the sum of |a[c] x[c]|. */
static double lockstep_dot(const float *a, const float *x, size_t cols,
			   double *abs_sum)
{
	double s = 0, t = 0;

	for (size_t j = 0; j < cols; j++) {
		double p = (double)a[j] * x[j];

		s += p;
		t += fabs(p);
	}
	*abs_sum = t;
	return s;
}

/*
 * Tolerance, per row: |y[r] - ref| <= LOCKSTEP_RTOL * sum_c |a[r][c] x[c]|.
 * Float32 partial sums in any order (32 lane-strided sums and a tree of
 * five steps, or a shuffle tree) err by a few 2^-24 of that sum (signed
 * terms: the partial sums grow like sqrt(cols), not cols); 1e-5 leaves a
 * wide margin, while one lane's partial sum dropped or counted twice (a
 * term of ~0.25 at cols = 33, against a bound of ~1e-4) fails.
 */
#define LOCKSTEP_RTOL 1e-5

static void lockstep_check(struct wb_ctx *c)
{
	const float *a = c->buf[L_A].host, *x = c->buf[L_X].host;
	const float *y = c->buf[L_Y].host;
	size_t rows = c->size->n[0], cols = c->size->n[1], bad = 0;
	size_t shown[WB_MAX_SHOWN];
	double want[WB_MAX_SHOWN], tol[WB_MAX_SHOWN];

	for (size_t r = 0; r < rows; r++) {
		double abs_sum, w = lockstep_dot(a + r * cols, x, cols, &abs_sum);

		if (fabs((double)y[r] - w) <= LOCKSTEP_RTOL * abs_sum)
			continue; /* false for NaN: counted */
		if (bad < WB_MAX_SHOWN) {
			shown[bad] = r;
			want[bad] = w;
			tol[bad] = LOCKSTEP_RTOL * abs_sum;
		}
		bad++;
	}
	if (!bad)
		return;
	wb_fail(c, "%zu of %zu values of y wrong (tolerance %.0e x sum_c "
		   "|a[r][c] x[c]|)", bad, rows, LOCKSTEP_RTOL);
	for (size_t i = 0; i < bad && i < WB_MAX_SHOWN; i++)
		wb_fail(c, "  y[%zu] = %.9g, expected %.9g (tolerance %.3g)",
			shown[i], y[shown[i]], want[i], tol[i]);
}

/* ---- the table: every knob of this lab, with its reason ---- */

/*
 * neighbors block shapes (x by y by z threads): the seed's 8x8x8; one
 * thread; one warp along x (32), along y and z (4x4x2, 1x1x64 has lanes
 * ordered by z); 31 and 33 either side of a warp; 5x7x3 (105 = 3 warps and
 * 9 lanes), 3x3x3 (27: the only warp is partial), 7x5x9 (315, a partial
 * warp of 27) and 10x10x10 (1000, 8 lanes over): partial warps, where a
 * full mask names lanes that do not exist; 16x16x4, the largest block.
 */
#define NEIGHBORS_SIZES                                                    \
	{ "8x8x8", { 8, 8, 8 } }, { "1x1x1", { 1, 1, 1 } },                 \
	{ "32x1x1", { 32, 1, 1 } }, { "4x4x2", { 4, 4, 2 } },               \
	{ "1x1x64", { 1, 1, 64 } }, { "31x1x1", { 31, 1, 1 } },             \
	{ "33x1x1", { 33, 1, 1 } }, { "5x7x3", { 5, 7, 3 } },               \
	{ "3x3x3", { 3, 3, 3 } }, { "7x5x9", { 7, 5, 9 } },                 \
	{ "10x10x10", { 10, 10, 10 } }, { "16x16x4", { 16, 16, 4 } }

/*
 * segment sizes: 1, 2 and 31 (one partial segment), 32 and 33 (one full,
 * then a one-element segment), 63, 255..257 and 1000, 1023 (partial
 * segments after full ones, around a block of 256), 1025 (a whole 1024-
 * float tile and one element), 4097, 65537, 1000003 (n % 4 = 1 or 3: a
 * float4 path needs a scalar tail), 2^22 + 6 (large enough that a one-wave
 * grid-stride loop goes around several times).
 */
#define SEG_SIZES                                                          \
	{ "n=1", { 1 } }, { "n=2", { 2 } }, { "n=31", { 31 } },             \
	{ "n=32", { 32 } }, { "n=33", { 33 } }, { "n=63", { 63 } },         \
	{ "n=255", { 255 } }, { "n=256", { 256 } }, { "n=257", { 257 } },   \
	{ "n=1000", { 1000 } }, { "n=1023", { 1023 } },                     \
	{ "n=1025", { 1025 } }, { "n=4097", { 4097 } },                     \
	{ "n=65537", { 65537 } }, { "n=1000003", { 1000003 } },             \
	{ "n=2^22+6", { (1u << 22) + 6 } }

/*
 * filter sizes (n, which threshold): the segment sizes' awkward n, each
 * with half of the inputs kept unless marked: all kept (1, 256, 4099,
 * 65537: the count equals n, every slot of out is written), none kept (32:
 * count 0, out untouched), sparse (~5%: 255, 1023, 2^22 + 6, where most
 * warps keep nothing).
 */
#define FILTER_SIZES                                                       \
	{ "n=1 all", { 1, KEEP_ALL } }, { "n=2", { 2, KEEP_HALF } },        \
	{ "n=31", { 31, KEEP_HALF } }, { "n=32 none", { 32, KEEP_NONE } },  \
	{ "n=33", { 33, KEEP_HALF } },                                      \
	{ "n=255 sparse", { 255, KEEP_SPARSE } },                           \
	{ "n=256 all", { 256, KEEP_ALL } }, { "n=257", { 257, KEEP_HALF } }, \
	{ "n=1000", { 1000, KEEP_HALF } },                                  \
	{ "n=1023 sparse", { 1023, KEEP_SPARSE } },                         \
	{ "n=4097", { 4097, KEEP_HALF } },                                  \
	{ "n=4099 all", { 4099, KEEP_ALL } },                               \
	{ "n=65537 all", { 65537, KEEP_ALL } },                             \
	{ "n=1000003", { 1000003, KEEP_HALF } },                            \
	{ "n=2^22+6 sparse", { (1u << 22) + 6, KEEP_SPARSE } },             \
	{ "n=2^22+6", { (1u << 22) + 6, KEEP_HALF } }

/*
 * lockstep sizes (rows x cols): one element; one row shorter than a warp
 * (31) and one longer (33: lane 0 adds two products); 7 x 1 (a single
 * product per row: lanes 1..31 contribute zeros); 31 x 33 and 33 x 31,
 * row counts that leave the last block's warps partly without a row; 257 x
 * 1000 and 1000 x 3; 4097 x 64 (many blocks); 2 x 100003 (long rows).
 * Small on purpose: racecheck and synccheck run every size at about a
 * hundredth of the plain speed.
 */
#define LOCKSTEP_SIZES                                                     \
	{ "1x1", { 1, 1 } }, { "1x31", { 1, 31 } }, { "1x33", { 1, 33 } },  \
	{ "7x1", { 7, 1 } }, { "31x33", { 31, 33 } },                       \
	{ "33x31", { 33, 31 } }, { "257x1000", { 257, 1000 } },             \
	{ "1000x3", { 1000, 3 } }, { "4097x64", { 4097, 64 } },             \
	{ "2x100003", { 2, 100003 } }

/*
 * Technique rules (docs/adding-a-lab.md): the lab teaches the warp-level
 * primitives, so the speed exercises must contain them, and the device-
 * wide library forms that make bench compares against are not allowed
 * (CUB's WarpReduce, WarpScan and block primitives are: they compile to
 * shuffles). ptxas's own warp aggregation of a plain atomicAdd appears in
 * the SASS only, never the PTX: ladder step 2-atomicadd fails the filter
 * rule on purpose, since its author wrote no warp-level code.
 */
#define MUST_SHUFFLE                                                       \
	{ WB_MUST, WB_PTX, "shfl.sync", "warp shuffles (__shfl*_sync)",    \
	  "Exchanging values between lanes through registers is what this " \
	  "exercise teaches, in place of a tree in shared memory." }
#define MUST_WARP_VOTE                                                     \
	{ WB_MUST, WB_PTX, "vote.sync|shfl.sync",                           \
	  "a warp vote or shuffle (__ballot_sync, __shfl_sync, CUB's warp " \
	  "or block scan)",                                                  \
	  "Counting a warp's kept elements with a vote (or a warp scan) "    \
	  "instead of one atomic each is what this exercise teaches." }
#define NO_LIBRARY_SHFL                                                    \
	{ WB_MUST_NOT, WB_SYMBOLS, WB_PAT_LIBRARY,                          \
	  "a device-wide library algorithm (CUB's Device*, Thrust)",         \
	  "The exercise is your own kernel: cub::DeviceSegmentedReduce, "    \
	  "DeviceScan and DeviceSelect are make bench's comparison only." }

static const struct wb_exercise exercises[] = {
	{
		.name = "neighbors",
		.title = "every lane's (x, y, z) through __shfl_sync",
		.kind = WB_CORRECTNESS,
		.sizes = { NEIGHBORS_SIZES },
		/* A warm-up with no speed part: the correctness share of a
		 * speed exercise. */
		.points_correct = 40,
		/* One block per size: 30 s only stops a hang (a mask naming
		 * a lane that never arrives). */
		.timeout_s = 30,
		.setup = neighbors_setup,
		.run = neighbors_run,
		.check = neighbors_check,
		.rules = { MUST_SHUFFLE },
	},
	{
		.name = "segment_sum",
		.title = "sum of every 32-element segment",
		.kind = WB_SPEED,
		.sizes = { SEG_SIZES },
		/* 128M floats (512 MiB) read and 16 MiB written: eight times
		 * an H200's L2, and ~150 us at copy bandwidth, so timing
		 * measures DRAM with room to spare above launch overheads. */
		.bench = { { "n=128M", { 128u << 20 } } },
		/* Correct code earns 40; speed the other 60. */
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (the input read once, a
		 * float per segment written, at the rates the probes measure
		 * in the same rounds). Measured on an H100 80GB HBM3
		 * (tests/gpu/calibrate.sh, 2026-11-25): the naive shared-
		 * memory tree 499.5 us, 37%. Thread-per-element shuffles
		 * (ladder 1-shuffle) 49%, tier 1; one float4 per thread with
		 * width-8 shuffles (ladder 3-float4) 100% and the solution (8
		 * float4 in flight, a reduce-scatter) 98%: on the H100 wide
		 * loads alone reach the ceiling. Tier 2 (63%) separates the
		 * two steps; the top tier (80%) leaves the solution a 18%
		 * margin. CUB's segmented reduce took 185.7 us, the solution
		 * 188.4 us (README: why).
		 */
		.tiers = { { 0.44, 20 }, { 0.63, 40 }, { 0.80, 60 } },
		/* make profile: the naive's tree in shared memory (its
		 * traffic and stalls) against shuffles in registers, and the
		 * DRAM throughput wide loads reach. */
		.profile = WB_PROF_SHARED | WB_PROF_STALLS | WB_PROF_THROUGHPUT,
		/* The naive takes ~0.5 ms; 60 s only stops real hangs. */
		.timeout_s = 60,
		.setup = segment_sum_setup,
		.run = segment_sum_run,
		.check = segment_sum_check,
		.traffic = segment_sum_traffic,
		.rules = { MUST_SHUFFLE, NO_LIBRARY_SHFL },
	},
	{
		.name = "segment_scan",
		.title = "inclusive prefix sum inside every 32-element segment",
		.kind = WB_SPEED,
		.sizes = { SEG_SIZES },
		/* 64M floats read and written (256 MiB each way): four times
		 * an H200's L2, ~145 us at copy bandwidth. */
		.bench = { { "n=64M", { 64u << 20 } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (4 bytes read and 4
		 * written per element). Measured on an H100 80GB HBM3
		 * (tests/gpu/calibrate.sh, 2026-11-25): the naive Hillis-
		 * Steele in shared memory 308.0 us already reaches 56%, so
		 * little is left. Thread-per-element __shfl_up_sync (ladder
		 * 1-shuffle) 73%, tier 2; one float4 per thread with width-8
		 * shuffles (ladder 3-float4) 100% and the solution (then four
		 * float4 in flight) 96%. Tier 1 (63%) lies above the naive;
		 * the top tier (80%) leaves the solution a 17% margin. Since
		 * 2026-11-28 the solution is one float4 a lane, one tile a
		 * warp: 101.6% on an H200 (126.1 us, the one-probe speed of
		 * light), level with the CUB peer and a float4 copy.
		 */
		.tiers = { { 0.63, 20 }, { 0.68, 40 }, { 0.80, 60 } },
		/* make profile: as for segment_sum. */
		.profile = WB_PROF_SHARED | WB_PROF_STALLS | WB_PROF_THROUGHPUT,
		.timeout_s = 60,
		.setup = segment_scan_setup,
		.run = segment_scan_run,
		.check = segment_scan_check,
		.traffic = segment_scan_traffic,
		.rules = { MUST_SHUFFLE, NO_LIBRARY_SHFL },
	},
	{
		.name = "filter",
		.title = "keep the elements above a threshold (stream compaction)",
		.kind = WB_SPEED,
		.sizes = { FILTER_SIZES },
		/* 64M floats, half kept: 256 MiB read, ~128 MiB written,
		 * and 32M kept elements, each one atomic for the naive. */
		.bench = { { "n=64M", { 64u << 20, KEEP_HALF } } },
		.points_correct = 40,
		.points_speed = 60,
		/*
		 * Tiers: shares of the speed of light (every input read, the
		 * kept half and the count written). The naive's 32M
		 * atomicInc on one address serialise in the L2: 25.1 ms on an
		 * H100 80GB HBM3, 0.5% of it. It uses atomicInc because
		 * ptxas aggregates a plain atomicAdd(count, 1) per warp by
		 * itself: the naive's shape with atomicAdd (ladder
		 * 2-atomicadd) runs as fast as warp aggregation by hand
		 * (ladder 1-shuffle), both ~13.6x, 8% (tier 1 at 5%). One
		 * atomic per 256-element block (ladder 3-float4) ~71x, 43%,
		 * tier 2 (29%). The solution (4096-element tiles, float4)
		 * ~150x, near the speed of light: the top tier (76%) leaves
		 * it a margin of a fifth. (Speedups from the 2026-11-25
		 * H100 calibration before the speed of light was measured:
		 * tests/gpu/calibrate.sh records the shares.)
		 */
		.tiers = { { 0.05, 20 }, { 0.29, 40 }, { 0.76, 60 } },
		/* make profile: one atomic per kept element serialises in
		 * the L2 (DRAM idle, warps waiting); one per tile does not. */
		.profile = WB_PROF_THROUGHPUT | WB_PROF_STALLS,
		/* The naive may take tens of ms per call, and the benchmark
		 * size is checked three times (a 32M-element sort each):
		 * 120 s only stops real hangs. */
		.timeout_s = 120,
		.work_bytes = FILTER_WORK_BYTES,
		.setup = filter_setup,
		.run = filter_run,
		.check = filter_check,
		.traffic = filter_traffic,
		.rules = { MUST_WARP_VOTE, NO_LIBRARY_SHFL },
	},
	{
		.name = "lockstep",
		.title = "fix pre-Volta warp-synchronous code (a matvec row "
			 "per warp)",
		.kind = WB_CORRECTNESS,
		.sizes = { LOCKSTEP_SIZES },
		/* Correctness only, as neighbors: the lesson is a race, not
		 * a speed. */
		.points_correct = 40,
		/*
		 * The legacy code's race almost always gives the right
		 * answer, so the value checks cannot grade the fix: every
		 * grade runs racecheck (shared-memory hazards between the
		 * lanes, with no __syncwarp between them) and synccheck (a
		 * __syncwarp whose mask names lanes that do not call it),
		 * and a grade that cannot run them awards nothing.
		 */
		.sanitize = WB_SAN_RACECHECK | WB_SAN_SYNCCHECK,
		/* Ten small sizes: 30 s only stops a hang (a __syncwarp
		 * waiting for a lane that never arrives). The sanitizer
		 * tools have their own limit (docs/grading.md). */
		.timeout_s = 30,
		.setup = lockstep_setup,
		.run = lockstep_run,
		.check = lockstep_check,
	},
};

const struct wb_lab wb_lab = {
	.name = "02-shfl",
	.exercises = exercises,
	.count = sizeof(exercises) / sizeof(exercises[0]),
};
