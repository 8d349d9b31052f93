/* SPDX-License-Identifier: MIT */
/*
 * test_scale.c - common/scale.c: the one scale from tiers to points that
 * the runner's stopping rule and the driver's scoring share (scale.h).
 * A lab's tiers are shares of the ideal time, made speedups over the
 * naive through R = naive / ideal; they stand as written on every GPU,
 * and a gate (knobs.h) holds points at 0 up to WB_ZERO_SPEEDUP over the
 * naive. Points are 0 up to the start, linear from boundary to boundary,
 * continuous at every one past the gate, and the top tier's at and above
 * the top. A course may give fixed speedups instead.
 */
#include "unit.h"

#include "knobs.h"
#include "scale.h"

/* Lab 05's sum: 30%, 54% and 78% of the speed of light. */
static const double share3[3] = { 0.30, 0.54, 0.78 };
static const double pts3[3] = { 20, 40, 60 };

static struct wb_scale shares(double r)
{
	struct wb_scale sc;

	assert_int_equal(wb_scale_shares(&sc, share3, pts3, 3, r), 0);
	return sc;
}

static double points(const struct wb_scale *sc, double x, int *tier,
		     double *next)
{
	int t;
	double nx;

	return wb_scale_points(sc, x, tier ? tier : &t, next ? next : &nx);
}

/*
 * What scale.h promises of any valid scale: boundaries that rise; 0 points
 * at and below the first and at and below the gate; each tier's points at
 * its boundary past the gate, the same value reached from either side of
 * it; points that never fall and never pass the top tier's.
 */
static void check_shape(const struct wb_scale *sc)
{
	double prev = 0;
	int prev_tier = 0;

	for (int k = 0; k <= sc->n; k++) {
		double at = sc->at[k], want = k ? sc->points[k] : 0;
		double below = points(sc, at * (1 - 1e-12), NULL, NULL);
		double above = points(sc, at * (1 + 1e-12), NULL, NULL);
		int tier;

		if (k)
			assert_true(at > sc->at[k - 1]);
		if (at <= sc->gate * (1 + 1e-9)) {
			assert_near(points(sc, at, &tier, NULL), 0, 0);
			assert_int_equal(tier, 0);
			continue;
		}
		assert_near(points(sc, at, &tier, NULL), want, 1e-9);
		assert_int_equal(tier, k);
		/* Continuous: no jump at a boundary, from either side. */
		assert_near(below, want, 1e-6);
		assert_near(above, want, 1e-6);
	}
	assert_near(points(sc, sc->at[0] / 2, NULL, NULL), 0, 0);
	for (int i = 0; i <= 2000; i++) {
		double x = sc->at[sc->n] * 1.5 * i / 2000;
		int tier;
		double p = points(sc, x, &tier, NULL);

		assert_true(p >= prev);
		assert_true(p <= sc->points[sc->n]);
		assert_true(tier >= prev_tier);
		if (x <= sc->gate)
			assert_near(p, 0, 0);
		prev = p;
		prev_tier = tier;
	}
	assert_near(prev, sc->points[sc->n], 0);
}

/* ---- shares, the floors not binding ---- */

/* A naive ten times slower than the speed of light: the lab's shares
 * stand, and each is a speedup of share x 10. */
static void shares_floors_not_binding(void **state)
{
	struct wb_scale sc = shares(10);

	(void)state;
	assert_int_equal(sc.unit, WB_SCALE_SHARE);
	assert_int_equal(sc.n, 3);
	/* Points start at 1.05x over the naive: a share of 1.05 / R. */
	assert_near(sc.at[0], WB_ZERO_SPEEDUP / 10, 1e-15);
	for (int k = 1; k <= 3; k++) {
		assert_near(sc.at[k], share3[k - 1], 0);
		assert_near(sc.points[k], pts3[k - 1], 0);
		assert_near(wb_scale_speedup_at(&sc, k), 10 * share3[k - 1],
			    1e-12);
	}
	assert_near(wb_scale_speedup_at(&sc, 0), WB_ZERO_SPEEDUP, 1e-12);
	check_shape(&sc);
}

static void shares_linear_between_boundaries(void **state)
{
	struct wb_scale sc = shares(10);
	double next;
	int tier;

	(void)state;
	/* Halfway from 1.05x (0 points) to tier 1 (30%, 20 points). */
	assert_near(points(&sc, (0.105 + 0.30) / 2, &tier, &next), 10, 1e-9);
	assert_int_equal(tier, 0);
	assert_near(next, 3.0, 1e-12);
	/* Halfway from 30% (20) to 54% (40). */
	assert_near(points(&sc, 0.42, &tier, &next), 30, 1e-9);
	assert_int_equal(tier, 1);
	assert_near(next, 5.4, 1e-12);
	/* A quarter of the way from 54% (40) to 78% (60). */
	assert_near(points(&sc, 0.60, &tier, &next), 45, 1e-9);
	assert_int_equal(tier, 2);
	assert_near(next, 7.8, 1e-12);
}

