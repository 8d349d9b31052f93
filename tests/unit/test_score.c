/* SPDX-License-Identifier: MIT */
/*
 * test_score.c - grader/score/score.c: which lab tables are consistent, how a
 * share of the speed of light (a lab's tiers) or a speedup (a course's)
 * turns into performance points on the scale of common/scale.h (nothing
 * up to 1.05x over the naive, linear from there through the tiers,
 * capped at the top, the floors holding each tier above the naive's
 * noise), how a verdict and the measured ratios turn into an
 * exercise's score, with each tier as a speedup on this GPU, and how the
 * driver makes those figures itself from a record's raw rounds, a record
 * that disagrees with itself being a GRADER ERROR (g_measure).
 */
#include "unit.h"

#include "grade.h"
#include "knobs.h"
#include "record.h"
#include "score.h"

/* Lab 05's sum as its table says: 40 points for correctness, 60 over
 * three tiers at 30%, 54% and 78% of the speed of light. */
static struct g_spec lab_spec(void)
{
	struct g_spec s = {
		.lab = "05-reduction", .name = "sum", .bench = "n=64M",
		.speed = 1, .points_correct = 40, .points_speed = 60,
		.timeout_s = 60,
		.tiers = { { 0.30, 20 }, { 0.54, 40 }, { 0.78, 60 } },
		.ntiers = 3, .tier_unit = G_TIERS_SHARE, .tiers_from = "lab",
		.ideal = "dram",
	};

	return s;
}

/* The same exercise under a course's fixed speedups. */
static struct g_spec course_spec(void)
{
	struct g_spec s = lab_spec();

	s.tiers[0] = (struct g_tier){ 2, 20 };
	s.tiers[1] = (struct g_tier){ 3.5, 40 };
	s.tiers[2] = (struct g_tier){ 5.2, 60 };
	s.tier_unit = G_TIERS_SPEEDUP;
	return s;
}

static struct g_spec correct_spec(void)
{
	struct g_spec s = {
		.lab = "01-basics", .name = "saxpy", .bench = "-",
		.speed = 0, .points_correct = 10, .timeout_s = 30,
	};

	return s;
}

static struct g_timing median(double us)
{
	return (struct g_timing){ .have = us > 0, .median_us = us,
				  .q1_us = us, .q3_us = us, .samples = 21 };
}

/* A result with medians (microseconds; ideal 0: not measured), a byte
 * count and no paired ratios. */
static struct g_result timed(enum wb_verdict v, double naive_us,
			     double student_us, double ideal_us, double bytes)
{
	struct g_result r;

	memset(&r, 0, sizeof(r));
	r.verdict = v;
	r.complete = 1;
	r.t[G_NAIVE] = median(naive_us);
	r.t[G_STUDENT] = median(student_us);
	r.t[G_IDEAL] = median(ideal_us);
	r.bytes = bytes;
	return r;
}

/* Points of x under s, with R = naive / ideal. */
static double sp(const struct g_spec *s, double x, double r, int *tier,
		 double *next)
{
	int t;
	double n;

	return g_speed_points(s, x, r, tier ? tier : &t, next ? next : &n);
}

/* ---- g_spec_validate ---- */

static void validate_accepts_good_specs(void **state)
{
	struct g_spec lab = lab_spec(), course = course_spec();
	struct g_spec corr = correct_spec();
	char why[128] = "untouched";

	(void)state;
	assert_int_equal(g_spec_validate(&lab, why, sizeof(why)), 0);
	assert_int_equal(g_spec_validate(&course, why, sizeof(why)), 0);
	assert_int_equal(g_spec_validate(&corr, why, sizeof(why)), 0);
}

static void validate_rejects_falling_tiers(void **state)
{
	struct g_spec s = lab_spec();
	char why[128] = "";

	(void)state;
	s.tiers[1].x = 0.2; /* below tier 1's 30% */
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "tier 2");
	s = course_spec();
	s.tiers[1].x = 1.5; /* below tier 1's 2x */
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "tier 2");
}

static void validate_rejects_equal_tiers(void **state)
{
	struct g_spec s = lab_spec();
	char why[128] = "";

	(void)state;
	s.tiers[2].x = s.tiers[1].x;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "tier 3");
}

static void validate_rejects_points_not_rising(void **state)
{
	struct g_spec s = lab_spec();
	char why[128] = "";

	(void)state;
	s.tiers[1].points = 20; /* same as tier 1: no reason to go faster */
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "rise");
}

static void validate_rejects_nonpositive_tier(void **state)
{
	struct g_spec s = lab_spec();
	char why[128] = "";

	(void)state;
	s.tiers[0].x = 0;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	s = course_spec();
	s.tiers[0].x = -2;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
}

/* A share is of the speed of light: twice it is a typo (a speedup
 * written where a share belongs), while 2x over the naive is a speedup. */
static void validate_rejects_shares_far_past_the_speed_of_light(void **state)
{
	struct g_spec s = lab_spec();
	char why[128] = "";

	(void)state;
	s.tiers[0].x = 2.0;
	s.tiers[1].x = 3.5;
	s.tiers[2].x = 5.2;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "200% of the speed of light");
	s.tier_unit = G_TIERS_SPEEDUP;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), 0);
	/* The speed of light itself is a fair top tier. */
	s = lab_spec();
	s.tiers[2].x = 1.0;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), 0);
	/* The cap is 150% exactly (a course's shares are held to it too):
	 * at it, accepted; 5% past it, the typo it is there to catch. */
	s.tiers[2].x = 1.5;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), 0);
	s.tiers[2].x = 1.55;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "tier 3 asks for 155% of the speed of light");
}

static void validate_rejects_too_many_tiers(void **state)
{
	struct g_spec s = lab_spec();
	char why[128] = "";

	(void)state;
	for (int i = 0; i < G_MAX_TIERS; i++)
		s.tiers[i] = (struct g_tier){ 0.1 * (i + 1), 10.0 * (i + 1) };
	s.ntiers = G_MAX_TIERS;
	s.points_speed = 10.0 * G_MAX_TIERS;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), 0);
	s.ntiers = G_MAX_TIERS + 1; /* what the scale cannot hold */
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "more than");
}

static void validate_rejects_top_tier_not_points_speed(void **state)
{
	struct g_spec s = lab_spec();
	char why[128] = "";

	(void)state;
	s.points_speed = 50; /* top tier still gives 60 */
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "points_speed");
}

