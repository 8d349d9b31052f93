/* SPDX-License-Identifier: MIT */
/*
 * diag.c - from what the checks saw to the likely bug (see diag.h).
 *
 * Each pattern is tested strictly: a sentence is printed only when every
 * observation fits it, since a wrong hint costs a student more time than
 * none. The patterns are tried from the most to the least specific.
 */
#include "diag.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static const size_t edge_blocks[WB_DIAG_EDGES] = { 64, 128, 256, 512, 1024 };

void wb_diag_reset(struct wb_diag *d)
{
	memset(d, 0, sizeof(*d));
}

void wb_diag_add_size(struct wb_diag *d, const char *label,
		      const size_t n[WB_MAX_DIMS], int ok, int bench)
{
	struct wb_diag_size *s;

	if (d->nsizes >= (int)(sizeof(d->sizes) / sizeof(d->sizes[0])))
		return;
	s = &d->sizes[d->nsizes++];
	snprintf(s->label, sizeof(s->label), "%s", label);
	memcpy(s->n, n, sizeof(s->n));
	s->ok = ok;
	s->bench = bench;
	if (!ok && !d->first_fail[0])
		snprintf(d->first_fail, sizeof(d->first_fail), "%s", label);
}

void wb_diag_call_begin(struct wb_diag *d, int rerun)
{
	d->rerun = rerun;
	d->call = 0;
	d->call_bad = 0;
	if (!rerun)
		d->nkeep = 0;
}

void wb_diag_call_end(struct wb_diag *d, int ok)
{
	if (!d->rerun) {
		d->first_bad = d->call_bad;
		d->first_ok = ok;
		return;
	}
	d->reran = 1;
	/* A different count is a different result, whatever the values. */
	if (ok != d->first_ok || d->call_bad != d->first_bad)
		d->differs = 1;
	d->rerun = 0;
}

static int is_poison(float x)
{
	return wb_poisoned_words(&x, 1) == 1;
}

/* A first run's bad value: counted by kind and by place. */
static void note_bad(struct wb_diag *d, size_t i, size_t n, float g,
		     double want, double tol)
{
	d->bad++;
	if (is_poison(g))
		d->poisoned++;
	else if (!isfinite(g))
		d->nonfinite++;
	else if (g == 0 && want != 0)
		d->zeros++;
	if (n >= WB_DIAG_WIDE) {
		d->wide_bad++;
		d->lane[i % 32]++;
		for (int b = 0; b < WB_DIAG_EDGES; b++) {
			size_t r = i % edge_blocks[b];

			d->edge[b] += r == 0 || r == edge_blocks[b] - 1;
		}
	}
	if (d->nkeep < WB_DIAG_KEEP) {
		struct wb_diag_mark *m = &d->keep[d->nkeep++];

		m->call = d->call;
		m->index = i;
		m->got = g;
		m->tol = tol;
	}
}

/*
 * A re-run: do the values remembered from the first run still hold? Wrong
 * values summed in another order (atomics) differ by rounding, relative to
 * their own size: 1e-3 of it is allowed on top of the tolerance, far less
 * than the part of a result a race loses.
 */
static void compare_kept(struct wb_diag *d, const float *got, size_t n)
{
	for (int k = 0; k < d->nkeep; k++) {
		const struct wb_diag_mark *m = &d->keep[k];
		double g, slack;

		if (m->call != d->call || m->index >= n)
			continue;
		g = got[m->index];
		slack = m->tol + 1e-3 * fmax(fabs(g), fabs(m->got));
		if (isnan(g) != isnan(m->got) || isinf(g) != isinf(m->got) ||
		    (isfinite(g) && isfinite(m->got) && !(fabs(g - m->got) <= slack)))
			d->differs = 1;
	}
}

void wb_diag_cmp_f32(struct wb_diag *d, const float *got, const double *want,
		     size_t n, double atol, double rtol)
{
	size_t first = n, last = 0, bad = 0;

	if (d->rerun)
		compare_kept(d, got, n);
	for (size_t i = 0; i < n; i++) {
		double tol = atol + rtol * fabs(want[i]);

		if (wb_close(got[i], want[i], atol, rtol))
			continue;
		bad++;
		if (d->rerun)
			continue;
		note_bad(d, i, n, got[i], want[i], tol);
		first = i < first ? i : first;
		last = i;
	}
	if (!d->rerun) {
		d->compared += n;
		if (bad && n >= WB_DIAG_WIDE && last - first > d->span)
			d->span = last - first;
	}
	d->call_bad += bad;
	d->call++;
}

