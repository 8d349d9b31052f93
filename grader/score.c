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
 */
#include "score.h"

#include <math.h>
#include <stdio.h>

#include "../common/scale.h"

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
