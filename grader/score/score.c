/* SPDX-License-Identifier: MIT */
/*
 * score.c - from a verdict and the measured ratios to points.
 *
 * Correctness gates everything: only PASS earns points. A correctness-only
 * exercise earns points_correct. A speed exercise earns points_correct
 * plus performance points from its tiers on the scale of common/scale.h,
 * the one the runner's stopping rule used: a lab's tiers are shares of the
 * exercise's ideal time on this GPU, each made a speedup over the naive
 * through naive / ideal measured in the same run; a course's tiers are
 * fixed speedups. Points are continuous: none up to 5% over the naive,
 * then linear from tier to tier, the top tier's at and above it.
 *
 * What is scored is the driver's own: g_measure() recomputes every
 * figure from the record's raw rounds (common/result.h's "sample" lines)
 * with the statistics the runner uses (common/stats.c), checks the rounds
 * and what the runner claimed against them, and puts its own figures in
 * their place; a record that disagrees with itself is a GRADER ERROR,
 * never a score.
 */
#include "score.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record.h"
#include "../../common/knobs.h"
#include "../../common/scale.h"
#include "../../common/stats.h"
#include "settle.h"

/*
 * An SM clock a shape's spacer reports outside this range (MHz) is no
 * reading of a GPU: an idle H100 runs at 345 MHz, the fastest boost
 * clocks are under 3 GHz. The range is wide on purpose: it tells a
 * garbled record, not a slow or throttled GPU (bench.c drops those
 * rounds itself).
 */
#define G_MHZ_LOW 10.0
#define G_MHZ_HIGH 10000.0

int g_spec_too_new(const struct g_spec *s, int cc, char *why, size_t n)
{
	if (cc <= 0 || s->min_cc <= cc)
		return 0;
	if (why)
		snprintf(why, n, "lab %.2s needs compute capability %d.%d or "
			 "later; this GPU is %d.%d", s->lab, s->min_cc / 10,
			 s->min_cc % 10, cc / 10, cc % 10);
	return 1;
}

int g_spec_validate(const struct g_spec *s, char *why, size_t n)
{
	if (!(s->points_correct >= 0) || !(s->points_speed >= 0)) {
		snprintf(why, n, "negative or undefined points");
		return -1;
	}
	if (!s->speed) {
		if (s->ntiers || s->points_speed) {
			snprintf(why, n, "a correctness exercise has tiers");
			return -1;
		}
		return 0;
	}
	if (s->ntiers == 0) {
		snprintf(why, n, "a speed exercise needs at least one tier");
		return -1;
	}
	if (s->ntiers > WB_SCALE_MAX) {
		snprintf(why, n, "more than %d tiers", WB_SCALE_MAX);
		return -1;
	}
	for (int i = 0; i < s->ntiers; i++) {
		const struct g_tier *t = &s->tiers[i];

		if (!(t->x > 0) || !(t->points > 0) ||
		    (i && (t->x <= t[-1].x || t->points <= t[-1].points))) {
			snprintf(why, n, "tier %d does not rise above tier %d",
				 i + 1, i);
			return -1;
		}
		if (s->tier_unit == G_TIERS_SHARE && t->x > 1.5) {
			snprintf(why, n, "tier %d asks for %.0f%% of the speed of "
				 "light", i + 1, 100 * t->x);
			return -1;
		}
	}
	if (fabs(s->tiers[s->ntiers - 1].points - s->points_speed) > 1e-9) {
		snprintf(why, n, "the top tier's points (%g) differ from "
				 "points_speed (%g)",
			 s->tiers[s->ntiers - 1].points, s->points_speed);
		return -1;
	}
	return 0;
}

/* s's tiers on the shared scale; -1 when they do not make one. */
static int scale_of(const struct g_spec *s, double naive_ideal,
		    struct wb_scale *sc)
{
	double x[WB_SCALE_MAX], p[WB_SCALE_MAX];
	int n = s->ntiers < WB_SCALE_MAX ? s->ntiers : WB_SCALE_MAX;

	for (int i = 0; i < n; i++) {
		x[i] = s->tiers[i].x;
		p[i] = s->tiers[i].points;
	}
	if (s->tier_unit == G_TIERS_SPEEDUP)
		return wb_scale_speedups(sc, x, p, n);
	return wb_scale_shares(sc, x, p, n, naive_ideal);
}