static void shares_the_top(void **state)
{
	struct wb_scale sc = shares(10);
	double next = -1;
	int tier = -1;

	(void)state;
	assert_near(points(&sc, 0.78, &tier, &next), 60, 0);
	assert_int_equal(tier, 3);
	assert_near(next, 0, 0);
	assert_near(points(&sc, 1.2, &tier, &next), 60, 0);
	assert_int_equal(tier, 3);
	assert_near(points(&sc, INFINITY, &tier, &next), 60, 0);
	assert_near(next, 0, 0);
}

static void shares_nothing_at_or_below_the_start(void **state)
{
	struct wb_scale sc = shares(10);
	double next = -1;
	int tier = -1;

	(void)state;
	/* The naive's own speed, and 1.05x over it: no points. */
	assert_near(points(&sc, 0.1, &tier, &next), 0, 0);
	assert_int_equal(tier, 0);
	assert_near(next, 3.0, 1e-12);
	assert_near(points(&sc, WB_ZERO_SPEEDUP / 10, &tier, &next), 0, 0);
	assert_near(points(&sc, 0, &tier, &next), 0, 0);
	assert_near(points(&sc, -1, &tier, &next), 0, 0);
	assert_near(points(&sc, NAN, &tier, &next), 0, 0);
	assert_int_equal(tier, 0);
	/* Just past it, a little. */
	assert_true(points(&sc, WB_ZERO_SPEEDUP / 10 * 1.01, NULL, NULL) > 0);
}

/* ---- shares, the gate binding ---- */

/* A naive at 1 / 1.2 of the speed of light: every lab tier is slower
 * than 1.05x the naive, so nothing is earned up to the gate, and past it
 * every tier, as the same share earns anywhere. */
static void shares_gate_binding(void **state)
{
	const double r = 1.2, gate = WB_ZERO_SPEEDUP / r;
	struct wb_scale sc = shares(r);
	double next;
	int tier;

	(void)state;
	assert_near(sc.gate, gate, 1e-15);
	for (int k = 1; k <= 3; k++) {
		assert_near(sc.at[k], share3[k - 1], 0);
		assert_near(wb_scale_speedup_at(&sc, k), WB_ZERO_SPEEDUP, 1e-12);
		assert_near(sc.points[k], pts3[k - 1], 0);
	}
	/* The lab's first tier, 30%, is no speedup here: no points. */
	assert_near(points(&sc, 0.30, &tier, &next), 0, 0);
	assert_int_equal(tier, 0);
	assert_near(next, WB_ZERO_SPEEDUP, 1e-12);
	/* Nor is the naive's own speed, whatever R. */
	assert_near(points(&sc, 1 / r, NULL, NULL), 0, 0);
	assert_near(points(&sc, gate, &tier, NULL), 0, 0);
	/* Past the gate: the top tier, as 78% or more earns anywhere. */
	assert_near(points(&sc, gate * (1 + 1e-9), &tier, &next), 60, 0);
	assert_int_equal(tier, 3);
	assert_near(next, 0, 0);
	check_shape(&sc);
}

/* R = 3: the gate (35%) is above the lab's 30%, under 54% and 78%. */
static void shares_gate_binding_in_part(void **state)
{
	const double r = 3;
	struct wb_scale sc = shares(r);
	struct wb_scale ten = shares(10);

	(void)state;
	assert_near(sc.at[1], 0.30, 0);
	assert_near(sc.at[2], 0.54, 0);
	assert_near(sc.at[3], 0.78, 0);
	assert_near(wb_scale_speedup_at(&sc, 1), WB_ZERO_SPEEDUP, 1e-12);
	assert_near(wb_scale_speedup_at(&sc, 2), 1.62, 1e-12);
	assert_near(points(&sc, 0.34, NULL, NULL), 0, 0);
	/* 42%: what it earns where R is 10. */
	assert_near(points(&sc, 0.42, NULL, NULL),
		    points(&ten, 0.42, NULL, NULL), 1e-12);
	check_shape(&sc);
}

/*
 * The definition in scale.h: a share past the gate earns the same points
 * on every GPU (from the first tier on; below it the ramp starts at the
 * gate), and nothing at or below the gate. Checked over a sweep, for R
 * where the gate binds, binds in part, and does not.
 */