static void validate_rejects_correctness_with_tiers(void **state)
{
	struct g_spec s = correct_spec();
	char why[128] = "";

	(void)state;
	s.tiers[0] = (struct g_tier){ 0.5, 5 };
	s.ntiers = 1;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "correctness");
}

static void validate_rejects_correctness_with_speed_points(void **state)
{
	struct g_spec s = correct_spec();
	char why[128] = "";

	(void)state;
	s.points_speed = 5; /* points nobody could ever earn */
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
}

static void validate_rejects_speed_without_tiers(void **state)
{
	struct g_spec s = lab_spec();
	char why[128] = "";

	(void)state;
	s.ntiers = 0;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "tier");
}

static void validate_rejects_negative_points(void **state)
{
	struct g_spec s = correct_spec();
	char why[128] = "";

	(void)state;
	s.points_correct = -1;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "negative");
}

static void validate_truncates_reason_to_buffer(void **state)
{
	struct g_spec s = lab_spec();
	char why[16];

	(void)state;
	memset(why, 'x', sizeof(why));
	s.points_speed = 50;
	assert_int_equal(g_spec_validate(&s, why, 8), -1);
	assert_int_equal(strlen(why), 7); /* cut, terminated, in bounds */
	assert_int_equal(why[8], 'x');
}

/* ---- g_speed_points: a lab's shares, R = naive / ideal = 10 ---- */

/* 1.05x over the naive is a share of 1.05 / R: nothing up to there. */
static void shares_nothing_up_to_5_percent_over_the_naive(void **state)
{
	struct g_spec s = lab_spec();
	double next = -1;
	int tier = -1;

	(void)state;
	assert_near(sp(&s, 0.1, 10, &tier, &next), 0, 0); /* the naive */
	assert_int_equal(tier, 0);
	assert_near(next, 3.0, 1e-12); /* tier 1 as a speedup: 30% x 10 */
	assert_near(sp(&s, WB_ZERO_SPEEDUP / 10, 10, &tier, &next), 0, 0);
	assert_near(sp(&s, 0, 10, &tier, &next), 0, 0);
	assert_int_equal(tier, 0);
}

/* No jump at tier 1: the points rise linearly from 1.05x to it. */
static void shares_linear_from_the_start_to_tier_1(void **state)
{
	struct g_spec s = lab_spec();
	double next;
	int tier;

	(void)state;
	/* Halfway from 1.05x (10.5%) to tier 1 (30%, 20 points). */
	assert_near(sp(&s, (0.105 + 0.30) / 2, 10, &tier, &next), 10, 1e-9);
	assert_int_equal(tier, 0);
	assert_near(next, 3.0, 1e-12);
	/* Just under tier 1, just under its points. */
	assert_near(sp(&s, 0.30 - 1e-9, 10, &tier, &next), 20, 1e-6);
	assert_int_equal(tier, 0);
}

static void shares_exactly_at_each_tier(void **state)
{
	struct g_spec s = lab_spec();
	static const double next_of[3] = { 5.4, 7.8, 0 };
	double next;
	int tier;

	(void)state;
	for (int k = 0; k < 3; k++) {
		double p = sp(&s, s.tiers[k].x, 10, &tier, &next);

		assert_near(p, s.tiers[k].points, 1e-12);
		assert_int_equal(tier, k + 1);
		assert_near(next, next_of[k], 1e-12);
	}
}

static void shares_interpolate_between_tiers(void **state)
{
	struct g_spec s = lab_spec();
	double next;
	int tier;

	(void)state;
	/* Halfway from 30% (20) to 54% (40). */
	assert_near(sp(&s, 0.42, 10, &tier, &next), 30, 1e-9);
	assert_int_equal(tier, 1);
	assert_near(next, 5.4, 1e-12);
	/* A quarter of the way from 54% (40) to 78% (60). */
	assert_near(sp(&s, 0.60, 10, &tier, &next), 45, 1e-9);
	assert_int_equal(tier, 2);
	/* Continuous at tier 2 from below. */
	assert_near(sp(&s, 0.54 - 1e-9, 10, &tier, &next), 40, 1e-6);
	assert_int_equal(tier, 1);
}

static void shares_capped_above_top(void **state)
{
	struct g_spec s = lab_spec();
	double next = -1;
	int tier;

	(void)state;
	assert_near(sp(&s, 0.95, 10, &tier, &next), 60, 0);
	assert_int_equal(tier, 3);
	assert_near(next, 0, 0);
	assert_near(sp(&s, INFINITY, 10, &tier, &next), 60, 0);
}

static void shares_never_fall_never_exceed(void **state)
{
	struct g_spec s = lab_spec();
	double prev = 0;
	int tier, prev_tier = 0;

	(void)state;
	for (int i = 0; i <= 1000; i++) {
		double p = sp(&s, i * 0.001, 10, &tier, NULL);

		assert_true(p >= prev);
		assert_true(p <= s.points_speed);
		assert_true(tier >= prev_tier);
		prev = p;
		prev_tier = tier;
	}
	assert_near(prev, 60, 0);
}

/*
 * A GPU where the naive comes within 1.2x of the speed of light: 30%, 54%
 * and 78% of the ideal are all slower than 1.05x the naive, so nothing is
 * earned up to the gate (1.05x, a share of 87.5%), and past it what the
 * same share earns on any GPU: every tier, a perfect kernel's 60. Code no
 * faster than the naive earns nothing whatever R is.
 */
static void shares_gate_where_the_naive_is_near_the_ideal(void **state)
{
	static const double rs[] = { 1.02, 1.1, 1.2, 2, 5, 10, 50 };
	struct g_spec s = lab_spec();
	double next;
	int tier;

	(void)state;
	assert_near(sp(&s, 0.30, 1.2, &tier, &next), 0, 0);
	assert_int_equal(tier, 0);
	assert_near(next, WB_ZERO_SPEEDUP, 1e-12);
	assert_near(sp(&s, 0.78, 1.2, &tier, &next), 0, 0);
	assert_near(sp(&s, WB_ZERO_SPEEDUP / 1.2 * 0.999, 1.2, &tier, &next),
		    0, 0);
	assert_int_equal(tier, 0);
	assert_near(sp(&s, WB_ZERO_SPEEDUP / 1.2 * 1.001, 1.2, &tier, &next),
		    60, 0);
	assert_int_equal(tier, 3);
	assert_near(sp(&s, 1.0, 1.2, &tier, &next), 60, 0);
	/* A perfect kernel, 1.1x over the naive: past the gate, every tier. */
	assert_near(sp(&s, 1.0, 1.1, &tier, &next), 60, 0);
	for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++) {
		assert_near(sp(&s, 1 / rs[i], rs[i], &tier, NULL), 0, 0);
		assert_near(sp(&s, WB_ZERO_SPEEDUP / rs[i], rs[i], &tier,
			       NULL), 0, 0);
	}
}