double g_speed_points(const struct g_spec *s, double x, double naive_ideal,
		      int *tier, double *next_target)
{
	struct wb_scale sc;

	*tier = 0;
	*next_target = 0;
	if (scale_of(s, naive_ideal, &sc))
		return 0;
	return wb_scale_points(&sc, x, tier, next_target);
}

/* The student's speedup: the paired median, else the medians' ratio. */
static double speedup_of(const struct g_result *r)
{
	const struct g_timing *st = &r->t[G_STUDENT], *nv = &r->t[G_NAIVE];

	if (r->r_speedup.have)
		return r->r_speedup.med;
	return st->have && nv->have ? nv->median_us / st->median_us : 0;
}

/* The student's share of the ideal: paired, else from the medians. */
static double share_of(const struct g_result *r)
{
	const struct g_timing *st = &r->t[G_STUDENT], *id = &r->t[G_IDEAL];

	if (r->r_share.have)
		return r->r_share.med;
	return st->have && id->have ? id->median_us / st->median_us : 0;
}

/* naive / ideal, from the pairs or the medians; 0 when unknown. */
static double naive_ideal_of(const struct g_result *r)
{
	if (r->naive_ideal > 0)
		return r->naive_ideal;
	if (r->t[G_IDEAL].have && r->t[G_NAIVE].have)
		return r->t[G_NAIVE].median_us / r->t[G_IDEAL].median_us;
	return 0;
}

/* Each tier as a speedup on this GPU, for the table and the report. */
static void tiers_here(const struct g_spec *s, struct g_result *r)
{
	struct wb_scale sc;

	for (int i = 0; i < G_MAX_TIERS; i++)
		r->at[i] = 0;
	if (scale_of(s, naive_ideal_of(r), &sc))
		return;
	for (int i = 0; i < s->ntiers && i < G_MAX_TIERS; i++)
		r->at[i] = wb_scale_speedup_at(&sc, i + 1);
}

void g_score(const struct g_spec *s, struct g_result *r, double copy_gbps,
	     double dram_gbps)
{
	const struct g_timing *st = &r->t[G_STUDENT];
	double x;

	r->max_points = s->points_correct + s->points_speed;
	r->points = 0;
	r->speedup = r->gbps = r->pct_copy = r->tflops = r->pct_peer = 0;
	r->share = r->pct_dram = 0;
	r->tier = 0;
	r->speedup = speedup_of(r);
	r->share = share_of(r);
	if (st->have && r->bytes > 0)
		r->gbps = r->bytes / (st->median_us * 1e-6) / 1e9;
	if (r->gbps > 0 && copy_gbps > 0)
		r->pct_copy = 100 * r->gbps / copy_gbps;
	if (r->gbps > 0 && dram_gbps > 0)
		r->pct_dram = 100 * r->gbps / dram_gbps;
	if (st->have && r->flops > 0)
		r->tflops = r->flops / (st->median_us * 1e-6) / 1e12;
	if (st->have && r->t[G_PEER].have)
		r->pct_peer = 100 * r->t[G_PEER].median_us / st->median_us;
	tiers_here(s, r);
	r->next_target = s->ntiers ? r->at[0] : 0;
	if (r->verdict != WB_V_PASS)
		return;
	r->points = s->points_correct;
	x = s->tier_unit == G_TIERS_SPEEDUP ? r->speedup : r->share;
	if (s->speed && x > 0)
		r->points += g_speed_points(s, x, naive_ideal_of(r), &r->tier,
					    &r->next_target);
	/* Reported to a tenth of a point: noise below that is not a grade. */
	r->points = round(r->points * 10) / 10;
}

void g_format_tiers(char *buf, size_t n, const struct g_spec *s)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < s->ntiers && used < n; i++)
		used += snprintf(buf + used, n - used, "%s%g:%g", i ? " " : "",
				 s->tiers[i].x, s->tiers[i].points);
	if (!s->ntiers)
		snprintf(buf, n, "none");
}