static void shares_same_share_same_points(void **state)
{
	static const double rs[] = { 1.1, 1.2, 2, 3, 3.7, 10, 40 };
	struct wb_scale big = shares(1e9);

	(void)state;
	for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++) {
		struct wb_scale sh = shares(rs[i]);

		check_shape(&sh);
		for (int j = 0; j <= 500; j++) {
			double q = 1.2 * (j + 0.37) / 500, n1;
			int t1, t2;
			double p1 = wb_scale_points(&sh, q, &t1, &n1);
			double p2 = wb_scale_points(&big, q, &t2, NULL);

			if (q * rs[i] <= WB_ZERO_SPEEDUP) {
				if (p1 != 0 || t1 != 0)
					fail_msg("R %g, share %g: %g points "
						 "under the gate", rs[i], q, p1);
				continue;
			}
			if (q < share3[0])
				continue;
			if (fabs(p1 - p2) > 1e-9 || t1 != t2)
				fail_msg("R %g, share %g: %g points, tier %d; "
					 "elsewhere %g, %d", rs[i], q, p1, t1,
					 p2, t2);
		}
	}
}

/* R not measured: no floors and no speedups, the shares as they are. */
static void shares_without_r(void **state)
{
	struct wb_scale sc;
	double next = -1;
	int tier;

	(void)state;
	assert_int_equal(wb_scale_shares(&sc, share3, pts3, 3, 0), 0);
	for (int k = 1; k <= 3; k++) {
		assert_near(sc.at[k], share3[k - 1], 0);
		assert_near(wb_scale_speedup_at(&sc, k), 0, 0);
	}
	assert_near(points(&sc, 0.54, &tier, &next), 40, 1e-12);
	assert_int_equal(tier, 2);
	assert_near(next, 0, 0); /* unknown as a speedup */
	check_shape(&sc);
	/* Nor is a negative or undefined R a measurement. */
	assert_int_equal(wb_scale_shares(&sc, share3, pts3, 3, -2), 0);
	assert_near(wb_scale_speedup_at(&sc, 1), 0, 0);
	assert_int_equal(wb_scale_shares(&sc, share3, pts3, 3, NAN), 0);
	assert_near(wb_scale_speedup_at(&sc, 1), 0, 0);
	assert_near(sc.at[1], 0.30, 0);
}

static void speedup_at_out_of_range(void **state)
{
	struct wb_scale sc = shares(10);

	(void)state;
	assert_near(wb_scale_speedup_at(&sc, -1), 0, 0);
	assert_near(wb_scale_speedup_at(&sc, 4), 0, 0);
}

/* ---- fixed speedups (a course's tiers) ---- */

static void speedups(void **state)
{
	static const double x[3] = { 2, 3.5, 5.2 };
	struct wb_scale sc;
	double next;
	int tier;

	(void)state;
	assert_int_equal(wb_scale_speedups(&sc, x, pts3, 3), 0);
	assert_int_equal(sc.unit, WB_SCALE_SPEEDUP);
	/* Points start at 1.05x; the tiers are the course's, on any GPU. */
	assert_near(sc.at[0], WB_ZERO_SPEEDUP, 0);
	for (int k = 1; k <= 3; k++) {
		assert_near(sc.at[k], x[k - 1], 0);
		assert_near(wb_scale_speedup_at(&sc, k), x[k - 1], 0);
	}
	assert_near(points(&sc, 1.0, &tier, &next), 0, 0);
	assert_near(next, 2, 0);
	assert_near(points(&sc, 1.05, &tier, &next), 0, 0);
	/* Halfway from 1.05x to 2x; from 2x to 3.5x; a quarter to 5.2x. */
	assert_near(points(&sc, 1.525, &tier, &next), 10, 1e-9);
	assert_int_equal(tier, 0);
	assert_near(points(&sc, 2.75, &tier, &next), 30, 1e-9);
	assert_int_equal(tier, 1);
	assert_near(next, 3.5, 0);
	assert_near(points(&sc, 3.925, &tier, &next), 45, 1e-9);
	assert_int_equal(tier, 2);
	assert_near(next, 5.2, 0);
	assert_near(points(&sc, 5.2, &tier, &next), 60, 0);
	assert_int_equal(tier, 3);
	assert_near(next, 0, 0);
	assert_near(points(&sc, 50, &tier, &next), 60, 0);
	check_shape(&sc);
}

/* A course's first tier at or under 1.05x (courses/example.conf has
 * 1.05:20): still a rising, continuous scale that reaches the tier. */
static void speedups_first_tier_at_the_start(void **state)
{
	static const double x[3] = { 1.05, 1.12, 1.18 };
	static const double low[2] = { 1.01, 1.5 };
	struct wb_scale sc;
	int tier;

	(void)state;
	assert_int_equal(wb_scale_speedups(&sc, x, pts3, 3), 0);
	assert_true(sc.at[0] < sc.at[1]);
	assert_near(points(&sc, 1.05, &tier, NULL), 20, 1e-12);
	assert_int_equal(tier, 1);
	check_shape(&sc);
	assert_int_equal(wb_scale_speedups(&sc, low, pts3, 2), 0);
	assert_near(points(&sc, 1.01, &tier, NULL), 20, 1e-12);
	check_shape(&sc);
}