/* R unknown: no floors and no speedups, the shares as they are. */
static void shares_without_r(void **state)
{
	struct g_spec s = lab_spec();
	double next = -1;
	int tier;

	(void)state;
	assert_near(sp(&s, 0.54, 0, &tier, &next), 40, 1e-12);
	assert_int_equal(tier, 2);
	assert_near(next, 0, 0);
	assert_near(sp(&s, 0.42, 0, &tier, &next), 30, 1e-9);
}

static void shares_single_tier(void **state)
{
	struct g_spec s = lab_spec();
	double next;
	int tier;

	(void)state;
	s.ntiers = 1;
	s.tiers[0] = (struct g_tier){ 0.5, 25 };
	s.points_speed = 25;
	assert_true(sp(&s, 0.49, 10, &tier, &next) < 25);
	assert_near(next, 5, 1e-12);
	assert_near(sp(&s, 0.5, 10, &tier, &next), 25, 0);
	assert_int_equal(tier, 1);
	assert_near(next, 0, 0);
	assert_near(sp(&s, 0.9, 10, &tier, &next), 25, 0);
}

/* ---- g_speed_points: a course's fixed speedups ---- */

static void speedups_from_5_percent_over_the_naive(void **state)
{
	struct g_spec s = course_spec();
	double next;
	int tier;

	(void)state;
	assert_near(sp(&s, 1.0, 0, &tier, &next), 0, 0);
	assert_near(next, 2, 0);
	assert_near(sp(&s, WB_ZERO_SPEEDUP, 0, &tier, &next), 0, 0);
	/* Halfway from 1.05x to 2x (20); from 2x to 3.5x (40); a quarter
	 * of the way from 3.5x to 5.2x (60). */
	assert_near(sp(&s, 1.525, 0, &tier, &next), 10, 1e-9);
	assert_int_equal(tier, 0);
	assert_near(sp(&s, 2.75, 0, &tier, &next), 30, 1e-9);
	assert_int_equal(tier, 1);
	assert_near(next, 3.5, 0);
	assert_near(sp(&s, 3.925, 0, &tier, &next), 45, 1e-9);
	assert_int_equal(tier, 2);
	assert_near(next, 5.2, 0);
	assert_near(sp(&s, 5.2, 0, &tier, &next), 60, 0);
	assert_int_equal(tier, 3);
	assert_near(next, 0, 0);
	assert_near(sp(&s, 50, 0, &tier, &next), 60, 0);
}

/* Fixed speedups are the same on every GPU: R changes nothing. */
static void speedups_ignore_r(void **state)
{
	struct g_spec s = course_spec();

	(void)state;
	for (int i = 0; i <= 100; i++) {
		double x = 0.07 * i;
		double a = sp(&s, x, 0, NULL, NULL);

		assert_near(sp(&s, x, 1.2, NULL, NULL), a, 0);
		assert_near(sp(&s, x, 10, NULL, NULL), a, 0);
	}
}

/* ---- g_score ---- */

static void score_wrong_earns_nothing_but_reports_figures(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_WRONG, 100, 25, 10, 1e6);

	(void)state;
	g_score(&s, &r, 400, 800);
	assert_near(r.points, 0, 0);
	assert_near(r.max_points, 100, 0);
	assert_near(r.speedup, 4, 1e-12);
	assert_near(r.share, 0.4, 1e-12);
	assert_near(r.gbps, 40, 1e-9); /* 1e6 B in 25 us */
	assert_near(r.pct_copy, 10, 1e-9);
	assert_near(r.pct_dram, 5, 1e-9);
	assert_int_equal(r.tier, 0);
	/* What tier 1 asks on this GPU: 30% of the ideal, 3x the naive. */
	assert_near(r.next_target, 3, 1e-12);
	assert_near(r.at[0], 3, 1e-12);
}

/* A compute-bound exercise: FLOP/s from the student's median, and the
 * library peer's median as 100% (its time over the student's). */
static void score_flops_and_peer(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 10, 1e6);

	(void)state;
	r.flops = 2.5e9; /* in 25 us: 100 TFLOP/s */
	r.t[G_PEER] = median(10);
	g_score(&s, &r, 400, 0);
	assert_near(r.tflops, 100, 1e-9);
	assert_near(r.pct_peer, 40, 1e-9);
	r.flops = 0;
	r.t[G_PEER].have = 0;
	g_score(&s, &r, 400, 0);
	assert_near(r.tflops, 0, 0);
	assert_near(r.pct_peer, 0, 0);
}

static void score_every_failing_verdict_earns_nothing(void **state)
{
	struct g_spec s = lab_spec();

	(void)state;
	for (int v = 0; v < WB_V_COUNT; v++) {
		struct g_result r = timed((enum wb_verdict)v, 100, 10, 9, 1e6);

		r.points = 99; /* stale: must be overwritten */
		r.tier = 3;
		g_score(&s, &r, 400, 0);
		if (v == WB_V_PASS) {
			assert_near(r.points, 100, 0);
		} else {
			assert_near(r.points, 0, 0);
			assert_int_equal(r.tier, 0);
		}
		assert_near(r.max_points, 100, 0);
	}
}

static void score_pass_correctness_only(void **state)
{
	struct g_spec s = correct_spec();
	struct g_result r = timed(WB_V_PASS, 100, 10, 0, 0);

	(void)state;
	r.at[0] = 7; /* stale */
	g_score(&s, &r, 400, 0);
	assert_near(r.points, 10, 0); /* a 10x speedup earns nothing more */
	assert_near(r.max_points, 10, 0);
	assert_int_equal(r.tier, 0);
	assert_near(r.next_target, 0, 0);
	for (int i = 0; i < G_MAX_TIERS; i++)
		assert_near(r.at[i], 0, 0);
}

/* Shares from the medians when the record has no paired ratios: 25 us
 * against an ideal of 10 us is 40%, R = 100 / 10. */