void g_tiers_arg(char *buf, size_t n, const struct g_spec *s)
{
	int used = snprintf(buf, n, "%s ", s->tier_unit == G_TIERS_SPEEDUP ?
					    "speedup" : "share");

	if (used > 0 && (size_t)used < n)
		g_format_tiers(buf + used, n - (size_t)used, s);
}

/* ---- the figures from the raw samples (g_measure) ---- */

/* What one shape's rounds give, as bench.c's summarize() makes them. */
struct shape_fig {
	double med[G_SERIES], q1[G_SERIES], q3[G_SERIES];
	int have_ideal;
	struct g_ratio speedup, share; /* the student's, widened (knobs.h) */
	double naive_ideal;
};

/* What the record claims, or what its samples give: the figures the
 * runner writes after the samples (result.h). */
struct figures {
	struct g_timing t[G_IMPLS];
	struct g_ratio speedup, share;
	double naive_ideal, share_max;
	double mhz_min, mhz_med, mhz_max;
	int rounds;
};

/* Does a figure written with `decimals` decimals agree with the driver's
 * own? Within its rounding, and a millionth for the samples' nine
 * significant digits. NaN never agrees. */
static int agrees(double claimed, double got, int decimals)
{
	return fabs(claimed - got) <= pow(10, -decimals) + 1e-6 * fabs(got);
}

/* The median of naive / ideal over the rounds with an ideal (bench.c's
 * naive_over_ideal(): a median of the ratios, not of their logarithms). */
static double naive_over_ideal(const struct g_shape *sh)
{
	double x[G_MAX_ROUNDS];
	struct wb_summary s;
	size_t m = 0;

	for (int k = 0; k < sh->n; k++)
		if (sh->us[G_S_IDEAL][k] > 0)
			x[m++] = sh->us[G_S_NAIVE][k] / sh->us[G_S_IDEAL][k];
	return m && !wb_summarize(x, m, &s) ? s.median : 0;
}

/* The median paired ratio a / b and its interval, widened by frac. */
static void paired(const double *a, const double *b, int n, double frac,
		   struct g_ratio *q)
{
	memset(q, 0, sizeof(*q));
	if (wb_ratio_ci(a, b, (size_t)n, WB_CI_Z, &q->lo, &q->med, &q->hi) < 0)
		return;
	wb_ci_rerun(&q->lo, q->med, &q->hi, frac);
	q->have = 1;
}

/*
 * Shape sh's figures; the student's ratios where sh times the student.
 * What a stated interval is widened by (knobs.h): a small shape's
 * (small) by WB_RUN_TO_RUN_SMALL, a share of a peer's time by
 * WB_RUN_TO_RUN_PEER, the rest by WB_RUN_TO_RUN. -1 out of memory.
 */
static int shape_figures(const struct g_spec *s, const struct g_shape *sh,
			 struct shape_fig *f)
{
	int small = sh->small > 0, peer = !strcmp(s->ideal, "peer");
	struct wb_summary sum;

	memset(f, 0, sizeof(*f));
	for (int i = 0; i < G_SERIES; i++) {
		if (wb_summarize(sh->us[i], (size_t)sh->n, &sum))
			return -1;
		f->med[i] = sum.median;
		f->q1[i] = sum.q1;
		f->q3[i] = sum.q3;
	}
	f->have_ideal = sh->us[G_S_IDEAL][0] > 0;
	if (f->have_ideal)
		f->naive_ideal = naive_over_ideal(sh);
	if (strcmp(sh->who, "student"))
		return 0;
	paired(sh->us[G_S_NAIVE], sh->us[G_S_OTHER], sh->n,
	       small ? WB_RUN_TO_RUN_SMALL : WB_RUN_TO_RUN, &f->speedup);
	if (f->have_ideal)
		paired(sh->us[G_S_IDEAL], sh->us[G_S_OTHER], sh->n,
		       small ? WB_RUN_TO_RUN_SMALL : peer ? WB_RUN_TO_RUN_PEER :
		       WB_RUN_TO_RUN, &f->share);
	return 0;
}

/* The geometric mean over the shapes of the double at offset off of
 * each shape_fig (runner.c's GEO()). */
