/* SPDX-License-Identifier: MIT */
/*
 * test_score.c - grader/score.c: which lab tables are consistent, how a
 * share of the speed of light (a lab's tiers) or a speedup (a course's)
 * turns into performance points on the scale of common/scale.h (nothing
 * up to 1.05x over the naive, linear from there through the tiers,
 * capped at the top, the floors holding each tier above the naive's
 * noise), and how a verdict and the measured ratios turn into an
 * exercise's score, with each tier as a speedup on this GPU.
 */
#include "unit.h"

#include "grade.h"
#include "knobs.h"
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
 * A GPU where the naive comes within 1.2x of the speed of light: 30% of
 * the ideal is slower than the naive itself, so the floors hold tier k at
 * 1.05 x 1.03^k over the naive, and code no faster than the naive earns
 * nothing whatever R is.
 */
static void shares_floors_where_the_naive_is_near_the_ideal(void **state)
{
	static const double rs[] = { 1.02, 1.1, 1.2, 2, 5, 10, 50 };
	struct g_spec s = lab_spec();
	double next;
	int tier;

	(void)state;
	assert_near(sp(&s, 0.30, 1.2, &tier, &next), 0, 0);
	assert_int_equal(tier, 0);
	assert_near(next, WB_ZERO_SPEEDUP * WB_TIER_STEP, 1e-12);
	/* Tier 3 needs 1.05 x 1.03^3 = 1.14736x here: a share of 95.6%. */
	assert_near(sp(&s, 0.78, 1.2, &tier, &next), 0, 0);
	assert_true(sp(&s, 1.1473 / 1.2, 1.2, &tier, &next) < 60);
	assert_int_equal(tier, 2);
	assert_near(sp(&s, 1.1474 / 1.2, 1.2, &tier, &next), 60, 0);
	assert_int_equal(tier, 3);
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
	/* A naive 1.2x from the ideal: the floors. */
	r = timed(WB_V_PASS, 12, 11, 10, 1e6);
	g_score(&s, &r, 400, 0);
	for (int k = 0; k < 3; k++)
		assert_near(r.at[k], WB_ZERO_SPEEDUP * pow(WB_TIER_STEP, k + 1),
			    1e-12);
	/* 1.09x is past the first floor (1.0815x), short of the second. */
	assert_int_equal(r.tier, 1);
	assert_near(r.next_target, WB_ZERO_SPEEDUP * pow(WB_TIER_STEP, 2),
		    1e-12);
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
		T(shares_floors_where_the_naive_is_near_the_ideal),
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
	};

	return cmocka_run_group_tests_name("score", tests, NULL, NULL);
}