static void score_pass_share_between_tiers(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 10, 1e6);

	(void)state;
	g_score(&s, &r, 400, 0);
	assert_near(r.share, 0.4, 1e-12);
	/* 40 + 20 + 20 * (0.40 - 0.30) / 0.24 = 68.33 -> 68.3 */
	assert_near(r.points, 68.3, 1e-9);
	assert_near(r.max_points, 100, 0);
	assert_int_equal(r.tier, 1);
	assert_near(r.next_target, 5.4, 1e-12);
}

/* Each tier as a speedup on this GPU: share x R, or its floor. */
static void score_tiers_as_speedups_here(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 10, 1e6);

	(void)state;
	g_score(&s, &r, 400, 0);
	assert_near(r.at[0], 3.0, 1e-12);
	assert_near(r.at[1], 5.4, 1e-12);
	assert_near(r.at[2], 7.8, 1e-12);
	for (int i = 3; i < G_MAX_TIERS; i++)
		assert_near(r.at[i], 0, 0);
	/* A naive 1.2x from the ideal: every tier below the gate, 1.05x,
	 * is reached there; 1.09x is past it (a share of 90.8%: every
	 * tier, as on any GPU). */
	r = timed(WB_V_PASS, 12, 11, 10, 1e6);
	g_score(&s, &r, 400, 0);
	for (int k = 0; k < 3; k++)
		assert_near(r.at[k], WB_ZERO_SPEEDUP, 1e-12);
	assert_int_equal(r.tier, 3);
	assert_near(r.next_target, 0, 0);
	/* No ideal measured: no speedup for any tier. */
	r = timed(WB_V_WRONG, 100, 25, 0, 1e6);
	g_score(&s, &r, 400, 0);
	for (int i = 0; i < G_MAX_TIERS; i++)
		assert_near(r.at[i], 0, 0);
}

/*
 * The record's paired per-round medians come first (result.h, "ratio"
 * lines): the ratio of two medians is no median of the ratios, and the
 * runner's stopping rule judged the paired ones.
 */
static void score_prefers_paired_medians(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 10, 1e6);

	(void)state;
	r.r_speedup = (struct g_ratio){ 1, 4.41, 4.3, 4.5 };
	r.r_share = (struct g_ratio){ 1, 0.42, 0.41, 0.43 };
	r.naive_ideal = 10.5;
	g_score(&s, &r, 400, 0);
	assert_near(r.speedup, 4.41, 1e-12);
	assert_near(r.share, 0.42, 1e-12);
	/* 40 + 20 + 20 * (0.42 - 0.30) / 0.24 = 70 */
	assert_near(r.points, 70, 1e-9);
	/* R from the ratio line, not 100 / 10. */
	assert_near(r.at[0], 0.30 * 10.5, 1e-12);
	assert_near(r.at[2], 0.78 * 10.5, 1e-12);
	assert_near(r.next_target, 0.54 * 10.5, 1e-12);
	/* The medians still give the time and the bandwidth. */
	assert_near(r.gbps, 40, 1e-9);
}

/* A course's speedups: scored on the speedup, whatever the share. */
static void score_speedup_course(void **state)
{
	struct g_spec s = course_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 10, 1e6);

	(void)state;
	g_score(&s, &r, 400, 0);
	/* 4x: 40 + 40 + 20 * (4 - 3.5) / 1.7 = 85.88... -> 85.9 */
	assert_near(r.points, 85.9, 1e-9);
	assert_int_equal(r.tier, 2);
	assert_near(r.next_target, 5.2, 0);
	assert_near(r.at[0], 2, 0);
	assert_near(r.at[1], 3.5, 0);
	assert_near(r.at[2], 5.2, 0);
	/* The paired speedup, when the record has it. */
	r.r_speedup = (struct g_ratio){ 1, 5.2, 5.1, 5.3 };
	g_score(&s, &r, 400, 0);
	assert_near(r.points, 100, 0);
	assert_int_equal(r.tier, 3);
	assert_near(r.next_target, 0, 0);
	/* No ideal at all: a course's tiers need none. */
	r = timed(WB_V_PASS, 100, 25, 0, 1e6);
	g_score(&s, &r, 400, 0);
	assert_near(r.points, 85.9, 1e-9);
	assert_near(r.at[1], 3.5, 0);
}

static void score_pass_above_top(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_PASS, 1000, 10, 9, 1e6);

	(void)state;
	g_score(&s, &r, 400, 0);
	assert_near(r.points, 100, 0);
	assert_int_equal(r.tier, 3);
	assert_near(r.next_target, 0, 0);
}

/* 1.25x over the naive is below tier 1 and still earns a little. */
static void score_pass_below_first_tier(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_PASS, 100, 80, 10, 1e6);

	(void)state;
	g_score(&s, &r, 400, 0);
	/* share 12.5%: 40 + 20 * (0.125 - 0.105) / (0.30 - 0.105) = 42.05 */
	assert_near(r.points, 42.1, 1e-9);
	assert_int_equal(r.tier, 0);
	assert_near(r.next_target, 3, 1e-12);
	/* No faster than 1.05x: correctness alone. */
	r = timed(WB_V_PASS, 100, 100 / 1.04, 10, 1e6);
	g_score(&s, &r, 400, 0);
	assert_near(r.points, 40, 0);
}

static void score_missing_student_timing(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 10, 1e6);

	(void)state;
	r.t[G_STUDENT].have = 0;
	g_score(&s, &r, 400, 0);
	assert_near(r.speedup, 0, 0);
	assert_near(r.share, 0, 0);
	assert_near(r.gbps, 0, 0);
	assert_near(r.pct_copy, 0, 0);
	assert_near(r.points, 40, 0);
	assert_int_equal(r.tier, 0);
}

/* No naive timed: no speedup, no R (so no floors, scale.h), but the
 * share of the ideal still scores a lab's tiers. */
static void score_missing_naive_timing(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 10, 1e6);

	(void)state;
	r.t[G_NAIVE].have = 0;
	g_score(&s, &r, 400, 0);
	assert_near(r.speedup, 0, 0);
	assert_near(r.gbps, 40, 1e-9); /* bandwidth needs only the student */
	assert_near(r.points, 68.3, 1e-9);
	assert_near(r.at[0], 0, 0);
}