static double geo(const struct shape_fig *f, int n, size_t off)
{
	double x[G_MAX_SHAPES] = { 0 };

	for (int i = 0; i < n && i < G_MAX_SHAPES; i++)
		x[i] = *(const double *)((const char *)&f[i] + off);
	return wb_geomean(x, (size_t)n);
}

#define GEO(f, n, member) geo((f), (n), offsetof(struct shape_fig, member))

/* A time line of series i over the shapes, as the runner writes it. */
static struct g_timing time_of(const struct shape_fig *f, int n, int i,
			       int samples)
{
	struct g_timing t = {
		.median_us = GEO(f, n, med[i]), .q1_us = GEO(f, n, q1[i]),
		.q3_us = GEO(f, n, q3[i]), .samples = samples,
	};

	t.have = t.median_us > 0;
	return t;
}

/* A ratio line over the shapes; none where the runner's would be
 * unreadable (record.c: a median that is not positive). */
static struct g_ratio ratio_of(const struct shape_fig *f, int n, size_t off)
{
	struct g_ratio q = {
		.med = geo(f, n, off + offsetof(struct g_ratio, med)),
		.lo = geo(f, n, off + offsetof(struct g_ratio, lo)),
		.hi = geo(f, n, off + offsetof(struct g_ratio, hi)),
	};

	q.have = q.med > 0 && q.lo <= q.med && q.med <= q.hi;
	return q;
}

/* Everything the runner writes after the samples, from the samples
 * (runner.c's bench_all()). -1 out of memory. */
static int recompute(const struct g_spec *s, const struct g_samples *smp,
		     struct figures *g)
{
	const struct g_shape *sh0 = &smp->shape[0];
	struct shape_fig f[G_MAX_SHAPES];
	int n = smp->nshapes, student = !strcmp(sh0->who, "student");

	memset(g, 0, sizeof(*g));
	for (int i = 0; i < n; i++) {
		if (shape_figures(s, &smp->shape[i], &f[i]))
			return -1;
		g->rounds += smp->shape[i].n;
		if (student && f[i].share.med > g->share_max)
			g->share_max = f[i].share.med;
	}
	g->t[G_NAIVE] = time_of(f, n, G_S_NAIVE, sh0->n);
	if (student || !strcmp(sh0->who, "peer"))
		g->t[student ? G_STUDENT : G_PEER] =
			time_of(f, n, G_S_OTHER, sh0->n);
	if (f[0].have_ideal) {
		g->t[G_IDEAL] = time_of(f, n, G_S_IDEAL, sh0->n);
		g->naive_ideal = GEO(f, n, naive_ideal);
	}
	if (student)
		g->speedup = ratio_of(f, n,
				      offsetof(struct shape_fig, speedup));
	if (student && f[0].have_ideal)
		g->share = ratio_of(f, n, offsetof(struct shape_fig, share));
	if (!(n > 1 && student && f[0].have_ideal))
		g->share_max = 0;
	g->mhz_min = sh0->mhz_min;
	g->mhz_med = sh0->mhz_med;
	g->mhz_max = sh0->mhz_max;
	return 0;
}

/* ---- the checks of the samples ---- */

/* Is x a time a round can take: positive, finite, within the runner's
 * time limit (limit_us)? */
static int sane_us(double x, double limit_us)
{
	return x > 0 && isfinite(x) && x <= limit_us;
}

/* The k-th label of s's benchmark shapes ("a+b"), into out; -1: none. */
static int bench_label(const struct g_spec *s, int k, char *out, size_t n)
{
	const char *p = s->bench;
	size_t len;

	if (!strcmp(p, "-"))
		return -1;
	for (; k > 0; k--) {
		p = strchr(p, '+');
		if (!p)
			return -1;
		p++;
	}
	len = strcspn(p, "+");
	if (!len)
		return -1;
	snprintf(out, n, "%.*s", (int)len, p);
	return 0;
}

