/* SPDX-License-Identifier: MIT */
/*
 * bench.c - time one benchmark shape: rounds of interleaved samples, the
 * speed of light measured in the same rounds, and a stopping rule on the
 * grade itself.
 *
 * A round times every series once: the naive, the probes of the speed of
 * light (a read-only kernel over the bytes the exercise must read, a
 * write-only one over the bytes it must write: probe.h), and the student
 * (or, for the grader's reference, the library peer), in an order drawn
 * for each round from its seed (shuffle.h): no series always runs first,
 * or right after the same other one, and no call can count on running
 * right after the naive. Every round gets new inputs, and the student's
 * call never the ones the naive just ran on (fresh.c).
 *
 * Each round gives, paired, the student's share of the ideal time (ideal /
 * student, the ideal from the same round's probes: harness.h, enum
 * wb_ideal) and its speedup over the naive (naive / student). Drift of the
 * clocks or the memory between rounds cancels in the pairs. Grading stops
 * once the 95% interval of the median pair, mapped through the tiers to
 * points (scale.h), is WB_POINTS_TOL wide or less: the grade is known,
 * wherever it lies. Comparisons (make bench) and references stop when every
 * median's standard error is under WB_TARGET_REL_ERR instead.
 *
 * Rounds in which the spacer saw a throttled SM clock are thrown away.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "buffers.h"
#include "fate.h"
#include "fresh.h"
#include "integrity.h"
#include "knobs.h"
#include "probe.h"
#include "result.h"
#include "shuffle.h"
#include "timing.h"
#include "workbook.h"

/* Larger probes are timed at this size and scaled: the rate is the same,
 * and a GPU with little memory can still hold them. */
#define PROBE_MAX_BYTES (512ull << 20)

/* Samples of each variant when picking the best probe of a kind. */
#define PROBE_TRIALS 5

enum { S_NAIVE, S_OTHER, S_READ, S_WRITE, S_LAUNCH, S_COUNT };

/* One series of samples: an implementation, or a probe. */
struct series {
	const char *name;
	int on;
	int is_probe;
	enum wb_impl impl;
	enum wb_probe probe;
	enum wb_probe alt; /* the other variant, tried after the warm-up */
	void *buf;        /* a probe's memory */
	size_t bytes;     /* what a probe moves each way */
	double scale;     /* the exercise's bytes over the probe's */
	double *ms;       /* kept rounds */
	double *mhz;
};

struct rounds {
	struct wb_ctx *c;
	enum wb_bench_kind kind;
	const struct wb_decision *d;
	struct wb_timer t;
	struct series s[S_COUNT];
	int order[S_COUNT], n_order; /* the series that run (a round runs
				      * them in an order of its own) */
	uint64_t order_key;      /* each round's order is drawn from it */
	struct wb_traffic tr;    /* what the exercise must move */
	double ideal[WB_MAX_SAMPLES]; /* kept rounds' ideal times (ideal_of) */
	size_t kept, discarded, extra;
	int verified, throttled;
	double *all_mhz;
	size_t n_mhz;
	double low_mhz;   /* the last round's lowest spacer clock (0: none) */
	struct wb_rng pick;      /* which rounds' outputs are checked */
	double t0;
	double verify_s;  /* in checks of timed outputs (phases) */
};

/* ---- the work of one sample ---- */

struct impl_call {
	struct wb_ctx *c;
	enum wb_impl impl;
};

static void run_impl(void *arg)
{
	struct impl_call *ic = arg;

	ic->c->ex->run(ic->c, ic->impl);
}

static void run_probe(void *arg)
{
	struct series *s = arg;

	WB_CUDA(wb_probe_run(s->probe, s->buf, s->buf, s->bytes));
}

static void sample(struct rounds *r, struct series *s, struct wb_sample *out)
{
	struct impl_call ic = { r->c, s->impl };

	if (s->is_probe) {
		wb_now(WB_NAIVE); /* the harness's own: a failure is no crime */
		wb_where("timing the %s probe", s->name);
		wb_time_sample(&r->t, run_probe, s, out);
		return;
	}
	wb_now(s->impl);
	wb_where("timing the %s code", s->name);
	wb_fresh_prepare(r->c, s->impl);
	wb_time_sample(&r->t, run_impl, &ic, out);
}

/* ---- the probes ---- */

