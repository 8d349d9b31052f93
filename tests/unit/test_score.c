/* SPDX-License-Identifier: MIT */
/*
 * test_score.c - grader/score.c: which lab tables are consistent, how a
 * speedup turns into performance points (nothing below the first tier,
 * linear between tiers, capped at the top) and how a verdict and two
 * medians turn into an exercise's score.
 */
#include "unit.h"

#include "grade.h"

/* A speed exercise: 40 points for correctness, 60 over three tiers. */
static struct g_spec speed_spec(void)
{
	struct g_spec s = {
		.lab = "05-reduction", .name = "sum", .bench = "n=64M",
		.speed = 1, .points_correct = 40, .points_speed = 60,
		.timeout_s = 60,
		.tiers = { { 2, 20 }, { 3.5, 40 }, { 5.2, 60 } },
		.ntiers = 3,
	};

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

/* A result with both medians (microseconds) and a byte count. */
static struct g_result timed(enum wb_verdict v, double naive_us,
			     double student_us, double bytes)
{
	struct g_result r;

	memset(&r, 0, sizeof(r));
	r.verdict = v;
	r.complete = 1;
	r.t[G_NAIVE] = (struct g_timing){ .have = 1, .median_us = naive_us,
					  .q1_us = naive_us, .q3_us = naive_us,
					  .samples = 20 };
	r.t[G_STUDENT] = (struct g_timing){ .have = 1,
					    .median_us = student_us,
					    .q1_us = student_us,
					    .q3_us = student_us,
					    .samples = 20 };
	r.bytes = bytes;
	return r;
}

/* ---- g_spec_validate ---- */

static void validate_accepts_good_speed_spec(void **state)
{
	struct g_spec s = speed_spec();
	char why[128] = "untouched";

	(void)state;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), 0);
}

static void validate_accepts_correctness_spec(void **state)
{
	struct g_spec s = correct_spec();
	char why[128];

	(void)state;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), 0);
}

static void validate_rejects_falling_speedups(void **state)
{
	struct g_spec s = speed_spec();
	char why[128] = "";

	(void)state;
	s.tiers[1].speedup = 1.5; /* below tier 1's 2x */
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "tier 2");
}

static void validate_rejects_equal_speedups(void **state)
{
	struct g_spec s = speed_spec();
	char why[128] = "";

	(void)state;
	s.tiers[2].speedup = s.tiers[1].speedup;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "tier 3");
}

static void validate_rejects_points_not_rising(void **state)
{
	struct g_spec s = speed_spec();
	char why[128] = "";

	(void)state;
	s.tiers[1].points = 20; /* same as tier 1: no reason to go faster */
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
	assert_contains(why, "rise");
}

static void validate_rejects_nonpositive_speedup(void **state)
{
	struct g_spec s = speed_spec();
	char why[128] = "";

	(void)state;
	s.tiers[0].speedup = 0;
	assert_int_equal(g_spec_validate(&s, why, sizeof(why)), -1);
}

static void validate_rejects_top_tier_not_points_speed(void **state)
{
	struct g_spec s = speed_spec();
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
	s.tiers[0] = (struct g_tier){ 2, 5 };
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
	struct g_spec s = speed_spec();
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
	struct g_spec s = speed_spec();
	char why[16];

	(void)state;
	memset(why, 'x', sizeof(why));
	s.points_speed = 50;
	assert_int_equal(g_spec_validate(&s, why, 8), -1);
	assert_int_equal(strlen(why), 7); /* cut, terminated, in bounds */
	assert_int_equal(why[8], 'x');
}

/* ---- g_speed_points ---- */

static void speed_points_below_first_tier_is_zero(void **state)
{
	struct g_spec s = speed_spec();
	double next = -1;
	int tier = -1;

	(void)state;
	assert_near(g_speed_points(&s, 1.99, &tier, &next), 0, 0);
	assert_int_equal(tier, 0);
	assert_near(next, 2, 0);
	assert_near(g_speed_points(&s, 0, &tier, &next), 0, 0);
	assert_int_equal(tier, 0);
}

static void speed_points_exactly_at_each_tier(void **state)
{
	struct g_spec s = speed_spec();
	static const double next_of[3] = { 3.5, 5.2, 0 };
	double next;
	int tier;

	(void)state;
	for (int k = 0; k < 3; k++) {
		double p = g_speed_points(&s, s.tiers[k].speedup, &tier, &next);

		assert_near(p, s.tiers[k].points, 1e-12);
		assert_int_equal(tier, k + 1);
		assert_near(next, next_of[k], 0);
	}
}

static void speed_points_interpolate_between_tiers(void **state)
{
	struct g_spec s = speed_spec();
	double next;
	int tier;

	(void)state;
	/* Halfway from 2x (20) to 3.5x (40). */
	assert_near(g_speed_points(&s, 2.75, &tier, &next), 30, 1e-9);
	assert_int_equal(tier, 1);
	assert_near(next, 3.5, 0);
	/* A quarter of the way from 3.5x (40) to 5.2x (60). */
	assert_near(g_speed_points(&s, 3.925, &tier, &next), 45, 1e-9);
	assert_int_equal(tier, 2);
	assert_near(next, 5.2, 0);
}