/* The shapes the record has are the ones s's table names, in order. */
static int check_shapes(const struct g_spec *s, const struct g_samples *smp,
			char *why, size_t n)
{
	char label[G_NAME_LEN];
	int k = 0;

	for (; k < smp->nshapes; k++) {
		if (bench_label(s, k, label, sizeof(label)) ||
		    strcmp(label, smp->shape[k].label)) {
			snprintf(why, n, "its shape %d is %s, where the lab's "
				 "table has %s", k, smp->shape[k].label,
				 bench_label(s, k, label, sizeof(label)) ?
				 "none" : label);
			return -1;
		}
		if (strcmp(smp->shape[k].who, smp->shape[0].who)) {
			snprintf(why, n, "shape %d times %s, shape 0 %s", k,
				 smp->shape[k].who, smp->shape[0].who);
			return -1;
		}
	}
	if (!bench_label(s, k, label, sizeof(label))) {
		snprintf(why, n, "it has no samples of shape %d (%s)", k,
			 label);
		return -1;
	}
	return 0;
}

/* Shape k's count of rounds: as declared, and within the runner's
 * limits (knobs.h: WB_MIN_SAMPLES to WB_MAX_SAMPLES). */
static int check_count(int k, const struct g_shape *sh, char *why, size_t n)
{
	if (sh->n != sh->rounds) {
		snprintf(why, n, "shape %d declares %d rounds and has %d "
			 "samples", k, sh->rounds, sh->n);
		return -1;
	}
	if (sh->n < WB_MIN_SAMPLES || sh->n > WB_MAX_SAMPLES) {
		snprintf(why, n, "shape %d has %d rounds, outside the runner's "
			 "%d to %d", k, sh->n, WB_MIN_SAMPLES, WB_MAX_SAMPLES);
		return -1;
	}
	return 0;
}

/* Shape k's spacer clock: all 0 (not measured), or an ordered range
 * within G_MHZ_LOW to G_MHZ_HIGH. */
static int check_clock(int k, const struct g_shape *sh, char *why, size_t n)
{
	if (sh->mhz_min == 0 && sh->mhz_med == 0 && sh->mhz_max == 0)
		return 0;
	if (sh->mhz_min >= G_MHZ_LOW && sh->mhz_min <= sh->mhz_med &&
	    sh->mhz_med <= sh->mhz_max && sh->mhz_max <= G_MHZ_HIGH)
		return 0;
	snprintf(why, n, "shape %d's SM clock reads %g/%g/%g MHz (min, "
		 "median, max; a GPU's lie within %.0f-%.0f)", k, sh->mhz_min,
		 sh->mhz_med, sh->mhz_max, G_MHZ_LOW, G_MHZ_HIGH);
	return -1;
}

/* Round j's ideal for what s's ideal is: a peer's is the peer's time
 * the driver passed (peer_us; 0: none, and no ideal); an instruction-
 * bound one at least the naive's time over the ideal speedup (which the
 * lab's table prints to 6 digits: within 1e-5). */
static int check_ideal(const struct g_spec *s, const struct g_shape *sh,
		       int j, double peer_us)
{
	double ideal = sh->us[G_S_IDEAL][j], naive = sh->us[G_S_NAIVE][j];

	if (!strcmp(s->ideal, "peer"))
		return peer_us > 0 ? agrees(ideal, peer_us, 9) : ideal == 0;
	if (!strcmp(s->ideal, "instr") && s->instr_speedup > 0 && ideal > 0)
		return ideal >= naive / s->instr_speedup * (1 - 1e-5);
	return 1;
}

/* Does shape sh measure an ideal (in round 0, so in every round)? */
static int has_ideal(const struct g_shape *sh)
{
	return sh->us[G_S_IDEAL][0] != 0;
}

/* Is column i of round j of sh a value it can take? Where nothing was
 * timed (no other series, no ideal) it is 0. */
static int sample_ok(const struct g_shape *sh, int i, int j, double limit)
{
	double x = sh->us[i][j];

	if ((i == G_S_OTHER && !strcmp(sh->who, "-")) ||
	    (i == G_S_IDEAL && !has_ideal(sh)))
		return x == 0;
	return sane_us(x, limit);
}

/* Why column i of round j of shape k is not (sample_ok()). */
static void sample_why(int k, const struct g_shape *sh, int i, int j,
		       char *why, size_t n)
{
	static const char *const col[G_SERIES] = { "its", "the naive's",
						   "the ideal" };
	double x = sh->us[i][j];

	if (i == G_S_IDEAL && (x == 0) == has_ideal(sh))
		snprintf(why, n, "shape %d, round %d: the ideal time is %g us, "
			 "round 0's %g us (an ideal is in every round or in "
			 "none)", k, j, x, sh->us[G_S_IDEAL][0]);
	else
		snprintf(why, n, "shape %d, round %d: %s time is %g us (a time "
			 "is positive, finite and under the time limit)", k, j,
			 col[i], x);
}

