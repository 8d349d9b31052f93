/* SPDX-License-Identifier: MIT */
/*
 * score.c - from a verdict and two medians to points.
 *
 * Correctness gates everything: only PASS earns points. A correctness-only
 * exercise earns points_correct. A speed exercise earns points_correct plus
 * performance points: none below the first tier, tier k's points at tier
 * k, linear in the speedup between two tiers, and the top tier's points
 * (= points_speed) at or above it, never more.
 */
#include "grade.h"

#include <math.h>
#include <stdio.h>

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
	for (int i = 0; i < s->ntiers; i++) {
		const struct g_tier *t = &s->tiers[i];

		if (!(t->speedup > 0) || !(t->points >= 0) ||
		    (i && (t->speedup <= t[-1].speedup ||
			   t->points <= t[-1].points))) {
			snprintf(why, n, "tier %d does not rise above tier %d",
				 i + 1, i);
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

double g_speed_points(const struct g_spec *s, double speedup, int *tier,
		      double *next_target)
{
	const struct g_tier *t = s->tiers;
	int k = 0;

	while (k < s->ntiers && speedup >= t[k].speedup)
		k++;
	*tier = k;
	*next_target = k < s->ntiers ? t[k].speedup : 0;
	if (k == 0)
		return 0;
	if (k == s->ntiers)
		return t[k - 1].points;
	return t[k - 1].points + (t[k].points - t[k - 1].points) *
					 (speedup - t[k - 1].speedup) /
					 (t[k].speedup - t[k - 1].speedup);
}

void g_score(const struct g_spec *s, struct g_result *r, double copy_gbps)
{
	const struct g_timing *st = &r->t[G_STUDENT], *nv = &r->t[G_NAIVE];

	r->max_points = s->points_correct + s->points_speed;
	r->points = 0;
	r->speedup = r->gbps = r->pct_copy = r->tflops = r->pct_peer = 0;
	r->tier = 0;
	r->next_target = s->ntiers ? s->tiers[0].speedup : 0;
	if (st->have && nv->have)
		r->speedup = nv->median_us / st->median_us;
	if (st->have && r->bytes > 0)
		r->gbps = r->bytes / (st->median_us * 1e-6) / 1e9;
	if (r->gbps > 0 && copy_gbps > 0)
		r->pct_copy = 100 * r->gbps / copy_gbps;
	if (st->have && r->flops > 0)
		r->tflops = r->flops / (st->median_us * 1e-6) / 1e12;
	if (st->have && r->t[G_PEER].have)
		r->pct_peer = 100 * r->t[G_PEER].median_us / st->median_us;
	if (r->verdict != WB_V_PASS)
		return;
	r->points = s->points_correct;
	if (s->speed && r->speedup > 0)
		r->points += g_speed_points(s, r->speedup, &r->tier,
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
				 s->tiers[i].speedup, s->tiers[i].points);
	if (!s->ntiers)
		snprintf(buf, n, "none");
}