static void speed_points_continuous_at_tiers(void **state)
{
	struct g_spec s = speed_spec();
	double next;
	int tier;

	(void)state;
	/* Just under a tier the line must arrive at that tier's points. */
	assert_near(g_speed_points(&s, 3.5 - 1e-9, &tier, &next), 40, 1e-6);
	assert_int_equal(tier, 1);
	assert_near(g_speed_points(&s, 5.2 - 1e-9, &tier, &next), 60, 1e-6);
	assert_int_equal(tier, 2);
}

static void speed_points_capped_above_top(void **state)
{
	struct g_spec s = speed_spec();
	double next = -1;
	int tier;

	(void)state;
	assert_near(g_speed_points(&s, 50, &tier, &next), 60, 0);
	assert_int_equal(tier, 3);
	assert_near(next, 0, 0);
	assert_near(g_speed_points(&s, INFINITY, &tier, &next), 60, 0);
}

static void speed_points_never_fall_never_exceed(void **state)
{
	struct g_spec s = speed_spec();
	double prev = 0, next;
	int tier, prev_tier = 0;

	(void)state;
	for (int i = 0; i <= 1000; i++) {
		double p = g_speed_points(&s, i * 0.01, &tier, &next);

		assert_true(p >= prev);
		assert_true(p <= s.points_speed);
		assert_true(tier >= prev_tier);
		prev = p;
		prev_tier = tier;
	}
	assert_near(prev, 60, 0);
}

static void speed_points_single_tier(void **state)
{
	struct g_spec s = speed_spec();
	double next;
	int tier;

	(void)state;
	s.ntiers = 1;
	s.tiers[0] = (struct g_tier){ 3, 25 };
	assert_near(g_speed_points(&s, 2.9, &tier, &next), 0, 0);
	assert_near(next, 3, 0);
	assert_near(g_speed_points(&s, 3, &tier, &next), 25, 0);
	assert_int_equal(tier, 1);
	assert_near(next, 0, 0);
	assert_near(g_speed_points(&s, 9, &tier, &next), 25, 0);
}

/* ---- g_score ---- */

static void score_wrong_earns_nothing_but_reports_figures(void **state)
{
	struct g_spec s = speed_spec();
	struct g_result r = timed(WB_V_WRONG, 100, 25, 1e6);

	(void)state;
	g_score(&s, &r, 400);
	assert_near(r.points, 0, 0);
	assert_near(r.max_points, 100, 0);
	assert_near(r.speedup, 4, 1e-12);
	assert_near(r.gbps, 40, 1e-9); /* 1e6 B in 25 us */
	assert_near(r.pct_copy, 10, 1e-9);
	assert_int_equal(r.tier, 0);
	assert_near(r.next_target, 2, 0);
}

/* A compute-bound exercise: FLOP/s from the student's median, and the
 * library peer's median as 100% (its time over the student's). */
static void score_flops_and_peer(void **state)
{
	struct g_spec s = speed_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 1e6);

	(void)state;
	r.flops = 2.5e9; /* in 25 us: 100 TFLOP/s */
	r.t[G_PEER].have = 1;
	r.t[G_PEER].median_us = 10;
	g_score(&s, &r, 400);
	assert_near(r.tflops, 100, 1e-9);
	assert_near(r.pct_peer, 40, 1e-9);
	r.flops = 0;
	r.t[G_PEER].have = 0;
	g_score(&s, &r, 400);
	assert_near(r.tflops, 0, 0);
	assert_near(r.pct_peer, 0, 0);
}

static void score_every_failing_verdict_earns_nothing(void **state)
{
	struct g_spec s = speed_spec();

	(void)state;
	for (int v = 0; v < WB_V_COUNT; v++) {
		struct g_result r = timed((enum wb_verdict)v, 100, 10, 1e6);

		r.points = 99; /* stale: must be overwritten */
		g_score(&s, &r, 400);
		if (v == WB_V_PASS)
			assert_near(r.points, 100, 0);
		else
			assert_near(r.points, 0, 0);
		assert_near(r.max_points, 100, 0);
	}
}

static void score_pass_correctness_only(void **state)
{
	struct g_spec s = correct_spec();
	struct g_result r = timed(WB_V_PASS, 100, 10, 0);

	(void)state;
	g_score(&s, &r, 400);
	assert_near(r.points, 10, 0); /* a 10x speedup earns nothing more */
	assert_near(r.max_points, 10, 0);
	assert_int_equal(r.tier, 0);
	assert_near(r.next_target, 0, 0);
}

static void score_pass_speed_between_tiers(void **state)
{
	struct g_spec s = speed_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 1e6);

	(void)state;
	g_score(&s, &r, 400);
	/* 4x: 40 + 40 + 20 * (4 - 3.5) / 1.7 = 85.88... -> 85.9 */
	assert_near(r.points, 85.9, 1e-9);
	assert_near(r.max_points, 100, 0);
	assert_int_equal(r.tier, 2);
	assert_near(r.next_target, 5.2, 0);
}