static void score_rounds_to_a_tenth(void **state)
{
	struct g_spec s = course_spec();
	struct g_result r = timed(WB_V_PASS, 210, 100, 0, 0);

	(void)state;
	g_score(&s, &r, 0, 0);
	/* 2.1x: 40 + 20 + 20 * 0.1 / 1.5 = 61.333... */
	assert_near(r.points, 61.3, 1e-9);

	r = timed(WB_V_PASS, 227, 100, 0, 0);
	g_score(&s, &r, 0, 0);
	/* 2.27x: 40 + 20 + 20 * 0.27 / 1.5 = 63.6 exactly, to a tenth */
	assert_near(r.points, 63.6, 1e-9);

	r = timed(WB_V_PASS, 21095, 10000, 0, 0);
	g_score(&s, &r, 0, 0);
	/* 2.1095x: 61.46 -> 61.5: rounded, not truncated */
	assert_near(r.points, 61.5, 1e-9);
	assert_near(r.points * 10, round(r.points * 10), 1e-9);
}

static void score_bandwidth_percentages(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r = timed(WB_V_PASS, 100, 50, 10, 2e7);

	(void)state;
	g_score(&s, &r, 800, 1000);
	assert_near(r.gbps, 400, 1e-9); /* 2e7 B in 50 us */
	assert_near(r.pct_copy, 50, 1e-9);
	assert_near(r.pct_dram, 40, 1e-9);

	g_score(&s, &r, 0, 0); /* no references: no percentages */
	assert_near(r.gbps, 400, 1e-9);
	assert_near(r.pct_copy, 0, 0);
	assert_near(r.pct_dram, 0, 0);

	r.bytes = 0; /* no byte count: no bandwidth */
	g_score(&s, &r, 800, 1000);
	assert_near(r.gbps, 0, 0);
	assert_near(r.pct_copy, 0, 0);
	assert_near(r.pct_dram, 0, 0);
}

/* ---- the tiers as text ---- */

/* As a course file writes them, and as the runner's --tiers reads them
 * (common/runner.c: "share 0.4:20 ..." or "speedup 1.5:20 ..."). */
static void tiers_as_text(void **state)
{
	struct g_spec lab = lab_spec(), course = course_spec();
	struct g_spec corr = correct_spec();
	char buf[256], small[12];

	(void)state;
	g_format_tiers(buf, sizeof(buf), &lab);
	assert_string_equal(buf, "0.3:20 0.54:40 0.78:60");
	g_tiers_arg(buf, sizeof(buf), &lab);
	assert_string_equal(buf, "share 0.3:20 0.54:40 0.78:60");
	g_tiers_arg(buf, sizeof(buf), &course);
	assert_string_equal(buf, "speedup 2:20 3.5:40 5.2:60");
	g_format_tiers(buf, sizeof(buf), &corr);
	assert_string_equal(buf, "none");
	/* Cut to the buffer, never past it. */
	memset(small, 'x', sizeof(small));
	g_tiers_arg(small, 10, &lab);
	assert_int_equal(strlen(small), 9);
	assert_int_equal(small[10], 'x');
}

/* ---- g_measure: the figures from a record's own rounds ---- */

#define RUNNER "build/sm90/labs/05-reduction/sum"

/* Round j's ideal less 10.5 us: -0.7 to 0.7 in steps of 0.1, in no
 * order, so that the medians and the order statistics of the 95%
 * interval (rounds 3 and 11 of 15 sorted) can be worked out by hand. */
static const double dev15[15] = { 0.3, -0.7, 0.1, 0.6, -0.2, -0.5, 0.0, 0.7,
				  -0.1, 0.4, -0.6, 0.2, -0.3, 0.5, -0.4 };

/* A record's text, built line by line. */
struct text {
	char buf[32768];
	size_t n;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	t->n += (size_t)vsnprintf(t->buf + t->n, sizeof(t->buf) - t->n, fmt,
				  ap);
	va_end(ap);
	assert_true(t->n < sizeof(t->buf));
}

/*
 * Shape k's 15 rounds as runner.c writes them: the ideal 10.5 us plus
 * dev15 (peer: 10.5 us flat, a peer's time), the naive 10.5 times the
 * DRAM ideal, the student student_us in every round.
 */
static void put_shape(struct text *t, int k, const char *label,
		      double student_us, int peer)
{
	put(t, "shape %d %s 15 student 0 1755 1980 1980\n", k, label);
	for (int j = 0; j < 15; j++) {
		double dram = 10.5 + dev15[j];

		put(t, "sample %d %d %.9g %.9g %.9g\n", k, j, student_us,
		    10.5 * dram, peer ? 10.5 : dram);
	}
}

/*
 * What the runner claims for put_shape(0, "n=64M", 25, 0), by hand: the
 * naive's median 10.5 x 10.5, its quartiles 10.5 x 10.15 and 10.5 x
 * 10.85; the share 10.5 / 25 = 0.42 between 10.1 / 25 and 10.9 / 25 (the
 * 4th and 12th ideals), the speedup 10.5 times that; naive / ideal 10.5
 * in every round. The same figures as score_prefers_paired_medians().
 */
static const char claims_25[] =
	"time naive 110.250 106.575 113.925 15\n"
	"time student 25.000 25.000 25.000 15\n"
	"time ideal 10.500 10.150 10.850 15\n"
	"ratio speedup 4.41000 4.24200 4.57800\n"
	"ratio share 0.42000 0.40400 0.43600\n"
	"ratio naive_ideal 10.50000 0 0\n"
	"sol dram 999996 4 3300.5 3100.2\n"
	"clock 1755 1980 1980\n"
	"rounds 15 2 1 0 3 0\n"
	"bytes 1000000\n"
	"verdict PASS\n"
	"end\n";

/* One shape of sum, as a runner writes it. */
static void sum_record(struct text *t)
{
	t->n = 0;
	put(t, "seed 7\nsize n=64M ok\n");
	put_shape(t, 0, "n=64M", 25, 0);
	put(t, "%s", claims_25);
}

/* text with the first `from` replaced by `to` (in place; fails the test
 * when from is not there). */
static void swap(struct text *t, const char *from, const char *to)
{
	char *at = strstr(t->buf, from), rest[sizeof(t->buf)];

	assert_non_null(at);
	snprintf(rest, sizeof(rest), "%s", at + strlen(from));
	t->n = (size_t)(at - t->buf);
	put(t, "%s%s", to, rest);
}