/* Shape k's rounds: every time sane, an ideal in every round or in none,
 * each the ideal s's kind allows. */
static int check_rounds(const struct g_spec *s, int k,
			const struct g_shape *sh, double peer_us, char *why,
			size_t n)
{
	double limit = s->timeout_s > 0 ? s->timeout_s * 1e6 : 1e9;

	if (sh->small != 0 && sh->small != 1) {
		snprintf(why, n, "shape %d's small-shape flag is %g (0 or 1)",
			 k, sh->small);
		return -1;
	}
	for (int j = 0; j < sh->n; j++) {
		for (int i = 0; i < G_SERIES; i++) {
			if (sample_ok(sh, i, j, limit))
				continue;
			sample_why(k, sh, i, j, why, n);
			return -1;
		}
		if (check_ideal(s, sh, j, peer_us))
			continue;
		snprintf(why, n, "shape %d, round %d: the ideal is %g us, which "
			 "an ideal of kind %s cannot be (the naive %g us, the "
			 "peer %g us)", k, j, sh->us[G_S_IDEAL][j], s->ideal,
			 sh->us[G_S_NAIVE][j], peer_us);
		return -1;
	}
	return 0;
}

/* Are the samples themselves sound (before anything is made of them)? */
static int check_samples(const struct g_spec *s, const struct g_samples *smp,
			 double peer_us, char *why, size_t n)
{
	if (smp->bad) {
		snprintf(why, n, "%s", smp->why);
		return -1;
	}
	if (check_shapes(s, smp, why, n))
		return -1;
	for (int k = 0; k < smp->nshapes; k++) {
		const struct g_shape *sh = &smp->shape[k];

		if (check_count(k, sh, why, n) || check_clock(k, sh, why, n) ||
		    check_rounds(s, k, sh, peer_us, why, n))
			return -1;
	}
	return 0;
}

/* ---- what the runner claims against what its samples give ---- */

static const char *const impl_word[G_IMPLS] = {
	[G_STUDENT] = "the student's", [G_NAIVE] = "the naive's",
	[G_PEER] = "the peer's", [G_IDEAL] = "the ideal",
};

/* A "time" line: there where the samples give one, and the same. */
static int same_time(int i, const struct g_timing *c, const struct g_timing *g,
		     char *why, size_t n)
{
	if (!c->have && !g->have)
		return 1;
	if (c->have && g->have && c->samples == g->samples &&
	    agrees(c->median_us, g->median_us, 3) &&
	    agrees(c->q1_us, g->q1_us, 3) && agrees(c->q3_us, g->q3_us, 3))
		return 1;
	snprintf(why, n, "it claims %s time of %.3f us (%.3f-%.3f, %d "
		 "rounds), its samples give %.3f us (%.3f-%.3f, %d rounds)",
		 impl_word[i], c->median_us, c->q1_us, c->q3_us, c->samples,
		 g->median_us, g->q1_us, g->q3_us, g->samples);
	return 0;
}

/* A "ratio" line: there where the samples give one, and the same. */
static int same_ratio(const char *what, const struct g_ratio *c,
		      const struct g_ratio *g, char *why, size_t n)
{
	if (!c->have && !g->have)
		return 1;
	if (c->have && g->have && agrees(c->med, g->med, 5) &&
	    agrees(c->lo, g->lo, 5) && agrees(c->hi, g->hi, 5))
		return 1;
	snprintf(why, n, "it claims a %s of %.5f (%.5f-%.5f), its samples give "
		 "%.5f (%.5f-%.5f)", what, c->have ? c->med : 0,
		 c->have ? c->lo : 0, c->have ? c->hi : 0, g->have ? g->med : 0,
		 g->have ? g->lo : 0, g->have ? g->hi : 0);
	return 0;
}