/* Median time of PROBE_TRIALS samples of probe p over s's buffer. */
static double trial(struct rounds *r, struct series *s, enum wb_probe p)
{
	double ms[PROBE_TRIALS];
	struct wb_sample one;
	struct wb_summary sum;

	s->probe = p;
	for (int i = -1; i < PROBE_TRIALS; i++) {
		sample(r, s, &one);
		if (i >= 0)
			ms[i] = one.ms;
	}
	wb_summarize(ms, PROBE_TRIALS, &sum);
	return sum.median;
}

/* Set up the probe of `bytes` (0: none) and pick its best variant. */
static void probe_setup(struct series *s, const char *name, double bytes,
			enum wb_probe a, enum wb_probe b)
{
	size_t size = (size_t)bytes / 16 * 16;

	s->name = name;
	s->is_probe = 1;
	if (bytes < WB_PROBE_MIN_BYTES)
		return;
	if (size > PROBE_MAX_BYTES)
		size = PROBE_MAX_BYTES;
	/* Short of memory: smaller probes measure the same rate. */
	while (cudaMalloc(&s->buf, size) != cudaSuccess) {
		cudaGetLastError();
		size /= 2;
		if (size < WB_PROBE_MIN_BYTES)
			wb_die("no device memory for the speed-of-light probes");
	}
	WB_CUDA(wb_fill_pattern(s->buf, size, 0x5eed));
	s->bytes = size;
	s->scale = bytes / (double)size;
	s->on = 1;
	s->probe = a;
	s->alt = b;
}

/* After the warm-up: keep the faster of the probe's two variants. */
static void probe_pick(struct rounds *r, struct series *s)
{
	enum wb_probe a = s->probe, b = s->alt;
	double ta, tb;

	if (!s->on || a == b)
		return;
	ta = trial(r, s, a);
	tb = trial(r, s, b);
	s->probe = tb < ta ? b : a;
}

/* ---- one round ---- */

static int verify_now(struct rounds *r, size_t round);

static double median_of(const double *x, size_t n)
{
	struct wb_summary s;

	return wb_summarize(x, n, &s) ? 0 : s.median;
}

/*
 * The ideal time of kept round k (ms), 0 when it is not known. Each
 * probe's sample holds one launch; so would one kernel that read and
 * wrote, so where the launch is timed too (a small shape) the ideal is
 * the two probes less one launch, and never less than either probe.
 */
static double ideal_of(const struct rounds *r, size_t k)
{
	const struct series *rd = &r->s[S_READ], *wr = &r->s[S_WRITE];
	const struct series *ln = &r->s[S_LAUNCH];
	double dram = 0, instr, one_kernel;

	if (rd->on)
		dram += rd->ms[k] * rd->scale;
	if (wr->on)
		dram += wr->ms[k] * wr->scale;
	if (ln->on) {
		one_kernel = fmax(rd->ms[k] * rd->scale, wr->ms[k] * wr->scale);
		dram = fmax(dram - ln->ms[k], one_kernel);
	}
	switch (r->c->ex->ideal) {
	case WB_IDEAL_PEER:
		return r->d ? r->d->peer_ms : 0;
	case WB_IDEAL_INSTR:
		instr = r->s[S_NAIVE].ms[k] / r->c->ex->instr_speedup;
		return instr > dram ? instr : dram;
	default:
		return dram;
	}
}

/* A series whose code is the harness's or the lab's own: the naive, the
 * probes, a library peer; never the student's. */
static int trusted(const struct series *s)
{
	return s->is_probe || s->impl != WB_STUDENT;
}

/*
 * Work that outlived a call (another stream) is what the gap from its
 * stop event to the event after a device-wide synchronisation shows
 * beyond the gap of an empty region. That gap also grows with the host's
 * wake-up after a long wait (on an H100, 14 of 15 rounds of an honest
 * 3 ms matmul showed a few microseconds), so it is measured against the
 * trusted samples of the same round, which launch on no other stream:
 * only a gap beyond theirs is counted, and theirs never is. Returns 1
 * when the student's sample counted some.
 */
static int recount_tails(struct rounds *r, struct wb_sample *got)
{
	double noise = 0;
	int extra = 0;

	for (int i = 0; i < S_COUNT; i++)
		if (r->s[i].on && trusted(&r->s[i]) && got[i].tail_ms > noise)
			noise = got[i].tail_ms;
	for (int i = 0; i < S_COUNT; i++) {
		if (!r->s[i].on)
			continue;
		wb_sample_recount(&r->t, &got[i], noise, trusted(&r->s[i]));
		extra |= !trusted(&r->s[i]) && got[i].extra_ms > 0;
	}
	return extra;
}

