/* SPDX-License-Identifier: MIT */
/*
 * bench.c - time one benchmark shape: rounds of interleaved samples, the
 * speed of light measured in the same rounds, and a stopping rule on the
 * grade itself.
 *
 * A round times every series once: the naive, the probes of the speed of
 * light (one kernel that reads the bytes the exercise must read and writes
 * the bytes it must write; for a compute-bound exercise also a kernel at
 * the peak FLOP rate of the units its FLOPs run on: probe.h), and the student
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

/* A compute probe does at most this many FLOPs a sample, and is scaled to
 * the exercise's: 0.3 to 0.6 ms on an H100, long enough that its launch is
 * under 1% of it, short enough to add little to a round. */
#define PEAK_MAX_FLOPS_TENSOR 256e9
#define PEAK_MAX_FLOPS_FMA 32e9

enum { S_NAIVE, S_OTHER, S_MEM, S_PEAK, S_COUNT };

/* One series of samples: an implementation, or a probe. */
struct series {
	const char *name;
	int on;
	int is_probe;
	enum wb_impl impl;
	enum wb_probe probe;
	enum wb_probe alt, alt2; /* the other variants, tried after the
				  * warm-up (alt2 == alt: none) */
	void *buf;        /* a memory probe's memory */
	size_t rbytes, wbytes; /* what a memory probe reads and writes */
	double target;    /* a compute probe: the FLOPs it aims at */
	double scale;     /* the exercise's bytes (FLOPs) over the probe's */
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

/* Trips of compute probe p's loop for about `target` FLOPs (at least 1). */
static long long peak_iters(enum wb_probe p, double target)
{
	double one = wb_peak_flops(p, 1);
	double n = one > 0 ? floor(target / one) : 1;

	return n < 1 ? 1 : (long long)n;
}

static void run_probe(void *arg)
{
	struct series *s = arg;
	char *dst = (char *)s->buf + s->rbytes;

	if (s->target > 0)
		WB_CUDA(wb_peak_run(s->probe, peak_iters(s->probe, s->target)));
	else if (s->probe == WB_PROBE_MEMSET)
		WB_CUDA(wb_probe_run(s->probe, NULL, dst, s->wbytes));
	else
		WB_CUDA(wb_probe_rw(s->probe, s->buf, s->rbytes, dst, s->wbytes));
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

/* s's reads and writes for a probe of `size` bytes in all, in the
 * exercise's proportion of read to written bytes (whole 16-byte words). */
static void mem_split(struct series *s, double read, double write,
		      size_t size)
{
	s->rbytes = (size_t)(size * (read / (read + write))) / 16 * 16;
	s->wbytes = (size - s->rbytes) / 16 * 16;
	if (read > 0 && !s->rbytes)
		s->rbytes = 16;
	if (write > 0 && !s->wbytes)
		s->wbytes = 16;
	if (!(read > 0))
		s->rbytes = 0;
	if (!(write > 0))
		s->wbytes = 0;
}

/*
 * The memory probe: one kernel that reads and writes what the exercise
 * must (a direction under WB_PROBE_MIN_BYTES left out), at most
 * PROBE_MAX_BYTES of it, scaled to the exercise's bytes. One launch, as
 * the kernel it judges pays one: a read probe and a write probe each
 * timed would count a launch, and a grid's ramp and drain, twice (up to
 * 7% of a 100 MB exercise's ideal on an H200). Its best variant is picked
 * after the warm-up; a write-only one may be cudaMemsetAsync.
 */
static void mem_setup(struct series *s, double read, double write)
{
	double r = read >= WB_PROBE_MIN_BYTES ? read : 0;
	double w = write >= WB_PROBE_MIN_BYTES ? write : 0;
	size_t size = (size_t)(r + w);

	s->name = "memory";
	s->is_probe = 1;
	if (!(r + w > 0))
		return;
	if (size > PROBE_MAX_BYTES)
		size = PROBE_MAX_BYTES;
	/* Short of memory: smaller probes measure the same rate. */
	while (cudaMalloc(&s->buf, size + 256) != cudaSuccess) {
		cudaGetLastError();
		size /= 2;
		if (size < WB_PROBE_MIN_BYTES)
			wb_die("no device memory for the speed-of-light probes");
	}
	mem_split(s, r, w, size);
	WB_CUDA(wb_fill_pattern(s->buf, s->rbytes + s->wbytes, 0x5eed));
	s->scale = (r + w) / (double)(s->rbytes + s->wbytes);
	s->on = 1;
	s->probe = WB_PROBE_RW8;
	s->alt = r > 0 ? WB_PROBE_RW4 : WB_PROBE_MEMSET;
	s->alt2 = r > 0 ? WB_PROBE_DEP2 : s->alt;
	/* Reads, then writes, where a kernel could order them so. */
	if (r > 0 && wb_probe_phased_ok((size_t)w))
		s->alt2 = WB_PROBE_PHASED;
}

/*
 * The compute probe of an exercise whose ideal is its roofline: the peak
 * rate of the units its FLOPs run on, measured in the same rounds. The
 * tensor cores' through wgmma where the GPU has it (two or three warp
 * groups an SM, the faster kept), else mma.sync; the CUDA cores' fp32
 * FMA otherwise. It does min(the exercise's FLOPs, a cap) a sample and is
 * scaled to the exercise's FLOPs.
 */
static void peak_setup(struct rounds *r)
{
	struct series *s = &r->s[S_PEAK];
	const struct wb_exercise *ex = r->c->ex;
	double cap = ex->tensor_flops ? PEAK_MAX_FLOPS_TENSOR : PEAK_MAX_FLOPS_FMA;

	s->name = "peak";
	s->is_probe = 1;
	/* The lab's limit kernel: the lab's own code, on the exercise's
	 * buffers, as the naive is (series_impl()). */
	if (ex->ideal == WB_IDEAL_LIMIT) {
		s->name = "limit";
		s->is_probe = 0;
		s->impl = WB_LIMIT;
		s->on = 1;
		return;
	}
	if (ex->ideal != WB_IDEAL_ROOF || !(r->tr.flops > 0))
		return;
	s->probe = s->alt = s->alt2 = WB_PROBE_FMA;
	if (ex->tensor_flops && wb_peak_usable(WB_PROBE_WGMMA2)) {
		s->probe = WB_PROBE_WGMMA2;
		s->alt = s->alt2 = WB_PROBE_WGMMA3;
	} else if (ex->tensor_flops && wb_peak_usable(WB_PROBE_MMA)) {
		s->probe = s->alt = s->alt2 = WB_PROBE_MMA;
	}
	s->target = r->tr.flops < cap ? r->tr.flops : cap;
	s->on = 1;
}

/* The exercise's FLOPs over what compute probe s does a sample. */
static double peak_scale(const struct rounds *r, const struct series *s)
{
	double f = wb_peak_flops(s->probe, peak_iters(s->probe, s->target));

	return f > 0 ? r->tr.flops / f : 0;
}

/* Time per unit of work of variant p of s: per FLOP for a compute
 * probe, whose variants' trips differ. */
static double per_unit(struct rounds *r, struct series *s, enum wb_probe p)
{
	double t = trial(r, s, p);

	return s->target > 0 ? t / wb_peak_flops(p, peak_iters(p, s->target)) : t;
}

/* After the warm-up: keep the fastest of the probe's variants. */
static void probe_pick(struct rounds *r, struct series *s)
{
	enum wb_probe v[3] = { s->probe, s->alt, s->alt2 }, best = v[0];
	double tb = INFINITY;

	if (!s->on || !s->is_probe || (v[0] == v[1] && v[1] == v[2]))
		return;
	for (int i = 0; i < 3; i++) {
		double t;

		if (i && (v[i] == v[i - 1] || v[i] == v[0]))
			continue;
		t = per_unit(r, s, v[i]);
		if (t < tb) {
			tb = t;
			best = v[i];
		}
	}
	s->probe = best;
	if (s->target > 0)
		s->scale = peak_scale(r, s);
}

/* ---- one round ---- */

static int verify_now(struct rounds *r, size_t round);

static double median_of(const double *x, size_t n)
{
	struct wb_summary s;

	return wb_summarize(x, n, &s) ? 0 : s.median;
}

/*
 * The ideal time of kept round k (ms), 0 when it is not known: the memory
 * probe's time for the exercise's bytes (one launch, as one kernel pays);
 * for a roofline, the longer of that and the compute probe's time for its
 * FLOPs; for a limit kernel, the longer of that and the kernel's time.
 */
static double ideal_of(const struct rounds *r, size_t k)
{
	const struct series *mem = &r->s[S_MEM], *pk = &r->s[S_PEAK];
	double dram = mem->on ? mem->ms[k] * mem->scale : 0, other;

	switch (r->c->ex->ideal) {
	case WB_IDEAL_PEER:
		return r->d ? r->d->peer_ms : 0;
	case WB_IDEAL_INSTR:
		other = r->s[S_NAIVE].ms[k] / r->c->ex->instr_speedup;
		return other > dram ? other : dram;
	case WB_IDEAL_ROOF:
		other = pk->on ? pk->ms[k] * pk->scale : 0;
		return other > dram ? other : dram;
	case WB_IDEAL_LIMIT:
		other = pk->on ? pk->ms[k] : 0;
		return other > dram ? other : dram;
	default:
		return dram;
	}
}

/* A small shape (knobs.h, WB_LAUNCH_BYTES): its rounds are a few
 * microseconds, and what is stated of them widens by more. */
static int small_shape(const struct rounds *r)
{
	return r->tr.read + r->tr.write < WB_LAUNCH_BYTES &&
	       !(r->tr.flops > 0 && r->c->ex->ideal == WB_IDEAL_ROOF) &&
	       r->c->ex->ideal != WB_IDEAL_PEER && r->s[S_MEM].on;
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
	st->small = small_shape(r);
	st->capped = r->kind == WB_BENCH_GRADE &&
		     !(r->kept >= WB_MIN_SAMPLES && grade_known(r));
	st->have_ideal = n && r->ideal[0] > 0;
	if (st->have_ideal)
		wb_summarize(r->ideal, n, &st->ideal);
	if (r->kind != WB_BENCH_REFERENCE) {
		paired(r, 0, &st->speedup);
		if (st->have_ideal)
			paired(r, 1, &st->share);
		/* what the report states covers a rerun (knobs.h) */
		wb_ci_rerun(&st->speedup.lo, st->speedup.med, &st->speedup.hi,
			    st->small ? WB_RUN_TO_RUN_SMALL : WB_RUN_TO_RUN);
		wb_ci_rerun(&st->share.lo, st->share.med, &st->share.hi,
			    st->small ? WB_RUN_TO_RUN_SMALL :
			    r->c->ex->ideal == WB_IDEAL_PEER ?
			    WB_RUN_TO_RUN_PEER : WB_RUN_TO_RUN);
	}
	st->naive_over_ideal = naive_over_ideal(r);
	st->mem_probe = s[S_MEM].on ? (int)s[S_MEM].probe : -1;
	if (s[S_MEM].on)
		st->mem_gbps = (s[S_MEM].rbytes + s[S_MEM].wbytes) /
			       median_of(s[S_MEM].ms, n) / 1e6;
	st->peak_probe = s[S_PEAK].on && s[S_PEAK].is_probe ?
			 (int)s[S_PEAK].probe : -1;
	st->limit = s[S_PEAK].on && !s[S_PEAK].is_probe;
	if (st->limit)
		wb_summarize(s[S_PEAK].ms, n, &st->limit_ms);
	if (st->peak_probe >= 0)
		st->peak_tflops = r->tr.flops / s[S_PEAK].scale /
				  median_of(s[S_PEAK].ms, n) / 1e9;
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
	mem_setup(&r->s[S_MEM], r->tr.read, r->tr.write);
	peak_setup(r);
	if (r->s[S_PEAK].on)
		r->s[S_PEAK].scale = peak_scale(r, &r->s[S_PEAK]);
	/* The series that run; one_round() shuffles them every round. */
	for (int i = 0; i < S_COUNT; i++) {
		static const int all[S_COUNT] = { S_NAIVE, S_MEM, S_PEAK,
						  S_OTHER };

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
	probe_pick(&r, &r.s[S_MEM]);
	probe_pick(&r, &r.s[S_PEAK]);
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