/* One figure the runner writes with `decimals` decimals (0: not written). */
static int same_value(const char *what, double c, double g, int decimals,
		      char *why, size_t n)
{
	if (agrees(c, g, decimals))
		return 1;
	snprintf(why, n, "it claims %s %.*f, its samples give %.*f", what,
		 decimals, c, decimals, g);
	return 0;
}

/* Every figure the record claims is the one its samples give. */
static int check_claims(const struct figures *c, const struct figures *g,
			char *why, size_t n)
{
	for (int i = 0; i < G_IMPLS; i++)
		if (!same_time(i, &c->t[i], &g->t[i], why, n))
			return -1;
	if (!same_ratio("speedup", &c->speedup, &g->speedup, why, n) ||
	    !same_ratio("share of the speed of light", &c->share, &g->share,
			why, n) ||
	    !same_value("a naive / ideal of", c->naive_ideal, g->naive_ideal,
			5, why, n) ||
	    !same_value("a largest shape's share of", c->share_max,
			g->share_max, 5, why, n) ||
	    !same_value("a lowest SM clock of", c->mhz_min, g->mhz_min, 0, why,
			n) ||
	    !same_value("a median SM clock of", c->mhz_med, g->mhz_med, 0, why,
			n) ||
	    !same_value("a highest SM clock of", c->mhz_max, g->mhz_max, 0, why,
			n))
		return -1;
	if (c->rounds != g->rounds) {
		snprintf(why, n, "its rounds line counts %d rounds, its "
			 "samples %d", c->rounds, g->rounds);
		return -1;
	}
	return 0;
}

/* What r says, as a struct figures. */
static void claimed(const struct g_result *r, struct figures *c)
{
	memcpy(c->t, r->t, sizeof(c->t));
	c->speedup = r->r_speedup;
	c->share = r->r_share;
	c->naive_ideal = r->naive_ideal;
	c->share_max = r->share_max;
	c->mhz_min = r->mhz_min;
	c->mhz_med = r->mhz_med;
	c->mhz_max = r->mhz_max;
	c->rounds = r->rounds;
}

/* The driver's figures in r, in the place of the runner's. */
static void adopt(struct g_result *r, const struct figures *g)
{
	memcpy(r->t, g->t, sizeof(r->t));
	r->r_speedup = g->speedup;
	r->r_share = g->share;
	r->naive_ideal = g->naive_ideal;
	r->share_max = g->share_max;
}

/* A record the driver cannot score: GRADER ERROR, no figures, and what
 * is wrong with it first among the details. */
static int not_scored(struct g_result *r, const char *runner, const char *what)
{
	struct figures none;

	memset(&none, 0, sizeof(none));
	adopt(r, &none);
	g_settle(r, WB_V_ERROR);
	g_detail_first(r, "the record of %s %s. Not scored: the grader scores "
			  "only what it can recompute from the rounds", runner,
		       what);
	return -1;
}

/* The same for a record that disagrees with itself: why says where. */
static int disagrees(struct g_result *r, const char *runner, const char *why)
{
	char what[320];

	snprintf(what, sizeof(what), "disagrees with itself: %s", why);
	return not_scored(r, runner, what);
}

int g_measure(const struct g_spec *s, struct g_result *r,
	      const struct g_samples *smp, const char *runner, double peer_us,
	      int timed)
{
	int required = timed && s->speed && r->verdict == WB_V_PASS;
	struct figures c, g;
	char why[256];

	if (!smp->nshapes && !smp->bad) {
		if (!required)
			return 0; /* nothing timed, nothing to check */
		return not_scored(r, runner, "has a timed PASS without its "
				  "rounds (no \"sample\" lines)");
	}
	if (check_samples(s, smp, peer_us, why, sizeof(why)))
		return disagrees(r, runner, why);
	if (required && strcmp(smp->shape[0].who, "student")) {
		snprintf(why, sizeof(why), "its rounds time %s, where a grade "
			 "times the student's code", smp->shape[0].who);
		return disagrees(r, runner, why);
	}
	if (recompute(s, smp, &g))
		return not_scored(r, runner, "could not be recomputed (out of "
				  "memory)");
	claimed(r, &c);
	if (check_claims(&c, &g, why, sizeof(why)))
		return disagrees(r, runner, why);
	adopt(r, &g);
	return 0;
}