/*
 * Time every series once. Returns 1 when the round is kept, 0 when the
 * spacer saw a throttled clock, -1 when a checked output was wrong.
 */
static int one_round(struct rounds *r, size_t round, int warm)
{
	/* Warm-up, timed and final rounds: keys that never meet. */
	uint64_t k = round + (warm ? 1ull << 32 : 0);
	struct wb_sample got[S_COUNT];
	double low = INFINITY, ref;
	int extra = 0, wrong = 0, order[S_COUNT];

	wb_fresh_round(r->c, k);
	memcpy(order, r->order, sizeof(order));
	wb_shuffle(order, r->n_order, r->order_key ^ k);
	for (int j = 0; j < r->n_order; j++) {
		int i = order[j];
		struct series *s = &r->s[i];

		sample(r, s, &got[i]);
		if (got[i].mhz > 0 && got[i].mhz < low)
			low = got[i].mhz;
		r->low_mhz = isinf(low) ? 0 : low;
		if (i == S_OTHER && !warm && r->kind == WB_BENCH_GRADE)
			wrong = verify_now(r, round);
		if (wrong)
			return -1;
	}
	extra = recount_tails(r, got);
	if (warm)
		return 1;
	ref = r->n_mhz ? median_of(r->all_mhz, r->n_mhz) : 0;
	for (int i = 0; i < S_COUNT; i++)
		if (r->s[i].on && got[i].mhz > 0)
			r->all_mhz[r->n_mhz++] = got[i].mhz;
	if (ref > 0 && low < WB_THROTTLE_FRAC * ref && !r->throttled) {
		r->discarded++;
		if (r->discarded > 8 &&
		    r->discarded > WB_THROTTLE_MAX_SHARE * (r->kept + r->discarded))
			r->throttled = 1; /* from now on, every round counts */
		return 0;
	}
	for (int i = 0; i < S_COUNT; i++) {
		if (!r->s[i].on)
			continue;
		r->s[i].ms[r->kept] = got[i].ms;
		r->s[i].mhz[r->kept] = got[i].mhz;
	}
	r->ideal[r->kept] = ideal_of(r, r->kept);
	r->extra += extra;
	r->kept++;
	return 1;
}

/* ---- what the rounds measured ---- */

/* Paired per-round ratios a[k] / b[k] (a: the naive, or the ideal when
 * `which`; b: the student), their median and its 95% interval. */
static int paired(const struct rounds *r, int which, struct wb_ci *ci)
{
	const double *a = which ? r->ideal : r->s[S_NAIVE].ms;
	const double *b = r->s[S_OTHER].ms;
	double x[WB_MAX_SAMPLES];
	size_t n = 0;

	for (size_t k = 0; k < r->kept; k++)
		if (a[k] > 0 && b[k] > 0)
			x[n++] = log(a[k] / b[k]);
	if (!n || wb_median_ci(x, n, WB_CI_Z, &ci->lo, &ci->med, &ci->hi)) {
		memset(ci, 0, sizeof(*ci));
		return -1;
	}
	ci->lo = exp(ci->lo);
	ci->med = exp(ci->med);
	ci->hi = exp(ci->hi);
	return 0;
}

/* naive / ideal over the kept rounds: what turns shares into speedups. */
static double naive_over_ideal(const struct rounds *r)
{
	double x[WB_MAX_SAMPLES];
	size_t n = 0;

	for (size_t k = 0; k < r->kept; k++)
		if (r->ideal[k] > 0)
			x[n++] = r->s[S_NAIVE].ms[k] / r->ideal[k];
	return n ? median_of(x, n) : 0;
}

static double rel_err(const struct series *s, size_t n)
{
	struct wb_summary sum;

	if (wb_summarize(s->ms, n, &sum))
		return INFINITY;
	return wb_median_rel_err(&sum);
}

/*
 * The grade's stopping rule: the 95% intervals of the student's share (or
 * speedup, for a course's fixed tiers), mapped to points, lie within
 * WB_POINTS_TOL of each other; and the naive's median is known to 2%
 * (the driver compares it with its reference). Without tiers or without
 * an ideal, the speedup's interval within 1% either way.
 */