void wb_diag_cmp_ok(struct wb_diag *d, size_t n)
{
	if (!d->rerun)
		d->compared += n;
	d->call++;
}

void wb_diag_cmp_ok_n(struct wb_diag *d, size_t n, size_t calls)
{
	if (!d->rerun)
		d->compared += n;
	d->call += (int)calls;
}

void wb_diag_cmp_i64(struct wb_diag *d, const int64_t *got,
		     const int64_t *want, size_t n)
{
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		if (got[i] == want[i])
			continue;
		bad++;
		if (d->rerun) {
			/* Exact values: any difference from run 1 counts. */
			for (int k = 0; k < d->nkeep; k++)
				if (d->keep[k].call == d->call &&
				    d->keep[k].index == i &&
				    d->keep[k].got != (double)got[i])
					d->differs = 1;
			continue;
		}
		d->bad++;
		d->poisoned += got[i] == -1;
		d->zeros += got[i] == 0;
		if (d->nkeep < WB_DIAG_KEEP) {
			d->keep[d->nkeep].call = d->call;
			d->keep[d->nkeep].index = i;
			d->keep[d->nkeep].got = (double)got[i];
			d->keep[d->nkeep++].tol = 0;
		}
	}
	if (!d->rerun)
		d->compared += n;
	d->call_bad += bad;
	d->call++;
}

/* The number of extents the sizes use (1 for "n=33", 2 for "129x33"). */
static int dims_used(const struct wb_diag *d)
{
	int dims = 1;

	for (int i = 0; i < d->nsizes; i++)
		for (int k = WB_MAX_DIMS - 1; k >= dims; k--)
			if (d->sizes[i].n[k]) {
				dims = k + 1;
				break;
			}
	return dims;
}

/*
 * Only sizes whose extent k is not a multiple of m fail: every multiple
 * passed (at least one exists) and at least two sizes failed; exact: every
 * non-multiple failed, else at least half of them (a read past the end can
 * be right by luck).
 */
static int tail_holds(const struct wb_diag *d, int k, size_t m, int exact)
{
	int multiples = 0, others = 0, failed = 0;

	for (int i = 0; i < d->nsizes; i++) {
		const struct wb_diag_size *s = &d->sizes[i];

		if (s->bench)
			continue;
		if (s->n[k] % m == 0) {
			if (!s->ok)
				return 0;
			multiples++;
		} else {
			others++;
			failed += !s->ok;
		}
	}
	if (!multiples || failed < 2)
		return 0;
	return exact ? failed == others : 2 * failed >= others;
}

/* "4", "4 or 8", "64, 128 or 256": the m that fit, in words. */
static void list_ms(const size_t *m, int n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%zu",
				 i == 0 ? "" : i == n - 1 ? " or " : ", ", m[i]);
}

static int tail_cause(const struct wb_diag *d, char *buf, size_t n)
{
	static const size_t ms[] = { 4, 8, 16, 32, 64, 128, 256, 512, 1024 };
	const int nms = sizeof(ms) / sizeof(ms[0]);
	int dims = dims_used(d);

	for (int k = dims - 1; k >= 0; k--) {
		size_t fit[sizeof(ms) / sizeof(ms[0])];
		char list[160] = "", which[64];
		size_t used = 0;
		int nfit = 0;

		/* Every m the sizes cannot tell apart; if none fits exactly,
		 * the smallest that fits loosely. */
		for (int j = 0; j < nms; j++)
			if (tail_holds(d, k, ms[j], 1))
				fit[nfit++] = ms[j];
		for (int j = 0; !nfit && j < nms; j++)
			if (tail_holds(d, k, ms[j], 0))
				fit[nfit++] = ms[j];
		if (!nfit)
			continue;
		list_ms(fit, nfit, which, sizeof(which));
		for (int i = 0; i < d->nsizes && used < sizeof(list) - 40; i++)
			if (!d->sizes[i].ok && !d->sizes[i].bench)
				used += snprintf(list + used, sizeof(list) - used,
						 "%s%s", used ? ", " : "",
						 d->sizes[i].label);
		snprintf(buf, n, "only sizes whose %s is not a multiple of %s "
				 "fail (%s): a missing tail guard, or a vector or "
				 "block path with no code for the remainder",
			 dims == 1 ? "n" : k == dims - 1 ? "last extent" :
							   "first extent",
			 which, list);
		return 1;
	}
	return 0;
}

