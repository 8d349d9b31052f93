/* SPDX-License-Identifier: MIT */
/*
 * ex_segments.c - lab 02's segment_sum and segment_scan: their CPU
 * references, the setup they share, and their hooks for the table in
 * lab.c. A file per exercise (these two share one) keeps lab.c the table
 * alone.
 */
#include "harness.h"
#include "shfl.h"
#include "lab_hooks.h"

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

int lab02_segment_sum_setup(struct wb_ctx *c)
{
	return seg_setup(c, n_segments(c->size->n[0]));
}

typedef void seg_fn(const float *, size_t, float *);

int lab02_segment_sum_run(struct wb_ctx *c, enum wb_impl impl)
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

void lab02_segment_sum_check(struct wb_ctx *c)
{
	size_t n = c->size->n[0], m = n_segments(n);

	wb_check_chunks(c, wb_ceil_div(m, CHECK_CHUNK), CHECK_CHUNK,
			segment_sum_chunk, NULL, segment_sum_note);
	if (c->failed && n % SHFL_SEG)
		wb_fail(c, "  (the last segment, out[%zu], is partial: "
			   "in[%zu .. %zu])", m - 1, (m - 1) * SHFL_SEG, n - 1);
}

/* Every input read once, one float written per segment. */
void lab02_segment_sum_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 4.0 * n_segments(s->n[0]);
}

/* ---- segment_scan ---- */

int lab02_segment_scan_setup(struct wb_ctx *c)
{
	return seg_setup(c, c->size->n[0]);
}

int lab02_segment_scan_run(struct wb_ctx *c, enum wb_impl impl)
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
void lab02_segment_scan_check(struct wb_ctx *c)
{
	wb_check_chunks(c, wb_ceil_div(c->size->n[0], CHECK_CHUNK),
			CHECK_CHUNK, segment_scan_chunk, NULL,
			segment_scan_note);
}

void lab02_segment_scan_traffic(const struct wb_size *s, struct wb_traffic *t)
{
	t->read = 4.0 * s->n[0];
	t->write = 4.0 * s->n[0];
}