static int grade_known(const struct rounds *r)
{
	const struct wb_scale_in *ti = r->d ? &r->d->tiers : NULL;
	struct wb_ci share, speedup, *ci = &speedup;
	struct wb_scale sc;

	if (rel_err(&r->s[S_NAIVE], r->kept) > 0.02 ||
	    paired(r, 0, &speedup))
		return 0;
	if (ti && ti->n && ti->unit == WB_SCALE_SHARE)
		ci = paired(r, 1, &share) ? NULL : &share;
	if (!ti || !ti->n || !ci ||
	    wb_scale_make(&sc, ti->unit, ti->x, ti->pts, ti->n,
			  naive_over_ideal(r)))
		return speedup.hi / speedup.lo < 1.02;
	return wb_scale_points(&sc, ci->hi, NULL, NULL) -
	       wb_scale_points(&sc, ci->lo, NULL, NULL) <= WB_POINTS_TOL;
}

/*
 * After any round: each round's order is drawn anew (one_round), so the
 * last round's order is as random as every other's. The rule itself is
 * stats.h's: at least WB_MIN_SAMPLES rounds, at most WB_MAX_SAMPLES or
 * WB_MAX_TIMING_S; in between, a grade stops when it is known
 * (grade_known), anything else when every median is known to
 * WB_TARGET_REL_ERR.
 */
static int should_stop(const struct rounds *r)
{
	static const struct wb_stop_rule rule = {
		.min_samples = WB_MIN_SAMPLES,
		.max_samples = WB_MAX_SAMPLES,
		.target_rel_err = WB_TARGET_REL_ERR,
		.max_seconds = WB_MAX_TIMING_S,
	};
	double err[S_COUNT];
	size_t n = 0;

	if (r->kept + r->discarded >= 4 * WB_MAX_SAMPLES - 1)
		return 1; /* throttled throughout: the buffers end here */
	if (r->kind == WB_BENCH_GRADE)
		err[n++] = r->kept >= WB_MIN_SAMPLES && grade_known(r) ?
			   0 : INFINITY;
	else
		for (int i = 0; i < S_COUNT; i++)
			if (r->s[i].on)
				err[n++] = rel_err(&r->s[i], r->kept);
	return wb_should_stop(&rule, r->kept, wb_phase_now() - r->t0, err, n);
}

/* ---- checks of timed outputs ---- */

/* Check the student's output now in the buffers against the inputs of
 * the round it ran on: 0 right, -1 wrong (details written). */
static int check_timed(struct rounds *r, const char *what)
{
	struct wb_ctx *c = r->c;
	int oob;

	wb_now(WB_STUDENT);
	c->failed = 0;
	wb_fresh_host_begin(c);
	oob = wb_bufs_readback(c, 1) == WB_GUARDS_HIT;
	if (!oob)
		c->ex->check(c);
	wb_fresh_host_end(c);
	if (!oob && !c->failed)
		return 0;
	wb_result("detail", "%s", what);
	if (oob)
		wb_diag.timed_oob = 1;
	else
		wb_diag.timed_wrong = 1;
	return -1;
}

static int verify_now(struct rounds *r, size_t round)
{
	char what[128];

	double t0;
	int wrong;

	if (r->verified >= WB_VERIFY_MAX ||
	    wb_rng_unit(&r->pick) >= WB_VERIFY_P)
		return 0;
	r->verified++;
	snprintf(what, sizeof(what), "the output of a timed call (round %zu, "
		 "on that round's inputs) was wrong", round + 1);
	t0 = wb_phase_now();
	wrong = check_timed(r, what);
	r->verify_s += wb_phase_now() - t0;
	return wrong;
}

/* One more call after the rounds, on inputs no call has seen, checked. */
static int final_call(struct rounds *r, size_t round)
{
	struct wb_ctx *c = r->c;

	wb_fresh_round(c, round + (1ull << 33));
	wb_fresh_prepare(c, WB_STUDENT);
	wb_now(WB_STUDENT);
	wb_where("running the student code on new inputs after the timing");
	WB_CUDA(cudaDeviceSynchronize());
	c->ex->run(c, WB_STUDENT);
	WB_CUDA(cudaGetLastError());
	WB_CUDA(cudaDeviceSynchronize());
	r->verified++;
	if (!check_timed(r, "a call on new inputs in the same buffers, right "
			    "after the timed calls, was wrong"))
		return 0;
	wb_diag.fresh_wrong = 1;
	return -1;
}