/* Read text, measure it (a timed grade when timed) and score it under s;
 * g_measure()'s return. */
static int measured(const struct g_spec *s, const char *text, double peer_us,
		    int timed, struct g_result *r)
{
	static struct g_samples smp;
	int ret;

	memset(r, 0, sizeof(*r));
	g_parse_record_samples(text, r, &smp);
	assert_int_equal(r->complete, 1);
	assert_int_equal(r->garbled, 0);
	ret = g_measure(s, r, &smp, RUNNER, peer_us, timed);
	g_score(s, r, 400, 0);
	return ret;
}

/* A GRADER ERROR whose first detail names the runner and says what. */
static void assert_not_scored(const struct g_result *r, const char *what)
{
	assert_int_equal(r->verdict, WB_V_ERROR);
	assert_near(r->points, 0, 0);
	assert_int_equal(r->tier, 0);
	assert_false(r->t[G_STUDENT].have);
	assert_false(r->r_share.have);
	assert_near(r->share, 0, 0);
	assert_near(r->speedup, 0, 0);
	assert_contains(r->details[0], "the record of " RUNNER);
	assert_contains(r->details[0], what);
	assert_contains(r->details[0], "Not scored");
}

/* A record whose rounds give what it claims scores as it always did:
 * the numbers of score_prefers_paired_medians(), now the driver's own. */
static void measure_consistent_record_scores_the_same(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;

	(void)state;
	sum_record(&t);
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_near(r.t[G_NAIVE].median_us, 110.25, 1e-9);
	assert_near(r.t[G_NAIVE].q1_us, 106.575, 1e-9);
	assert_near(r.t[G_NAIVE].q3_us, 113.925, 1e-9);
	assert_int_equal(r.t[G_NAIVE].samples, 15);
	assert_near(r.t[G_STUDENT].median_us, 25, 1e-12);
	assert_near(r.t[G_IDEAL].median_us, 10.5, 1e-12);
	assert_false(r.t[G_PEER].have);
	assert_near(r.speedup, 4.41, 1e-12);
	assert_near(r.r_speedup.lo, 4.242, 1e-12);
	assert_near(r.r_speedup.hi, 4.578, 1e-12);
	assert_near(r.share, 0.42, 1e-12);
	assert_near(r.r_share.lo, 0.404, 1e-12);
	assert_near(r.r_share.hi, 0.436, 1e-12);
	assert_near(r.naive_ideal, 10.5, 1e-12);
	assert_near(r.share_max, 0, 0); /* one shape: none */
	/* 40 + 20 + 20 * (0.42 - 0.30) / 0.24 = 70 */
	assert_near(r.points, 70, 1e-9);
	assert_int_equal(r.tier, 1);
	assert_near(r.at[0], 0.30 * 10.5, 1e-12);
	assert_near(r.next_target, 0.54 * 10.5, 1e-12);
	assert_near(r.gbps, 40, 1e-9);
	assert_int_equal(r.ndetails, 0);
}

/* What is scored is the driver's figure, not the runner's rounding of
 * it: a claim within its line's rounding agrees, and is replaced. */
static void measure_scores_its_own_figures(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;

	(void)state;
	sum_record(&t);
	swap(&t, "ratio share 0.42000", "ratio share 0.42001");
	swap(&t, "time student 25.000", "time student 25.001");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), 0);
	assert_near(r.r_share.med, 0.42, 1e-12);
	assert_near(r.t[G_STUDENT].median_us, 25, 1e-12);
	assert_near(r.points, 70, 1e-9);
}

/* The share the runner claims is not what its rounds give: GRADER
 * ERROR, whatever it would have earned, with both figures. */
static void measure_claimed_share_disagrees(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;

	(void)state;
	sum_record(&t);
	swap(&t, "ratio share 0.42000 0.40400 0.43600",
	     "ratio share 0.78000 0.77000 0.79000");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "disagrees with itself: it claims a share of "
			  "the speed of light of 0.78000 (0.77000-0.79000), "
			  "its samples give 0.42000 (0.40400-0.43600)");
	/* Only the interval off, or no share line at all: the same. */
	sum_record(&t);
	swap(&t, "0.40400 0.43600", "0.41000 0.43000");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "share of the speed of light");
	sum_record(&t);
	swap(&t, "ratio share 0.42000 0.40400 0.43600\n", "");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "claims a share of the speed of light of "
			  "0.00000");
}

/* Every other figure the runner claims is checked the same way. */
static void measure_other_claims_disagree(void **state)
{
	static const struct {
		const char *from, *to, *what;
	} cases[] = {
		{ "time student 25.000 25.000 25.000 15",
		  "time student 20.000 20.000 20.000 15",
		  "it claims the student's time of 20.000 us" },
		{ "time naive 110.250 106.575 113.925 15",
		  "time naive 110.250 106.575 113.925 14", "14 rounds" },
		{ "time ideal 10.500", "time ideal 12.500",
		  "the ideal time of 12.500 us" },
		{ "ratio speedup 4.41000", "ratio speedup 4.51000",
		  "it claims a speedup of 4.51000" },
		{ "ratio naive_ideal 10.50000", "ratio naive_ideal 10.60000",
		  "a naive / ideal of 10.60000" },
		{ "clock 1755 1980 1980", "clock 1755 1800 1980",
		  "a median SM clock of 1800" },
		{ "rounds 15 2 1 0 3 0", "rounds 16 2 1 0 3 0",
		  "its rounds line counts 16 rounds, its samples 15" },
		{ "rounds 15 2 1 0 3 0\n", "", "counts 0 rounds" },
	};
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sum_record(&t);
		swap(&t, cases[i].from, cases[i].to);
		assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
		assert_not_scored(&r, cases[i].what);
	}
}

/* A round missing, one too many, one twice or out of its shape: the
 * counts must be the ones the shape declares, in order. */