/* Every bad value is the first or last of a block of B (largest B). */
static int edge_cause(const struct wb_diag *d, char *buf, size_t n)
{
	if (d->wide_bad < 2 || d->wide_bad != d->bad)
		return 0;
	for (int b = WB_DIAG_EDGES - 1; b >= 0; b--) {
		if (d->edge[b] != d->wide_bad || d->span < edge_blocks[b])
			continue;
		snprintf(buf, n, "the wrong values sit only at the edges of "
				 "every block of %zu elements: a value read across "
				 "a block or tile boundary before it was written (a "
				 "missing __syncthreads, or a halo not loaded)",
			 edge_blocks[b]);
		return 1;
	}
	return 0;
}

/* Every bad value falls in the same few lanes of a warp. */
static int lane_cause(const struct wb_diag *d, char *buf, size_t n)
{
	char lanes[64] = "";
	size_t used = 0;
	int distinct = 0;

	if (d->wide_bad < 4 || d->wide_bad != d->bad || d->span < 64)
		return 0;
	for (int l = 0; l < 32; l++) {
		if (!d->lane[l])
			continue;
		if (++distinct > 4)
			return 0;
		used += snprintf(lanes + used, sizeof(lanes) - used, "%s%d",
				 used ? ", " : "", l);
	}
	snprintf(buf, n, "the wrong values repeat every 32 elements, at index "
			 "%% 32 = %s only: look at the shuffle's mask, offset or "
			 "width, and at the lane arithmetic (threadIdx.x %% 32)",
		 lanes);
	return 1;
}

/* Not one value written, at any size. */
static int poison_cause(const struct wb_diag *d, char *buf, size_t n)
{
	if (!d->bad || d->poisoned != d->bad || d->compared != d->bad)
		return 0;
	snprintf(buf, n, "no output value was ever written (all still "
			 "poison): the kernel did not run (check its launch "
			 "and CUDA_CHECK_LAUNCH), or wrote somewhere else");
	return 1;
}

/* Kind-of-value causes: NaN or inf, zeros. */
static int value_cause(const struct wb_diag *d, char *buf, size_t n)
{
	if (d->nonfinite) {
		snprintf(buf, n, "NaN or inf among the results: uninitialised "
				 "(shared) memory read, a division by zero, or an "
				 "overflow such as exp of a large value");
		return 1;
	}
	if (d->bad && d->zeros == d->bad) {
		snprintf(buf, n, "every wrong value is 0: that part of the "
				 "result was never computed, or was zeroed after");
		return 1;
	}
	return 0;
}

int wb_diag_cause(const struct wb_diag *d, char *buf, size_t n)
{
	if (poison_cause(d, buf, n))
		return 1;
	if (d->input_modified) {
		snprintf(buf, n, "an input was modified: inputs are read-only "
				 "(keep partial results in registers, shared memory "
				 "or the workspace)");
		return 1;
	}
	if (d->fresh_wrong) {
		snprintf(buf, n, "right until the inputs changed under the same "
				 "pointers: a result kept from an earlier call (every "
				 "call must compute from its inputs)");
		return 1;
	}
	if (tail_cause(d, buf, n))
		return 1;
	if (d->reran && d->differs) {
		snprintf(buf, n, "the same input gave different results on two "
				 "runs: a race (a missing __syncthreads or "
				 "__syncwarp, an unsynchronised read of shared "
				 "memory), or memory read before it was written");
		return 1;
	}
	if (edge_cause(d, buf, n) || lane_cause(d, buf, n) ||
	    value_cause(d, buf, n))
		return 1;
	if (d->bench_wrong) {
		snprintf(buf, n, "every small size passed but a benchmark shape "
				 "failed: look for 32-bit index arithmetic that "
				 "overflows, a grid over its limits, or a workspace "
				 "too small for many blocks");
		return 1;
	}
	if (d->timed_wrong) {
		snprintf(buf, n, "every checked call was right but a timed one "
				 "was not: state kept between calls (a result cached "
				 "from an earlier call, a counter or accumulator not "
				 "reset), or a race that shows under repetition");
		return 1;
	}
	return 0;
}

void wb_diag_reproduce(const struct wb_diag *d, const char *lab,
		       const char *exercise, uint64_t seed, char *buf,
		       size_t n)
{
	int used = snprintf(buf, n, "reproduce: make grade LAB=%s EX=%s "
				    "SEED=%" PRIu64, lab, exercise, seed);

	if (d->first_fail[0] && used > 0 && (size_t)used < n)
		snprintf(buf + used, n - used, "; the first failing size "
					       "alone: add SIZE='%s'",
			 d->first_fail);
}

/* The runner's: one exercise per process. */
struct wb_diag wb_diag;