/* ---- the whole shape ---- */

static void series_impl(struct rounds *r, int i, const char *name,
			enum wb_impl impl)
{
	r->s[i].name = name;
	r->s[i].on = 1;
	r->s[i].impl = impl;
}

static void summarize(const struct rounds *r, struct wb_shape_time *st)
{
	const struct series *s = r->s;
	size_t n = r->kept;
	struct wb_summary clk;

	wb_summarize(s[S_NAIVE].ms, n, &st->naive);
	st->timed_naive = 1;
	if (r->kind == WB_BENCH_REFERENCE) {
		wb_summarize(s[S_OTHER].ms, n, &st->peer);
		st->timed_peer = s[S_OTHER].on;
	} else {
		wb_summarize(s[S_OTHER].ms, n, &st->student);
		st->timed_student = 1;
	}
	st->have_ideal = n && r->ideal[0] > 0;
	if (st->have_ideal)
		wb_summarize(r->ideal, n, &st->ideal);
	if (r->kind != WB_BENCH_REFERENCE) {
		paired(r, 0, &st->speedup);
		if (st->have_ideal)
			paired(r, 1, &st->share);
		/* what the report states covers a rerun (knobs.h) */
		wb_ci_rerun(&st->speedup.lo, st->speedup.med, &st->speedup.hi,
			    s[S_LAUNCH].on ? WB_RUN_TO_RUN_SMALL : WB_RUN_TO_RUN);
		wb_ci_rerun(&st->share.lo, st->share.med, &st->share.hi,
			    s[S_LAUNCH].on ? WB_RUN_TO_RUN_SMALL :
			    r->c->ex->ideal == WB_IDEAL_PEER ?
			    WB_RUN_TO_RUN_PEER : WB_RUN_TO_RUN);
	}
	st->naive_over_ideal = naive_over_ideal(r);
	if (s[S_LAUNCH].on)
		st->launch_us = median_of(s[S_LAUNCH].ms, n) * 1e3;
	st->read_probe = s[S_READ].on ? (int)s[S_READ].probe : -1;
	st->write_probe = s[S_WRITE].on ? (int)s[S_WRITE].probe : -1;
	if (s[S_READ].on)
		st->read_gbps = s[S_READ].bytes / median_of(s[S_READ].ms, n) / 1e6;
	if (s[S_WRITE].on)
		st->write_gbps = s[S_WRITE].bytes / median_of(s[S_WRITE].ms, n) / 1e6;
	if (!wb_summarize(r->all_mhz, r->n_mhz, &clk)) {
		st->mhz_min = clk.min;
		st->mhz_med = clk.median;
		st->mhz_max = clk.max;
	}
	st->rounds = (int)n;
	st->discarded = (int)r->discarded;
	st->extra = (int)r->extra;
	st->resets = r->t.resets;
	st->verified = r->verified;
	st->throttled = r->throttled;
}

/*
 * A small shape, one both read and written (knobs.h, WB_LAUNCH_BYTES),
 * also times an empty kernel each round: its ideal holds one launch, not
 * the two the probes hold (ideal_of).
 */
static void launch_setup(struct rounds *r)
{
	struct series *s = &r->s[S_LAUNCH];

	s->name = "launch";
	s->is_probe = 1;
	if (!r->s[S_READ].on || !r->s[S_WRITE].on ||
	    r->tr.read + r->tr.write >= WB_LAUNCH_BYTES ||
	    r->c->ex->ideal == WB_IDEAL_PEER)
		return;
	s->on = 1;
	s->probe = s->alt = WB_PROBE_LAUNCH;
	s->scale = 1;
}

static void rounds_free(struct rounds *r)
{
	for (int i = 0; i < S_COUNT; i++) {
		free(r->s[i].ms);
		free(r->s[i].mhz);
		if (r->s[i].buf)
			cudaFree(r->s[i].buf);
	}
	free(r->all_mhz);
	wb_timer_free(&r->t);
}