static void measure_missing_or_extra_samples(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;
	char line[128];

	(void)state;
	sum_record(&t);
	snprintf(line, sizeof(line), "sample 0 14 25 %.9g %.9g\n",
		 10.5 * (10.5 - 0.4), 10.5 - 0.4);
	swap(&t, line, "");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "shape 0 declares 15 rounds and has 14 samples");

	sum_record(&t);
	swap(&t, "time naive", "sample 0 15 25 110 10\ntime naive");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "shape 0 declares 15 rounds and has 16 samples");

	sum_record(&t);
	swap(&t, "sample 0 4 ", "sample 0 3 ");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "shape 0: round 3 where round 4 was due");

	sum_record(&t);
	swap(&t, "sample 0 4 ", "sample 1 4 ");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "a sample of shape 1 among the samples of "
			  "shape 0");

	/* Declared and given alike, but fewer than the runner ever keeps. */
	t.n = 0;
	put(&t, "shape 0 n=64M 3 student 0 1755 1980 1980\n"
		"sample 0 0 25 110 10\nsample 0 1 25 110 10\n"
		"sample 0 2 25 110 10\n%s", claims_25);
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "shape 0 has 3 rounds, outside the runner's 15 "
			  "to 401");
}

/* NaN, infinite, negative, zero and impossibly long times. */
static void measure_times_not_times(void **state)
{
	static const char *const bad[] = { "nan", "-25", "inf", "0", "1e12",
					   "-nan" };
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;
	char to[64];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sum_record(&t);
		snprintf(to, sizeof(to), "sample 0 6 %s ", bad[i]);
		swap(&t, "sample 0 6 25 ", to);
		assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
		assert_not_scored(&r, "shape 0, round 6: its time is");
	}
	/* The naive's and the ideal's columns too. */
	sum_record(&t);
	swap(&t, "sample 0 2 25 111.3 10.6", "sample 0 2 25 nan 10.6");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "round 2: the naive's time is nan us");
	sum_record(&t);
	swap(&t, "sample 0 2 25 111.3 10.6", "sample 0 2 25 111.3 -10.6");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "round 2: the ideal time is -10.6 us");
	/* An ideal in some rounds only. */
	sum_record(&t);
	swap(&t, "sample 0 5 25 105 10\n", "sample 0 5 25 105 0\n");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "round 5: the ideal time is 0 us, round 0's "
			  "10.8 us (an ideal is in every round or in none)");
	sum_record(&t);
	swap(&t, "sample 0 0 25 113.4 10.8", "sample 0 0 25 113.4 0");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "round 1: the ideal time is 9.8 us, round 0's "
			  "0 us");
}

/* The spacer's clock: unmeasured (all 0) is fine; out of order or far
 * outside any GPU's is not. */
static void measure_clock_plausible(void **state)
{
	static const char *const bad[] = { "1980 1755 1980", "1755 1980 1e6",
					   "-1 1980 1980", "nan 1980 1980",
					   "0 1980 1980" };
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;
	char to[64];

	(void)state;
	sum_record(&t);
	swap(&t, "student 0 1755 1980 1980", "student 0 0 0 0");
	swap(&t, "clock 1755 1980 1980", "clock 0 0 0");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sum_record(&t);
		snprintf(to, sizeof(to), "student 0 %s", bad[i]);
		swap(&t, "student 0 1755 1980 1980", to);
		assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
		assert_not_scored(&r, "shape 0's SM clock reads");
	}
}

/* The shapes are the lab table's, in order, each of them. */
static void measure_shapes_are_the_tables(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;

	(void)state;
	sum_record(&t);
	swap(&t, "shape 0 n=64M", "shape 0 n=32M");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "its shape 0 is n=32M, where the lab's table has "
			  "n=64M");
	snprintf(s.bench, sizeof(s.bench), "n=64M+n=16M");
	sum_record(&t);
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "it has no samples of shape 1 (n=16M)");
	/* A grade's rounds time the student's code, no other. */
	s = lab_spec();
	sum_record(&t);
	swap(&t, "n=64M 15 student", "n=64M 15 peer");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "its rounds time peer, where a grade times the "
			  "student's code");
}

/* A timed PASS must bring its rounds; a record that times nothing need
 * not, and one read as a report (not timed) is scored as it was. */
static void measure_record_without_samples(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;

	(void)state;
	assert_int_equal(measured(&s, claims_25, 0, 1, &r), -1);
	assert_not_scored(&r, "has a timed PASS without its rounds");
	/* SIZE= (not timed): the claims as they were, scored as before. */
	assert_int_equal(measured(&s, claims_25, 0, 0, &r), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_near(r.share, 0.42, 0);
	assert_near(r.points, 70, 1e-9);
	/* No PASS, or a correctness exercise: nothing timed to check. */
	assert_int_equal(measured(&s, "size n=1 fail\nverdict WRONG\nend\n", 0,
				  1, &r), 0);
	assert_int_equal(r.verdict, WB_V_WRONG);
	s = correct_spec();
	assert_int_equal(measured(&s, "size n=1 ok\nverdict PASS\nend\n", 0, 1,
				  &r), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_near(r.points, 10, 0);
}

/* Two shapes: geometric means over them, the largest shape's share, as
 * runner.c writes them (worked out by hand: shape b's student takes 50
 * us, so its share is 0.21 and the mean sqrt(0.42 x 0.21)). */
static void measure_two_shapes(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;

	(void)state;
	snprintf(s.bench, sizeof(s.bench), "a+b");
	t.n = 0;
	put_shape(&t, 0, "a", 25, 0);
	put_shape(&t, 1, "b", 50, 0);
	put(&t, "time naive 110.250 106.575 113.925 15\n"
		"time student 35.355 35.355 35.355 15\n"
		"time ideal 10.500 10.150 10.850 15\n"
		"ratio speedup 3.11834 2.99955 3.23713\n"
		"ratio share 0.29698 0.28567 0.30830\n"
		"ratio share_max 0.42000 0 0\n"
		"ratio naive_ideal 10.50000 0 0\n"
		"clock 1755 1980 1980\n"
		"rounds 30 0 0 0 6 0\n"
		"verdict PASS\nend\n");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), 0);
	assert_near(r.share, sqrt(0.42 * 0.21), 1e-12);
	assert_near(r.r_share.lo, sqrt(0.404 * 0.202), 1e-12);
	assert_near(r.speedup, sqrt(4.41 * 2.205), 1e-12);
	assert_near(r.share_max, 0.42, 1e-12);
	assert_near(r.t[G_STUDENT].median_us, sqrt(25 * 50), 1e-12);
	/* 0.29698 from the start of the scale (1.05 / 10.5 = 0.1) to tier
	 * 1: 40 + 20 * (0.29698 - 0.1) / 0.2 = 59.698 -> 59.7 */
	assert_near(r.points, 59.7, 1e-9);
	/* The largest share claimed otherwise: the same GRADER ERROR. */
	swap(&t, "share_max 0.42000", "share_max 0.21000");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "a largest shape's share of 0.21000");
}

