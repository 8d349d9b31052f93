/* SPDX-License-Identifier: MIT */
/*
 * ex_recordings.c - lab 07's compare and stalls (host exercises): both
 * read the Nsight Compute recordings of recordings.h, parsed here at run
 * time; the pairs and reports they ask about, recorded and drawn around
 * the recordings; the models that judge the answers (README, sections 16
 * and 17); their hooks for the table in lab.c. The two share the parser,
 * so they share a file.
 *
 * The models are arithmetic on the report and make profile's thresholds
 * (grader/profile/profile_derive.h, which the handout ships): as for
 * diagnose, the handout holds nothing the README does not say, and no
 * answer key is needed.
 */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "fusion.h"
#include "lab_hooks.h"

#include "recordings.h"

#define REC_COUNT (sizeof(recordings) / sizeof(recordings[0]))

/* ---- the recordings ---- */

/* The columns read, in the order of recordings.h's cut. */
enum {
	RC_TIME, RC_DRAM_PCT, RC_SM_PCT, RC_L2_PCT, RC_DRAM_RD, RC_DRAM_WR,
	RC_CYCLES, RC_STALL, RC_COUNT = RC_STALL + STALL_COUNT
};

static const char *const rec_stall_names[STALL_COUNT] = {
	"barrier", "branch_resolving", "dispatch_stall", "drain", "imc_miss",
	"lg_throttle", "long_scoreboard", "math_pipe_throttle", "membar",
	"mio_throttle", "misc", "no_instruction", "not_selected",
	"short_scoreboard", "sleeping", "tex_throttle", "wait",
};

/* The metric each column is. */
static void rec_column(int c, char *name, size_t len)
{
	static const char *const first[RC_STALL] = {
		"gpu__time_duration.sum",
		"dram__throughput.avg.pct_of_peak_sustained_elapsed",
		"sm__throughput.avg.pct_of_peak_sustained_elapsed",
		"lts__throughput.avg.pct_of_peak_sustained_elapsed",
		"dram__bytes_read.sum", "dram__bytes_write.sum",
		"smsp__average_warp_latency_per_inst_issued.ratio",
	};

	if (c < RC_STALL)
		snprintf(name, len, "%s", first[c]);
	else
		snprintf(name, len, "smsp__average_warps_issue_stalled_%s_"
			 "per_issue_active.ratio", rec_stall_names[c - RC_STALL]);
}

/* One recorded call: counters summed over its kernels, rates averaged
 * over them weighted by their time. */
struct rec_call {
	int kernels;
	double time_ns, dram_bytes, dram_pct, sm_pct, l2_pct, cycles;
	double stall[STALL_COUNT];
};

/* A recording parsed: 0, or -1 when it lacks a column or a kernel (a bug
 * of the lab: tools/diagnose-reports.sh writes every one). */
static int rec_parse(const struct recording *rec, struct rec_call *r)
{
	char f[RC_COUNT][96], name[160];
	int pos[RC_COUNT], row = 0;
	const char *p = rec->csv;

	memset(r, 0, sizeof(*r));
	while (*p) {
		int n = lab07_csv_fields(p, &p, f, RC_COUNT);
		double v[RC_COUNT], t;

		if (row++ == 0) {
			for (int c = 0; c < RC_COUNT; c++) {
				rec_column(c, name, sizeof(name));
				pos[c] = -1;
				for (int i = 0; i < n; i++)
					if (!strcmp(f[i], name))
						pos[c] = i;
				if (pos[c] < 0)
					return -1;
			}
			continue;
		}
		if (row == 2 || n < RC_COUNT)
			continue; /* the units */
		for (int c = 0; c < RC_COUNT; c++)
			v[c] = lab07_csv_number(f[pos[c]]);
		t = v[RC_TIME];
		r->kernels++;
		r->time_ns += t;
		r->dram_bytes += v[RC_DRAM_RD] + v[RC_DRAM_WR];
		r->dram_pct += v[RC_DRAM_PCT] * t;
		r->sm_pct += v[RC_SM_PCT] * t;
		r->l2_pct += v[RC_L2_PCT] * t;
		r->cycles += v[RC_CYCLES] * t;
		for (int s = 0; s < STALL_COUNT; s++)
			r->stall[s] += v[RC_STALL + s] * t;
	}
	if (!r->kernels || r->time_ns <= 0)
		return -1;
	r->dram_pct /= r->time_ns;
	r->sm_pct /= r->time_ns;
	r->l2_pct /= r->time_ns;
	r->cycles /= r->time_ns;
	for (int s = 0; s < STALL_COUNT; s++)
		r->stall[s] /= r->time_ns;
	return 0;
}