static void rounds_init(struct rounds *r, struct wb_ctx *c, uint64_t seed,
			enum wb_bench_kind kind, const struct wb_decision *d)
{
	memset(r, 0, sizeof(*r));
	r->c = c;
	r->kind = kind;
	r->d = d;
	wb_rng_seed(&r->pick, wb_seed_mix(wb_seed_mix(seed, c->ex->name),
					  "which timed outputs are checked"));
	r->order_key = wb_seed_mix(wb_seed_mix(wb_seed_mix(seed, c->ex->name),
					       c->size->label),
				   "the order of a round's series");
	for (int i = 0; i < S_COUNT; i++) {
		r->s[i].ms = calloc(WB_MAX_SAMPLES, sizeof(double));
		r->s[i].mhz = calloc(WB_MAX_SAMPLES, sizeof(double));
		if (!r->s[i].ms || !r->s[i].mhz)
			wb_die("out of host memory for samples");
	}
	r->all_mhz = calloc((size_t)S_COUNT * 4 * WB_MAX_SAMPLES, sizeof(double));
	if (!r->all_mhz)
		wb_die("out of host memory for samples");
	wb_timer_init(&r->t);
	series_impl(r, S_NAIVE, "naive", WB_NAIVE);
	if (kind == WB_BENCH_REFERENCE) {
		if (d && d->with_peer)
			series_impl(r, S_OTHER, "peer", WB_PEER);
	} else {
		series_impl(r, S_OTHER, "student", WB_STUDENT);
	}
	if (c->ex->traffic)
		c->ex->traffic(c->size, &r->tr);
	probe_setup(&r->s[S_READ], "read", r->tr.read, WB_PROBE_READ8,
		    WB_PROBE_READ4);
	probe_setup(&r->s[S_WRITE], "write", r->tr.write, WB_PROBE_WRITE4,
		    WB_PROBE_MEMSET);
	launch_setup(r);
	/* The series that run; one_round() shuffles them every round. */
	for (int i = 0; i < S_COUNT; i++) {
		static const int all[S_COUNT] = { S_NAIVE, S_READ, S_WRITE,
						  S_LAUNCH, S_OTHER };

		if (r->s[all[i]].on)
			r->order[r->n_order++] = all[i];
	}
}

/* The GPU's highest SM clock in MHz (0 when the runtime does not say). */
static double max_sm_mhz(void)
{
	int khz = 0;

	if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0) != cudaSuccess)
		return 0;
	return khz / 1e3;
}

enum wb_verdict wb_bench_shape(struct wb_ctx *c, uint64_t seed,
			       enum wb_bench_kind kind,
			       const struct wb_decision *d,
			       struct wb_shape_time *st)
{
	enum wb_verdict v = WB_V_PASS;
	struct rounds r;
	size_t round = 0;
	double w0, max_mhz = max_sm_mhz();
	int got;

	memset(st, 0, sizeof(*st));
	wb_fresh_start(c, seed);
	rounds_init(&r, c, seed, kind, d);
	w0 = wb_phase_now();
	for (int w = 0, hot = 0;
	     w < WB_WARMUP_ROUNDS ||
	     (wb_phase_now() - w0 < WB_WARMUP_MS / 1e3 &&
	      hot < WB_WARMUP_HOT_ROUNDS);
	     w++) {
		one_round(&r, (size_t)w, 1);
		hot = max_mhz > 0 && r.low_mhz >= WB_WARMUP_CLOCK_FRAC * max_mhz ?
			      hot + 1 : 0;
	}
	probe_pick(&r, &r.s[S_READ]);
	probe_pick(&r, &r.s[S_WRITE]);
	wb_phase("warmup", 0);
	r.t0 = wb_phase_now();
	for (round = 0;; round++) {
		got = one_round(&r, round, 0);
		if (got < 0) {
			v = wb_diag.timed_oob ? WB_V_OUT_OF_BOUNDS : WB_V_WRONG;
			break;
		}
		if (should_stop(&r))
			break;
	}
	wb_phase("rounds", r.verify_s);
	if (v == WB_V_PASS && kind == WB_BENCH_GRADE && final_call(&r, round))
		v = wb_diag.timed_oob ? WB_V_OUT_OF_BOUNDS : WB_V_WRONG;
	wb_phase("verify", -r.verify_s);
	if (v == WB_V_PASS) {
		summarize(&r, st);
		st->read_bytes = r.tr.read;
		st->write_bytes = r.tr.write;
		st->flops = r.tr.flops;
	}
	rounds_free(&r);
	wb_fresh_end(c);
	return v;
}