static void score_pass_speed_above_top(void **state)
{
	struct g_spec s = speed_spec();
	struct g_result r = timed(WB_V_PASS, 1000, 10, 1e6);

	(void)state;
	g_score(&s, &r, 400);
	assert_near(r.points, 100, 0);
	assert_int_equal(r.tier, 3);
	assert_near(r.next_target, 0, 0);
}

static void score_pass_below_first_tier(void **state)
{
	struct g_spec s = speed_spec();
	struct g_result r = timed(WB_V_PASS, 100, 80, 1e6);

	(void)state;
	g_score(&s, &r, 400);
	assert_near(r.points, 40, 0); /* correct, but 1.25x is no tier */
	assert_int_equal(r.tier, 0);
	assert_near(r.next_target, 2, 0);
}

static void score_missing_student_timing(void **state)
{
	struct g_spec s = speed_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 1e6);

	(void)state;
	r.t[G_STUDENT].have = 0;
	g_score(&s, &r, 400);
	assert_near(r.speedup, 0, 0);
	assert_near(r.gbps, 0, 0);
	assert_near(r.pct_copy, 0, 0);
	assert_near(r.points, 40, 0);
	assert_int_equal(r.tier, 0);
}

static void score_missing_naive_timing(void **state)
{
	struct g_spec s = speed_spec();
	struct g_result r = timed(WB_V_PASS, 100, 25, 1e6);

	(void)state;
	r.t[G_NAIVE].have = 0;
	g_score(&s, &r, 400);
	assert_near(r.speedup, 0, 0);
	assert_near(r.gbps, 40, 1e-9); /* bandwidth needs only the student */
	assert_near(r.points, 40, 0);
}

static void score_rounds_to_a_tenth(void **state)
{
	struct g_spec s = speed_spec();
	struct g_result r = timed(WB_V_PASS, 210, 100, 0);

	(void)state;
	g_score(&s, &r, 0);
	/* 2.1x: 40 + 20 + 20 * 0.1 / 1.5 = 61.333... */
	assert_near(r.points, 61.3, 1e-9);

	r = timed(WB_V_PASS, 227, 100, 0);
	g_score(&s, &r, 0);
	/* 2.27x: 40 + 20 + 20 * 0.27 / 1.5 = 63.6 exactly, to a tenth */
	assert_near(r.points, 63.6, 1e-9);

	r = timed(WB_V_PASS, 21095, 10000, 0);
	g_score(&s, &r, 0);
	/* 2.1095x: 61.46 -> 61.5: rounded, not truncated */
	assert_near(r.points, 61.5, 1e-9);
	assert_near(r.points * 10, round(r.points * 10), 1e-9);
}

static void score_pct_copy(void **state)
{
	struct g_spec s = speed_spec();
	struct g_result r = timed(WB_V_PASS, 100, 50, 2e7);

	(void)state;
	g_score(&s, &r, 800);
	assert_near(r.gbps, 400, 1e-9); /* 2e7 B in 50 us */
	assert_near(r.pct_copy, 50, 1e-9);

	g_score(&s, &r, 0); /* no copy reference: no percentage */
	assert_near(r.gbps, 400, 1e-9);
	assert_near(r.pct_copy, 0, 0);

	r.bytes = 0; /* no byte count: no bandwidth */
	g_score(&s, &r, 800);
	assert_near(r.gbps, 0, 0);
	assert_near(r.pct_copy, 0, 0);
}

#define T(f) cmocka_unit_test(f)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(validate_accepts_good_speed_spec),
		T(validate_accepts_correctness_spec),
		T(validate_rejects_falling_speedups),
		T(validate_rejects_equal_speedups),
		T(validate_rejects_points_not_rising),
		T(validate_rejects_nonpositive_speedup),
		T(validate_rejects_top_tier_not_points_speed),
		T(validate_rejects_correctness_with_tiers),
		T(validate_rejects_correctness_with_speed_points),
		T(validate_rejects_speed_without_tiers),
		T(validate_rejects_negative_points),
		T(validate_truncates_reason_to_buffer),
		T(speed_points_below_first_tier_is_zero),
		T(speed_points_exactly_at_each_tier),
		T(speed_points_interpolate_between_tiers),
		T(speed_points_continuous_at_tiers),
		T(speed_points_capped_above_top),
		T(speed_points_never_fall_never_exceed),
		T(speed_points_single_tier),
		T(score_wrong_earns_nothing_but_reports_figures),
		T(score_every_failing_verdict_earns_nothing),
		T(score_pass_correctness_only),
		T(score_pass_speed_between_tiers),
		T(score_pass_speed_above_top),
		T(score_pass_below_first_tier),
		T(score_missing_student_timing),
		T(score_missing_naive_timing),
		T(score_rounds_to_a_tenth),
		T(score_pct_copy),
		T(score_flops_and_peer),
	};

	return cmocka_run_group_tests_name("score", tests, NULL, NULL);
}