/* A peer's ideal is the peer's time the driver passed, every round; a
 * share of it is widened by WB_RUN_TO_RUN_PEER. */
static void measure_peer_ideal(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;

	(void)state;
	snprintf(s.ideal, sizeof(s.ideal), "peer");
	t.n = 0;
	put_shape(&t, 0, "n=64M", 25, 1);
	put(&t, "time naive 110.250 106.575 113.925 15\n"
		"time student 25.000 25.000 25.000 15\n"
		"time ideal 10.500 10.500 10.500 15\n"
		"ratio speedup 4.41000 4.24200 4.57800\n"
		"ratio share 0.42000 0.39900 0.44100\n"
		"ratio naive_ideal 10.50000 0 0\n"
		"clock 1755 1980 1980\nrounds 15 0 0 0 3 0\n"
		"verdict PASS\nend\n");
	assert_int_equal(measured(&s, t.buf, 10.5, 1, &r), 0);
	assert_near(r.share, 0.42, 1e-12);
	assert_near(r.r_share.lo, 0.42 * (1 - WB_RUN_TO_RUN_PEER), 1e-12);
	assert_near(r.r_share.hi, 0.42 * (1 + WB_RUN_TO_RUN_PEER), 1e-12);
	/* Another peer time than the driver passed. */
	assert_int_equal(measured(&s, t.buf, 9.5, 1, &r), -1);
	assert_not_scored(&r, "round 0: the ideal is 10.5 us, which an ideal "
			  "of kind peer cannot be");
	/* Rounds that vary as probes do are no peer's time. */
	sum_record(&t);
	assert_int_equal(measured(&s, t.buf, 10.5, 1, &r), -1);
	assert_not_scored(&r, "which an ideal of kind peer cannot be");
}

/* An instruction-bound ideal is never shorter than the naive's time over
 * the ideal speedup: here the naive is 10.5 times the ideal. */
static void measure_instr_ideal(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;

	(void)state;
	snprintf(s.ideal, sizeof(s.ideal), "instr");
	s.instr_speedup = 2;
	sum_record(&t);
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_not_scored(&r, "which an ideal of kind instr cannot be");
	s.instr_speedup = 12; /* naive / 12 is under every ideal: fine */
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), 0);
}

/* What disagreed comes first, before what the runner said. */
static void measure_error_detail_first(void **state)
{
	struct g_spec s = lab_spec();
	struct g_result r;
	struct text t;

	(void)state;
	sum_record(&t);
	swap(&t, "seed 7\n", "seed 7\ndetail speed of light 10.5 us\n");
	swap(&t, "ratio speedup 4.41000 4.24200 4.57800",
	     "ratio speedup 9.41000 9.24200 9.57800");
	assert_int_equal(measured(&s, t.buf, 0, 1, &r), -1);
	assert_int_equal(r.ndetails, 2);
	assert_contains(r.details[0], "speedup of 9.41000");
	assert_string_equal(r.details[1], "speed of light 10.5 us");
}

#define T(f) cmocka_unit_test(f)

/* An exercise that needs sm_80 on a T4, an A100, an H100, and a GPU
 * whose compute capability is unknown (never too old). */
static void too_new_for_older_gpus(void **state)
{
	struct g_spec s = { .lab = "08-tensor-cores", .name = "hgemm",
			    .min_cc = 80 };
	char why[160] = "";

	(void)state;
	assert_int_equal(g_spec_too_new(&s, 75, why, sizeof(why)), 1);
	assert_string_equal(why, "lab 08 needs compute capability 8.0 or "
			    "later; this GPU is 7.5");
	assert_int_equal(g_spec_too_new(&s, 80, NULL, 0), 0);
	assert_int_equal(g_spec_too_new(&s, 90, NULL, 0), 0);
	assert_int_equal(g_spec_too_new(&s, 0, NULL, 0), 0);
	s.min_cc = 0;
	assert_int_equal(g_spec_too_new(&s, 75, NULL, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(validate_accepts_good_specs),
		T(too_new_for_older_gpus),
		T(validate_rejects_falling_tiers),
		T(validate_rejects_equal_tiers),
		T(validate_rejects_points_not_rising),
		T(validate_rejects_nonpositive_tier),
		T(validate_rejects_shares_far_past_the_speed_of_light),
		T(validate_rejects_too_many_tiers),
		T(validate_rejects_top_tier_not_points_speed),
		T(validate_rejects_correctness_with_tiers),
		T(validate_rejects_correctness_with_speed_points),
		T(validate_rejects_speed_without_tiers),
		T(validate_rejects_negative_points),
		T(validate_truncates_reason_to_buffer),
		T(shares_nothing_up_to_5_percent_over_the_naive),
		T(shares_linear_from_the_start_to_tier_1),
		T(shares_exactly_at_each_tier),
		T(shares_interpolate_between_tiers),
		T(shares_capped_above_top),
		T(shares_never_fall_never_exceed),
		T(shares_gate_where_the_naive_is_near_the_ideal),
		T(shares_without_r),
		T(shares_single_tier),
		T(speedups_from_5_percent_over_the_naive),
		T(speedups_ignore_r),
		T(score_wrong_earns_nothing_but_reports_figures),
		T(score_every_failing_verdict_earns_nothing),
		T(score_pass_correctness_only),
		T(score_pass_share_between_tiers),
		T(score_tiers_as_speedups_here),
		T(score_prefers_paired_medians),
		T(score_speedup_course),
		T(score_pass_above_top),
		T(score_pass_below_first_tier),
		T(score_missing_student_timing),
		T(score_missing_naive_timing),
		T(score_rounds_to_a_tenth),
		T(score_bandwidth_percentages),
		T(score_flops_and_peer),
		T(tiers_as_text),
		T(measure_consistent_record_scores_the_same),
		T(measure_scores_its_own_figures),
		T(measure_claimed_share_disagrees),
		T(measure_other_claims_disagree),
		T(measure_missing_or_extra_samples),
		T(measure_times_not_times),
		T(measure_clock_plausible),
		T(measure_shapes_are_the_tables),
		T(measure_record_without_samples),
		T(measure_two_shapes),
		T(measure_peer_ideal),
		T(measure_instr_ideal),
		T(measure_error_detail_first),
	};

	return cmocka_run_group_tests_name("score", tests, NULL, NULL);
}