static double rec_abs(double x)
{
	return x < 0 ? -x : x;
}

/* x / y, or 0 where y is 0 (fusion.h). */
static double rec_ratio(double x, double y)
{
	return y == 0 ? 0 : x / y;
}

/* Checked to 1e-9 relative, or 1e-9 absolute below 1 (a ratio of the
 * same numbers in another order). */
static int rec_near(double got, double want)
{
	double scale = rec_abs(want) > 1 ? rec_abs(want) : 1;

	return rec_abs(got - want) <= 1e-9 * scale;
}

/* 2^k (1 + u), k from lo to lo + n - 1; or 1, one time in two. */
static double rec_scale(struct wb_rng *rng, int lo, int n)
{
	double k = (double)(1u << wb_rng_below(rng, (uint64_t)n)) /
		   (double)(1u << -lo);

	if (wb_rng_below(rng, 2))
		return 1;
	return k * (1 + wb_rng_unit(rng)); /* no libm */
}

/* The recordings in an order drawn from the seed. */
static void rec_shuffle(struct wb_rng *rng, int *order, int n)
{
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)wb_rng_below(rng, (uint64_t)i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

#define REC_DRAWN_COUNT 300
#define REC_SHOWN 3

/* ---- compare ---- */

/*
 * The pairs the recordings hold: for each exercise, its versions in the
 * ladder's order (the naive, its steps, the solution), each against the
 * next; and the naive against the solution where steps lie between.
 */
#define CMP_MAX_PAIRS (2 * REC_COUNT)

struct cmp_case {
	struct cmp_pair p;
	int rec[2]; /* the recordings it is, or was drawn from */
	int drawn;
};

static int cmp_pairs(int pairs[][2])
{
	int n = 0;

	for (size_t a = 0; a < REC_COUNT; a++) {
		const struct recording *ra = &recordings[a];
		int next = -1, naive_to_solution = -1, steps = 0;

		for (size_t b = 0; b < REC_COUNT; b++) {
			const struct recording *rb = &recordings[b];

			if (b == a || strcmp(ra->exercise, rb->exercise))
				continue;
			if (rb->step > ra->step &&
			    (next < 0 || rb->step < recordings[next].step))
				next = (int)b;
			if (ra->step == 0 && rb->step == 100)
				naive_to_solution = (int)b;
			if (rb->step > 0 && rb->step < 100)
				steps++;
		}
		if (next >= 0) {
			pairs[n][0] = (int)a;
			pairs[n++][1] = next;
		}
		if (naive_to_solution >= 0 && steps) {
			pairs[n][0] = (int)a;
			pairs[n++][1] = naive_to_solution;
		}
	}
	return n;
}

static void cmp_version_of(const struct rec_call *r, struct cmp_version *v)
{
	v->kernels = r->kernels;
	v->time_ns = r->time_ns;
	v->dram_bytes = r->dram_bytes;
	v->dram_pct = r->dram_pct;
	v->sm_pct = r->sm_pct;
	v->l2_pct = r->l2_pct;
}

static double cmp_figure(const struct cmp_version *v, int f)
{
	switch (f) {
	case CMP_TIME: return v->time_ns;
	case CMP_DRAM_BYTES: return v->dram_bytes;
	case CMP_DRAM_PCT: return v->dram_pct;
	case CMP_SM_PCT: return v->sm_pct;
	default: return v->l2_pct;
	}
}

static const char *const cmp_figure_names[CMP_NFIGURES] = {
	"time", "DRAM bytes", "DRAM %", "SM %", "L2 %",
};

/*
 * The model (README, section 16): the speedup is the baseline's time
 * over the other's; each figure's change is ncu's baseline column,
 * (other - baseline) / baseline in %; a version's bandwidth is its DRAM
 * bytes over its time, and the peak its dram_pct is a share of follows;
 * the roofline puts it at the task's flops over its DRAM bytes, and
 * the task's flops over its time. The puzzle: the faster version left
 * of the slower, at under 0.9 times its intensity (a move of a few
 * percent is the counters' noise: sum's solution moves 0.1% more bytes
 * than its naive).
 */
#define CMP_LEFT 0.9

static void cmp_model(const struct cmp_pair *p, struct cmp_answer *a)
{
	int fast = p->v[1].time_ns < p->v[0].time_ns;

	a->speedup = rec_ratio(p->v[0].time_ns, p->v[1].time_ns);
	for (int f = 0; f < CMP_NFIGURES; f++) {
		double was = cmp_figure(&p->v[0], f);

		a->change[f] = rec_ratio(100 * (cmp_figure(&p->v[1], f) - was),
					 was);
	}
	for (int s = 0; s < 2; s++) {
		const struct cmp_version *v = &p->v[s];
		struct cmp_side *d = &a->side[s];

		d->gbps = rec_ratio(v->dram_bytes, v->time_ns);
		d->peak_gbps = rec_ratio(d->gbps * 100, v->dram_pct);
		d->intensity = rec_ratio(p->flops, v->dram_bytes);
		d->gflops = rec_ratio(p->flops, v->time_ns);
	}
	a->faster_left = a->side[fast].intensity <
			 CMP_LEFT * a->side[!fast].intensity;
}

/* The DRAM peaks a drawn pair is measured against: a T4's, an RTX
 * 4090's, an A100's, an H100 SXM's and an H200's (lab 04's peak). */
static const double cmp_peaks[] = { 320, 1008, 2039, 3352, 4800 };

/*
 * A pair drawn around a recorded one: one time in two the other way
 * round; each version's time kept or scaled (1/4 to 4x), its DRAM
 * throughput kept or redrawn (1 to 99%) and its bytes set to what that
 * share of a drawn GPU's peak moves in that time; the SM and L2
 * throughputs kept or redrawn, now and then a baseline's at 0; the
 * flops kept, or none counted one time in six. Not a recording: what a
 * profile of two other versions could say.
 */
static void cmp_draw(struct wb_rng *rng, struct cmp_case *d)
{
	struct cmp_pair *p = &d->p;
	double peak = cmp_peaks[wb_rng_below(rng, sizeof(cmp_peaks) /
						   sizeof(cmp_peaks[0]))];

	if (wb_rng_below(rng, 2)) {
		struct cmp_version t = p->v[0];
		int r = d->rec[0];

		p->v[0] = p->v[1];
		p->v[1] = t;
		d->rec[0] = d->rec[1];
		d->rec[1] = r;
	}
	for (int s = 0; s < 2; s++) {
		struct cmp_version *v = &p->v[s];

		v->time_ns *= rec_scale(rng, -2, 4);
		if (wb_rng_below(rng, 2))
			v->dram_pct = 1 + 98 * wb_rng_unit(rng);
		v->dram_bytes = v->dram_pct / 100 * peak * v->time_ns;
		if (wb_rng_below(rng, 2))
			v->sm_pct = 100 * wb_rng_unit(rng);
		if (wb_rng_below(rng, 2))
			v->l2_pct = 100 * wb_rng_unit(rng);
	}
	if (wb_rng_below(rng, 20) == 0)
		p->v[0].sm_pct = 0;
	if (wb_rng_below(rng, 6) == 0)
		p->flops = 0;
}

/* Times within 1e-9 of each other, or an intensity within 1e-9 of 0.9
 * times the other's: the puzzle's answer would turn on a rounding. */
static int cmp_near_tie(const struct cmp_pair *p)
{
	struct cmp_answer a;
	double i0, i1;

	cmp_model(p, &a);
	i0 = a.side[0].intensity;
	i1 = a.side[1].intensity;
	return rec_abs(p->v[0].time_ns - p->v[1].time_ns) <=
		       1e-9 * p->v[0].time_ns ||
	       (p->flops > 0 && (rec_abs(i0 - CMP_LEFT * i1) <= 1e-9 * i0 ||
				 rec_abs(i1 - CMP_LEFT * i0) <= 1e-9 * i1));
}

int lab07_compare_setup(struct wb_ctx *c)
{
	int pairs[CMP_MAX_PAIRS][2], order[CMP_MAX_PAIRS];
	int npairs = cmp_pairs(pairs);
	size_t n = c->size->n[0] == COMPARE_RECORDED ? (size_t)npairs :
						       REC_DRAWN_COUNT;
	struct cmp_case *in = wb_input(c, "pairs", n * sizeof(*in));
	struct rec_call r;

	rec_shuffle(&c->rng, order, npairs);
	for (size_t i = 0; i < n; i++) {
		struct cmp_case *d = &in[i];
		const int *pr = pairs[order[i % (size_t)npairs]];

		memset(d, 0, sizeof(*d));
		d->drawn = c->size->n[0] != COMPARE_RECORDED;
		do {
			d->rec[0] = pr[0];
			d->rec[1] = pr[1];
			for (int s = 0; s < 2; s++) {
				if (rec_parse(&recordings[pr[s]], &r))
					return -1;
				cmp_version_of(&r, &d->p.v[s]);
			}
			d->p.flops = recordings[pr[0]].flops;
			if (d->drawn)
				cmp_draw(&c->rng, d);
		} while (d->drawn && cmp_near_tie(&d->p));
	}
	wb_output(c, "answers", n * sizeof(struct cmp_answer));
	return 0;
}

enum { CP_PAIRS, CP_ANSWERS };

static size_t cmp_count(const struct wb_ctx *c)
{
	return c->buf[CP_PAIRS].bytes / sizeof(struct cmp_case);
}

/* Your answer for every pair, copied to the output. Each call gets its
 * own copy of the pair, and a poisoned answer. */
int lab07_compare_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct cmp_answer got[REC_DRAWN_COUNT + CMP_MAX_PAIRS];
	const struct cmp_case *in = c->buf[CP_PAIRS].host;
	size_t n = cmp_count(c);

	if (impl != WB_STUDENT || !compare)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct cmp_pair p = in[i].p;

		memset(&got[i], 0xff, sizeof(got[i]));
		compare(&p, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, CP_ANSWERS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

/* What of answer a is wrong (model's w), written into why; 0 if none. */
static int cmp_wrong(const struct cmp_answer *a, const struct cmp_answer *w,
		     char *why, size_t len)
{
	static const char *const side_name[2] = { "the baseline's",
						  "the other's" };

	if (!rec_near(a->speedup, w->speedup)) {
		snprintf(why, len, "the speedup: yours %.9g, the model's %.9g",
			 a->speedup, w->speedup);
		return 1;
	}
	for (int f = 0; f < CMP_NFIGURES; f++)
		if (!rec_near(a->change[f], w->change[f])) {
			snprintf(why, len, "the change of %s: yours %.9g%%, "
				 "the model's %.9g%%", cmp_figure_names[f],
				 a->change[f], w->change[f]);
			return 1;
		}
	for (int s = 0; s < 2; s++) {
		const struct cmp_side *x = &a->side[s], *y = &w->side[s];
		const char *what = NULL;
		double got = 0, want = 0;

		if (!rec_near(x->gbps, y->gbps))
			what = "GB/s", got = x->gbps, want = y->gbps;
		else if (!rec_near(x->peak_gbps, y->peak_gbps))
			what = "DRAM peak (GB/s)", got = x->peak_gbps,
			want = y->peak_gbps;
		else if (!rec_near(x->intensity, y->intensity))
			what = "intensity (flop/B)", got = x->intensity,
			want = y->intensity;
		else if (!rec_near(x->gflops, y->gflops))
			what = "GFLOP/s", got = x->gflops, want = y->gflops;
		if (what) {
			snprintf(why, len, "%s %s: yours %.9g, the "
				 "model's %.9g", side_name[s], what, got, want);
			return 1;
		}
	}
	if (a->faster_left != w->faster_left) {
		snprintf(why, len, "faster_left: yours %d, the model's %d",
			 a->faster_left, w->faster_left);
		return 1;
	}
	return 0;
}

static void cmp_show_version(struct wb_ctx *c, const char *who,
			     const struct cmp_version *v)
{
	wb_fail(c, "  %s: %d kernel(s), %.6g ns, %.6g DRAM bytes, DRAM %.4g%%, "
		   "SM %.4g%%, L2 %.4g%%", who, v->kernels, v->time_ns,
		v->dram_bytes, v->dram_pct, v->sm_pct, v->l2_pct);
}

void lab07_compare_check(struct wb_ctx *c)
{
	const struct cmp_case *in = c->buf[CP_PAIRS].host;
	const struct cmp_answer *got = c->buf[CP_ANSWERS].host;
	size_t n = cmp_count(c), bad = 0, puzzles = 0;

	for (size_t i = 0; i < n; i++) {
		const struct cmp_case *d = &in[i];
		struct cmp_answer w;
		char why[240];

		cmp_model(&d->p, &w);
		puzzles += w.faster_left;
		if (!cmp_wrong(&got[i], &w, why, sizeof(why)) ||
		    bad++ >= REC_SHOWN)
			continue;
		wb_fail(c, "pair %zu, %s %s against %s%s: %s", i,
			recordings[d->rec[0]].exercise,
			recordings[d->rec[0]].version,
			recordings[d->rec[1]].version,
			d->drawn ? ", figures redrawn (either way round)" : "",
			why);
		cmp_show_version(c, "baseline", &d->p.v[0]);
		cmp_show_version(c, "other", &d->p.v[1]);
		wb_fail(c, "  the task's flops: %.6g", d->p.flops);
	}
	if (bad > REC_SHOWN)
		wb_fail(c, "... and %zu more of %zu pairs", bad - REC_SHOWN, n);
	if (!bad && c->size->n[0] == COMPARE_DRAWN)
		printf("  the drawn pairs: %zu of %zu with the faster version "
		       "left of the slower\n", puzzles, n);
	if (!bad && c->size->n[0] == COMPARE_RECORDED) {
		printf("  the recordings (H100), as you read them:\n");
		for (size_t i = 0; i < n; i++)
			printf("    %-11s %-22s -> %-22s %6.2fx, DRAM bytes "
			       "%+7.1f%%, %6.0f -> %4.0f GB/s (peak %4.0f), "
			       "%5.3g -> %5.3g flop/B%s\n",
			       recordings[in[i].rec[0]].exercise,
			       recordings[in[i].rec[0]].version,
			       recordings[in[i].rec[1]].version,
			       got[i].speedup, got[i].change[CMP_DRAM_BYTES],
			       got[i].side[0].gbps, got[i].side[1].gbps,
			       got[i].side[1].peak_gbps,
			       got[i].side[0].intensity,
			       got[i].side[1].intensity,
			       got[i].faster_left ? "  faster, left" : "");
	}
}

/* ---- stalls ---- */

struct stall_case {
	struct stall_report r;
	int rec; /* the recording it is, or was drawn from */
	int drawn;
};

/* The four throttles, and what fills each one's queue (README, section
 * 17's table). */
static const struct {
	enum stall_reason reason;
	enum stall_cause cause;
} stall_throttles[] = {
	{ STALL_LG_THROTTLE, CAUSE_GLOBAL_LOCAL },
	{ STALL_MIO_THROTTLE, CAUSE_SHARED_MIO },
	{ STALL_TEX_THROTTLE, CAUSE_TEXTURE },
	{ STALL_MATH_PIPE_THROTTLE, CAUSE_MATH_PIPE },
};

#define STALL_NTHROTTLES (sizeof(stall_throttles) / sizeof(stall_throttles[0]))

/*
 * make profile's thresholds (grader/profile/profile_derive.h): a reason
 * that takes 30% of the cycles between issues (STALL_SHARE, its stall
 * hints); the memory's speed of light, DRAM at 80% of its peak moving
 * under 1.15x the task's bytes (PROF_SOL_PCT, PROF_FUSION_TRAFFIC),
 * where whatever the warps wait for costs nothing.
 */
#define STALL_SHARE_LIMIT 0.3
#define STALL_SOL_PCT 80.0
#define STALL_SOL_TRAFFIC 1.15

static int stall_at_roof(const struct stall_report *r)
{
	return r->dram_pct >= STALL_SOL_PCT &&
	       (r->min_bytes <= 0 ||
		r->dram_bytes < STALL_SOL_TRAFFIC * r->min_bytes);
}

/*
 * The model (README, section 17): the top reason and its share of the
 * cycles between issues; the largest throttle, to act on when it takes
 * 30% of them and the kernel is not at its memory's speed of light; the
 * unit whose queue it waits on.
 */
static void stall_model(const struct stall_report *r, struct stall_answer *a)
{
	size_t best = 0;

	a->top = STALL_BARRIER;
	for (int s = 1; s < STALL_COUNT; s++)
		if (r->stall[s] > r->stall[a->top])
			a->top = (enum stall_reason)s;
	a->top_share = rec_ratio(r->stall[a->top], r->cycles);
	for (size_t i = 1; i < STALL_NTHROTTLES; i++)
		if (r->stall[stall_throttles[i].reason] >
		    r->stall[stall_throttles[best].reason])
			best = i;
	a->throttle = STALL_NONE;
	a->throttle_share = 0;
	a->cause = CAUSE_NONE;
	if (!stall_at_roof(r) &&
	    rec_ratio(r->stall[stall_throttles[best].reason], r->cycles) >=
		    STALL_SHARE_LIMIT) {
		a->throttle = stall_throttles[best].reason;
		a->throttle_share = rec_ratio(r->stall[a->throttle],
					      r->cycles);
		a->cause = stall_throttles[best].cause;
	}
}

static void stall_of(const struct rec_call *c, const struct recording *rec,
		     struct stall_report *r)
{
	memset(r, 0, sizeof(*r));
	r->kernels = c->kernels;
	r->cycles = c->cycles;
	memcpy(r->stall, c->stall, sizeof(r->stall));
	r->dram_pct = c->dram_pct;
	r->dram_bytes = c->dram_bytes;
	r->min_bytes = rec->min_bytes;
}

/*
 * A report drawn around a recording: each reason's cycles kept or scaled
 * (1/8 to 8x); one time in two, one throttle given a share drawn from 0
 * to 90% of the cycles; the cycles between issues the reasons' sum plus
 * what the recording had beyond it (the issuing cycle); the DRAM's
 * throughput kept or redrawn, its bytes kept or scaled (1/2 to 2x), now
 * and then no task minimum. So the top reason, every throttle, the 30%
 * and the speed of light are crossed both ways across the group.
 */
static void stall_draw(struct wb_rng *rng, struct stall_report *r)
{
	double sum = 0, rest = 0, others = 0, share;
	int t = (int)stall_throttles[wb_rng_below(rng, STALL_NTHROTTLES)]
			.reason;

	for (int s = 0; s < STALL_COUNT; s++)
		sum += r->stall[s];
	rest = r->cycles > sum ? r->cycles - sum : 0;
	for (int s = 0; s < STALL_COUNT; s++)
		r->stall[s] *= rec_scale(rng, -3, 6);
	if (wb_rng_below(rng, 2)) {
		share = 0.9 * wb_rng_unit(rng);
		for (int s = 0; s < STALL_COUNT; s++)
			if (s != t)
				others += r->stall[s];
		r->stall[t] = share * (others + rest) / (1 - share);
	}
	sum = 0;
	for (int s = 0; s < STALL_COUNT; s++)
		sum += r->stall[s];
	r->cycles = sum + rest;
	if (wb_rng_below(rng, 2))
		r->dram_pct = 100 * wb_rng_unit(rng);
	if (wb_rng_below(rng, 2))
		r->dram_bytes *= 0.5 + 1.5 * wb_rng_unit(rng);
	if (wb_rng_below(rng, 8) == 0)
		r->min_bytes = 0;
}

/* A drawn report whose answer would turn on a rounding: two reasons tied
 * for the top or the largest throttle, a share or the DRAM within a
 * millionth of a limit. */
static int stall_near_limit(const struct stall_report *r)
{
	double top = 0, second = 0, th = 0, th2 = 0;

	for (int s = 0; s < STALL_COUNT; s++) {
		double x = r->stall[s];

		if (x > top)
			second = top, top = x;
		else if (x > second)
			second = x;
	}
	for (size_t i = 0; i < STALL_NTHROTTLES; i++) {
		double x = r->stall[stall_throttles[i].reason];

		if (x > th)
			th2 = th, th = x;
		else if (x > th2)
			th2 = x;
	}
	return top - second <= 1e-9 * top || th - th2 <= 1e-9 * th ||
	       rec_abs(rec_ratio(th, r->cycles) - STALL_SHARE_LIMIT) <= 1e-6 ||
	       rec_abs(r->dram_pct - STALL_SOL_PCT) <= 1e-6 ||
	       (r->min_bytes > 0 &&
		rec_abs(r->dram_bytes / r->min_bytes - STALL_SOL_TRAFFIC) <=
			1e-6);
}

int lab07_stalls_setup(struct wb_ctx *c)
{
	size_t n = c->size->n[0] == STALLS_RECORDED ? REC_COUNT :
						      REC_DRAWN_COUNT;
	struct stall_case *in = wb_input(c, "reports", n * sizeof(*in));
	int order[REC_COUNT];
	struct rec_call r;

	rec_shuffle(&c->rng, order, (int)REC_COUNT);
	for (size_t i = 0; i < n; i++) {
		struct stall_case *d = &in[i];

		memset(d, 0, sizeof(*d));
		d->rec = order[i % REC_COUNT];
		if (rec_parse(&recordings[d->rec], &r))
			return -1;
		stall_of(&r, &recordings[d->rec], &d->r);
		if (c->size->n[0] == STALLS_RECORDED)
			continue;
		d->drawn = 1;
		do {
			stall_of(&r, &recordings[d->rec], &d->r);
			stall_draw(&c->rng, &d->r);
		} while (stall_near_limit(&d->r));
	}
	wb_output(c, "answers", n * sizeof(struct stall_answer));
	return 0;
}

enum { ST_REPORTS, ST_ANSWERS };

static size_t stall_count(const struct wb_ctx *c)
{
	return c->buf[ST_REPORTS].bytes / sizeof(struct stall_case);
}

int lab07_stalls_run(struct wb_ctx *c, enum wb_impl impl)
{
	static struct stall_answer got[REC_DRAWN_COUNT + REC_COUNT];
	const struct stall_case *in = c->buf[ST_REPORTS].host;
	size_t n = stall_count(c);

	if (impl != WB_STUDENT || !stalls)
		return WB_MISSING;
	for (size_t i = 0; i < n; i++) {
		struct stall_report r = in[i].r;

		memset(&got[i], 0xff, sizeof(got[i]));
		stalls(&r, &got[i]);
	}
	CUDA_CHECK(cudaMemcpy(wb_dev(c, ST_ANSWERS), got, n * sizeof(*got),
			      cudaMemcpyHostToDevice));
	return 0;
}

static const char *const stall_cause_names[] = {
	"CAUSE_NONE", "CAUSE_GLOBAL_LOCAL", "CAUSE_SHARED_MIO",
	"CAUSE_TEXTURE", "CAUSE_MATH_PIPE",
};

#define STALL_NAME(tab, v)                                                 \
	((unsigned)(v) < sizeof(tab) / sizeof(tab[0]) ? tab[v] : "(none)")

static const char *stall_reason_name(enum stall_reason s)
{
	return (unsigned)s < STALL_COUNT ? rec_stall_names[s] :
	       s == STALL_NONE		 ? "STALL_NONE" :
					   "(not a reason)";
}

/* Why answer a is wrong (the model's w), or NULL. */
static const char *stall_wrong(const struct stall_answer *a,
			       const struct stall_answer *w)
{
	if (a->top != w->top)
		return "the top reason";
	if (!rec_near(a->top_share, w->top_share))
		return "its share of the cycles";
	if (a->throttle != w->throttle)
		return "the throttle to act on";
	if (!rec_near(a->throttle_share, w->throttle_share))
		return "the throttle's share of the cycles";
	if (a->cause != w->cause)
		return "what fills its queue";
	return NULL;
}

void lab07_stalls_check(struct wb_ctx *c)
{
	const struct stall_case *in = c->buf[ST_REPORTS].host;
	const struct stall_answer *got = c->buf[ST_ANSWERS].host;
	size_t n = stall_count(c), bad = 0;
	int causes[CAUSE_MATH_PIPE + 1] = { 0 };

	for (size_t i = 0; i < n; i++) {
		const struct stall_report *r = &in[i].r;
		const struct stall_answer *a = &got[i];
		struct stall_answer w;
		const char *why;

		stall_model(r, &w);
		causes[w.cause]++;
		why = stall_wrong(a, &w);
		if (!why || bad++ >= REC_SHOWN)
			continue;
		wb_fail(c, "report %zu, %s %s%s: %s is wrong", i,
			recordings[in[i].rec].exercise,
			recordings[in[i].rec].version,
			in[i].drawn ? " with its figures redrawn" : "", why);
		wb_fail(c, "  %.4g cycles between issues; lg_throttle %.4g, "
			   "mio_throttle %.4g, tex_throttle %.4g, "
			   "math_pipe_throttle %.4g, long_scoreboard %.4g; DRAM "
			   "%.2f%%, %.4gx the task's bytes",
			r->cycles, r->stall[STALL_LG_THROTTLE],
			r->stall[STALL_MIO_THROTTLE],
			r->stall[STALL_TEX_THROTTLE],
			r->stall[STALL_MATH_PIPE_THROTTLE],
			r->stall[STALL_LONG_SCOREBOARD], r->dram_pct,
			rec_ratio(r->dram_bytes, r->min_bytes));
		wb_fail(c, "  you: top %s (%.6g), throttle %s (%.6g), %s",
			stall_reason_name(a->top), a->top_share,
			stall_reason_name(a->throttle), a->throttle_share,
			STALL_NAME(stall_cause_names, a->cause));
		wb_fail(c, "  the model: top %s (%.6g), throttle %s (%.6g), %s",
			stall_reason_name(w.top), w.top_share,
			stall_reason_name(w.throttle), w.throttle_share,
			stall_cause_names[w.cause]);
	}
	if (bad > REC_SHOWN)
		wb_fail(c, "... and %zu more of %zu reports", bad - REC_SHOWN,
			n);
	if (!bad && c->size->n[0] == STALLS_DRAWN) {
		printf("  the drawn reports' causes:");
		for (int k = 0; k <= CAUSE_MATH_PIPE; k++)
			printf(" %s %d", stall_cause_names[k] + 6, causes[k]);
		printf("\n");
	}
	if (!bad && c->size->n[0] == STALLS_RECORDED) {
		printf("  the recordings (H100), as you read them:\n");
		for (size_t i = 0; i < n; i++)
			printf("    %-11s %-22s top %-18s %3.0f%%, throttle "
			       "%s%s\n",
			       recordings[in[i].rec].exercise,
			       recordings[in[i].rec].version,
			       stall_reason_name(got[i].top),
			       100 * got[i].top_share,
			       got[i].throttle == STALL_NONE ? "none" :
			       stall_reason_name(got[i].throttle),
			       got[i].throttle == STALL_NONE ? "" :
			       got[i].cause == CAUSE_GLOBAL_LOCAL ?
			       " (global and local memory instructions)" :
			       got[i].cause == CAUSE_SHARED_MIO ?
			       " (shared memory and MIO instructions)" :
			       got[i].cause == CAUSE_TEXTURE ?
			       " (texture instructions)" :
			       " (one arithmetic pipe)");
	}
}