static void one_tier(void **state)
{
	static const double q[1] = { 0.5 }, p[1] = { 25 };
	struct wb_scale sc;
	double next;
	int tier;

	(void)state;
	assert_int_equal(wb_scale_shares(&sc, q, p, 1, 4), 0);
	assert_near(points(&sc, 0.5, &tier, &next), 25, 0);
	assert_int_equal(tier, 1);
	assert_near(next, 0, 0);
	assert_near(points(&sc, (WB_ZERO_SPEEDUP / 4 + 0.5) / 2, &tier,
			   &next), 12.5, 1e-9);
	assert_near(next, 2, 1e-12);
	check_shape(&sc);
}

/* ---- invalid tiers ---- */

/* wb_scale_make is either maker, as its unit says; r only for shares. */
static void make_picks_by_unit(void **state)
{
	struct wb_scale a, b;

	(void)state;
	memset(&a, 0, sizeof(a)); /* the slots past n stay as they were */
	memset(&b, 0, sizeof(b));
	assert_int_equal(wb_scale_make(&a, WB_SCALE_SHARE, share3, pts3, 3,
				       20), 0);
	assert_int_equal(wb_scale_shares(&b, share3, pts3, 3, 20), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_int_equal(wb_scale_make(&a, WB_SCALE_SPEEDUP, pts3, pts3, 3,
				       20), 0);
	assert_int_equal(wb_scale_speedups(&b, pts3, pts3, 3), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	assert_true(a.r == 1);
}

static void invalid_tiers_are_refused(void **state)
{
	static const struct {
		double x[WB_SCALE_MAX + 1], p[WB_SCALE_MAX + 1];
		int n;
		const char *what;
	} bad[] = {
		{ { 0.3 }, { 20 }, 0, "no tier" },
		{ { 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9 },
		  { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, WB_SCALE_MAX + 1, "too many" },
		{ { 0.5, 0.4 }, { 20, 40 }, 2, "x falls" },
		{ { 0.5, 0.5 }, { 20, 40 }, 2, "x repeats" },
		{ { 0.4, 0.5 }, { 40, 20 }, 2, "points fall" },
		{ { 0.4, 0.5 }, { 20, 20 }, 2, "points repeat" },
		{ { 0, 0.5 }, { 20, 40 }, 2, "x zero" },
		{ { -0.1, 0.5 }, { 20, 40 }, 2, "x negative" },
		{ { NAN, 0.5 }, { 20, 40 }, 2, "x undefined" },
		{ { 0.4, 0.5 }, { 0, 40 }, 2, "points zero" },
		{ { 0.4, 0.5 }, { NAN, 40 }, 2, "points undefined" },
		{ { 0.4, 0.5 }, { -5, 40 }, 2, "points negative" },
	};
	static const double most[WB_SCALE_MAX] = { 0.1, 0.2, 0.3, 0.4,
						   0.5, 0.6, 0.7, 0.8 };
	struct wb_scale sc;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (wb_scale_shares(&sc, bad[i].x, bad[i].p, bad[i].n, 5) != -1)
			fail_msg("shares: %s accepted", bad[i].what);
		if (wb_scale_speedups(&sc, bad[i].x, bad[i].p, bad[i].n) != -1)
			fail_msg("speedups: %s accepted", bad[i].what);
	}
	/* WB_SCALE_MAX tiers is the most, not too many. */
	assert_int_equal(wb_scale_shares(&sc, most, most, WB_SCALE_MAX, 5), 0);
	check_shape(&sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shares_floors_not_binding),
		cmocka_unit_test(shares_linear_between_boundaries),
		cmocka_unit_test(shares_the_top),
		cmocka_unit_test(shares_nothing_at_or_below_the_start),
		cmocka_unit_test(shares_gate_binding),
		cmocka_unit_test(shares_gate_binding_in_part),
		cmocka_unit_test(shares_same_share_same_points),
		cmocka_unit_test(shares_without_r),
		cmocka_unit_test(speedup_at_out_of_range),
		cmocka_unit_test(speedups),
		cmocka_unit_test(speedups_first_tier_at_the_start),
		cmocka_unit_test(one_tier),
		cmocka_unit_test(make_picks_by_unit),
		cmocka_unit_test(invalid_tiers_are_refused),
	};

	return cmocka_run_group_tests_name("scale", tests, NULL, NULL);
}
