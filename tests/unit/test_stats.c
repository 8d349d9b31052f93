/* SPDX-License-Identifier: MIT */
/*
 * test_stats.c - common/stats.c: quantiles of sorted samples, the
 * five-number summary, the spread and precision estimates, the
 * distribution-free confidence interval of a median, the paired ratios
 * and geometric means the runner and the driver both make of rounds,
 * what a summary keeps of its values, and the rule that decides when
 * the timing loop has sampled enough.
 */
#include "unit.h"

#include "rng.h"
#include "stats.h"

/* ---- wb_quantile ---- */

static void quantile_single_sample(void **state)
{
	const double x[1] = { 7.5 };

	(void)state;
	assert_near(wb_quantile(x, 1, 0), 7.5, 0);
	assert_near(wb_quantile(x, 1, 0.25), 7.5, 0);
	assert_near(wb_quantile(x, 1, 0.5), 7.5, 0);
	assert_near(wb_quantile(x, 1, 1), 7.5, 0);
}

static void quantile_interpolates(void **state)
{
	const double x[4] = { 1, 2, 3, 4 };

	(void)state;
	/* Position q * (n - 1), linear between neighbours. */
	assert_near(wb_quantile(x, 4, 0.5), 2.5, 1e-15);
	assert_near(wb_quantile(x, 4, 0.25), 1.75, 1e-15);
	assert_near(wb_quantile(x, 4, 0.75), 3.25, 1e-15);
	assert_near(wb_quantile(x, 4, 1.0 / 3), 2, 1e-12);
}

static void quantile_ends(void **state)
{
	const double x[3] = { -5, 10, 20 };

	(void)state;
	assert_near(wb_quantile(x, 3, 0), -5, 0);
	assert_near(wb_quantile(x, 3, 1), 20, 0);
	/* Out of range clamps to the ends instead of reading outside. */
	assert_near(wb_quantile(x, 3, -0.5), -5, 0);
	assert_near(wb_quantile(x, 3, 1.5), 20, 0);
}

static void quantile_of_nothing_is_nan(void **state)
{
	(void)state;
	assert_true(isnan(wb_quantile(NULL, 0, 0.5)));
}

/* ---- wb_summarize ---- */

static void summarize_unsorted_input_untouched(void **state)
{
	double x[5] = { 5, 1, 4, 2, 3 };
	const double copy[5] = { 5, 1, 4, 2, 3 };
	struct wb_summary s;

	(void)state;
	assert_int_equal(wb_summarize(x, 5, &s), 0);
	assert_memory_equal(x, copy, sizeof(x));
	assert_int_equal(s.n, 5);
	assert_near(s.min, 1, 0);
	assert_near(s.q1, 2, 0);
	assert_near(s.median, 3, 0);
	assert_near(s.q3, 4, 0);
	assert_near(s.max, 5, 0);
}

static void summarize_even_count_and_outlier(void **state)
{
	const double x[6] = { 10, 11, 1000, 9, 10, 12 };
	struct wb_summary s;

	(void)state;
	assert_int_equal(wb_summarize(x, 6, &s), 0);
	/* sorted 9 10 10 11 12 1000: the outlier moves max, not median */
	assert_near(s.median, 10.5, 1e-12);
	assert_near(s.q1, 10, 1e-12);
	assert_near(s.q3, 11.75, 1e-12);
	assert_near(s.min, 9, 0);
	assert_near(s.max, 1000, 0);
}

static void summarize_empty_fails(void **state)
{
	struct wb_summary s;

	(void)state;
	memset(&s, 0x5a, sizeof(s)); /* stale garbage */
	assert_int_equal(wb_summarize(NULL, 0, &s), -1);
	assert_int_equal(s.n, 0);
}

/* ---- spread and precision ---- */

static void rel_iqr(void **state)
{
	struct wb_summary s = { .n = 5, .min = 1, .q1 = 2, .median = 3,
				.q3 = 4, .max = 5 };

	(void)state;
	assert_near(wb_rel_iqr(&s), 2.0 / 3, 1e-15);
	s.q1 = s.q3 = 3;
	assert_near(wb_rel_iqr(&s), 0, 0);
	s.median = 0; /* no scale to be relative to */
	assert_true(isinf(wb_rel_iqr(&s)));
	s = (struct wb_summary){ 0 };
	assert_true(isinf(wb_rel_iqr(&s)));
}

static void median_rel_err_formula(void **state)
{
	struct wb_summary s = { .n = 100, .q1 = 9, .median = 10, .q3 = 11 };

	(void)state;
	/* sigma = IQR / 1.349; se = 1.2533 sigma / sqrt(n); relative. */
	assert_near(wb_median_rel_err(&s), 1.2533 * (2 / 1.349) / 10 / 10,
		    1e-15);
}

static void median_rel_err_shrinks_with_n(void **state)
{
	struct wb_summary s = { .n = 4, .q1 = 9, .median = 10, .q3 = 11 };
	double e4, e16;

	(void)state;
	e4 = wb_median_rel_err(&s);
	s.n = 16;
	e16 = wb_median_rel_err(&s);
	assert_true(e16 < e4);
	assert_near(e4 / e16, 2, 1e-12); /* 1 / sqrt(n) */
}

static void median_rel_err_shrinks_on_real_samples(void **state)
{
	static double x[2000];
	struct wb_summary s10, s2000;
	struct wb_rng r;

	(void)state;
	wb_rng_seed(&r, 3);
	for (size_t i = 0; i < 2000; i++)
		x[i] = wb_rng_range(&r, 99, 101);
	assert_int_equal(wb_summarize(x, 10, &s10), 0);
	assert_int_equal(wb_summarize(x, 2000, &s2000), 0);
	assert_true(wb_median_rel_err(&s2000) < wb_median_rel_err(&s10));
	assert_true(wb_median_rel_err(&s2000) < 1e-3);
}

static void median_rel_err_infinite_below_two(void **state)
{
	struct wb_summary s = { .n = 1, .q1 = 10, .median = 10, .q3 = 10 };

	(void)state;
	assert_true(isinf(wb_median_rel_err(&s)));
	s.n = 0;
	assert_true(isinf(wb_median_rel_err(&s)));
	s.n = 2;
	assert_false(isinf(wb_median_rel_err(&s)));
	s.median = 0;
	assert_true(isinf(wb_median_rel_err(&s)));
}

/* ---- wb_ci_rerun ---- */

/* Narrow intervals widen to the fraction either way; wide ones, and
 * a median of 0 (no measurement), stay as they are. */
static void ci_rerun_widens_only_narrow_intervals(void **state)
{
	double lo = 0.99, hi = 1.005, wlo = 0.5, whi = 1.5, zlo = 0, zhi = 0;

	(void)state;
	wb_ci_rerun(&lo, 1.0, &hi, 0.02);
	assert_near(lo, 0.98, 1e-12);
	assert_near(hi, 1.02, 1e-12);
	wb_ci_rerun(&wlo, 1.0, &whi, 0.02);
	assert_near(wlo, 0.5, 0);
	assert_near(whi, 1.5, 0);
	wb_ci_rerun(&zlo, 0, &zhi, 0.02);
	assert_near(zlo, 0, 0);
	assert_near(zhi, 0, 0);
}

/* ---- wb_median_ci ---- */

/* 1..n in a scrambled order (7919 is a prime above every n used). */
static double *scrambled(size_t n)
{
	double *x = malloc(n * sizeof(*x));

	assert_non_null(x);
	for (size_t i = 0; i < n; i++)
		x[i] = (double)((i * 7919) % n + 1);
	return x;
}

/* P(B <= k) for B ~ Binomial(n, 1/2): the chance that at most k of n
 * samples fall below the median. */
static double binom_half_cdf(size_t n, long k)
{
	double p = 0;

	for (long i = 0; i <= k; i++)
		p += exp(lgamma(n + 1.0) - lgamma(i + 1.0) -
			 lgamma((double)n - i + 1) - n * log(2.0));
	return p;
}

static void median_ci_small_cases(void **state)
{
	double five[5] = { 5, 1, 4, 2, 3 };
	const double copy[5] = { 5, 1, 4, 2, 3 };
	const double six[6] = { 6, 1, 5, 2, 4, 3 };
	double lo = -1, med = -1, hi = -1;

	(void)state;
	/* Under 6 values: the whole range, around the median. */
	assert_int_equal(wb_median_ci(five, 5, 1.96, &lo, &med, &hi), 0);
	assert_memory_equal(five, copy, sizeof(five)); /* not sorted in place */
	assert_near(med, 3, 0);
	assert_near(lo, 1, 0);
	assert_near(hi, 5, 0);
	assert_int_equal(wb_median_ci(five, 1, 1.96, &lo, &med, &hi), 0);
	assert_near(lo, 5, 0);
	assert_near(med, 5, 0);
	assert_near(hi, 5, 0);
	/* Six: still [min, max], which covers 1 - 2 / 64 = 96.9%. */
	assert_int_equal(wb_median_ci(six, 6, 1.96, &lo, &med, &hi), 0);
	assert_near(med, 3.5, 0);
	assert_near(lo, 1, 0);
	assert_near(hi, 6, 0);
	assert_int_equal(wb_median_ci(NULL, 0, 1.96, &lo, &med, &hi), -1);
}

/*
 * The 95% intervals of the tables (e.g. Conover, Practical Nonparametric
 * Statistics): the 4th and 12th of 15 values (96.5%), the 40th and 61st
 * of 100 (96.5%); the 41st and 60th would cover only 94.3%.
 */
static void median_ci_order_statistics_15_and_100(void **state)
{
	double *x = scrambled(15), lo, med, hi;

	(void)state;
	assert_int_equal(wb_median_ci(x, 15, 1.96, &lo, &med, &hi), 0);
	assert_near(med, 8, 0);
	assert_near(lo, 4, 0);
	assert_near(hi, 12, 0);
	free(x);
	x = scrambled(100);
	assert_int_equal(wb_median_ci(x, 100, 1.96, &lo, &med, &hi), 0);
	assert_near(med, 50.5, 0);
	assert_near(lo, 40, 0);
	assert_near(hi, 61, 0);
	free(x);
}

/*
 * For every sample count the runner can stop at (up to WB_MAX_SAMPLES,
 * 401), z = 1.96 covers the median at least 95% of the time, whatever
 * the distribution, and is not wider than it needs: two ranks narrower
 * would cover less than 95%.
 */
static void median_ci_covers_95_percent(void **state)
{
	(void)state;
	for (size_t n = 6; n <= 401; n++) {
		double *x = scrambled(n), lo, med, hi, cover, narrower;
		long j;

		assert_int_equal(wb_median_ci(x, n, 1.96, &lo, &med, &hi), 0);
		free(x);
		j = (long)lo - 1; /* x holds 1..n: lo is order statistic j */
		assert_near(hi, (double)n - j, 0); /* symmetric */
		cover = 1 - 2 * binom_half_cdf(n, j);
		narrower = 1 - 2 * binom_half_cdf(n, j + 2);
		if (cover < 0.95)
			fail_msg("n = %zu: [%g, %g] covers %.4f", n, lo, hi,
				 cover);
		if (narrower >= 0.95 && 2 * (j + 2) < (long)n)
			fail_msg("n = %zu: [%g, %g] is wider than needed "
				 "([%ld, %ld] covers %.4f)", n, lo, hi, j + 3,
				 (long)n - j - 2, narrower);
	}
}

/* ---- wb_should_stop ---- */

static const struct wb_stop_rule rule = {
	.min_samples = 10, .max_samples = 100, .target_rel_err = 0.01,
	.max_seconds = 1.0,
};

static void stop_not_before_min_samples(void **state)
{
	const double precise[2] = { 0, 0 };

	(void)state;
	assert_false(wb_should_stop(&rule, 0, 0, precise, 2));
	assert_false(wb_should_stop(&rule, 9, 0, precise, 2));
	assert_true(wb_should_stop(&rule, 10, 0, precise, 2));
}

static void stop_at_max_samples(void **state)
{
	const double vague[1] = { INFINITY };

	(void)state;
	assert_false(wb_should_stop(&rule, 99, 0, vague, 1));
	assert_true(wb_should_stop(&rule, 100, 0, vague, 1));
	assert_true(wb_should_stop(&rule, 1000, 0, vague, 1));
}

static void stop_at_time_cap(void **state)
{
	const double vague[1] = { 0.5 };

	(void)state;
	assert_false(wb_should_stop(&rule, 20, 0.99, vague, 1));
	assert_true(wb_should_stop(&rule, 20, 1.0, vague, 1));
	assert_true(wb_should_stop(&rule, 20, 5.0, vague, 1));
}

static void time_cap_keeps_min_samples(void **state)
{
	const double vague[1] = { 0.5 };

	(void)state;
	/* "never stop before min_samples": not even past the time cap */
	assert_false(wb_should_stop(&rule, 5, 100, vague, 1));
}

static void stop_needs_every_series(void **state)
{
	const double one_vague[3] = { 0.001, 0.02, 0.001 };
	const double all_ok[3] = { 0.001, 0.01, 0.009 };

	(void)state;
	assert_false(wb_should_stop(&rule, 50, 0, one_vague, 3));
	assert_true(wb_should_stop(&rule, 50, 0, all_ok, 3)); /* <= target */
	/* Only the first nseries entries count. */
	assert_true(wb_should_stop(&rule, 50, 0, one_vague, 1));
}

static void stop_never_early_on_nan_or_inf(void **state)
{
	const double with_nan[2] = { 0.001, NAN };
	const double with_inf[2] = { INFINITY, 0.001 };

	(void)state;
	assert_false(wb_should_stop(&rule, 50, 0, with_nan, 2));
	assert_false(wb_should_stop(&rule, 50, 0, with_inf, 2));
	/* ...but the caps still end the loop. */
	assert_true(wb_should_stop(&rule, 100, 0, with_nan, 2));
	assert_true(wb_should_stop(&rule, 50, 2.0, with_nan, 2));
}

/* ---- what a summary keeps, paired ratios, geometric means ---- */

/* The values, in the order given, when they fit; none beyond that. */
static void summarize_keeps_the_values(void **state)
{
	static double big[WB_SUMMARY_KEEP + 1];
	const double x[4] = { 3, 1, 4, 1.5 };
	struct wb_summary s;

	(void)state;
	assert_int_equal(wb_summarize(x, 4, &s), 0);
	assert_int_equal(s.kept, 4);
	assert_memory_equal(s.x, x, sizeof(x));
	for (size_t i = 0; i < WB_SUMMARY_KEEP + 1; i++)
		big[i] = (double)i;
	assert_int_equal(wb_summarize(big, WB_SUMMARY_KEEP, &s), 0);
	assert_int_equal(s.kept, WB_SUMMARY_KEEP);
	assert_near(s.x[WB_SUMMARY_KEEP - 1], WB_SUMMARY_KEEP - 1, 0);
	assert_int_equal(wb_summarize(big, WB_SUMMARY_KEEP + 1, &s), 0);
	assert_int_equal(s.kept, 0);
	assert_near(s.median, WB_SUMMARY_KEEP / 2.0, 0);
	/* A bench shape's rounds always fit. */
	assert_true(WB_SUMMARY_KEEP >= WB_MAX_SAMPLES);
}

/* The median of the paired ratios, from their logarithms: the pairs with
 * a value that is not positive are left out. */
static void ratio_ci_pairs(void **state)
{
	const double a[5] = { 10, 20, 30, 0, 40 }, b[5] = { 5, 5, 5, 5, -1 };
	const double c[4] = { 2, 8, 4, 1 }, d[4] = { 1, 1, 1, 1 };
	double lo, med, hi;

	(void)state;
	assert_int_equal(wb_ratio_ci(a, b, 5, 1.96, &lo, &med, &hi), 3);
	assert_near(med, 4, 1e-12);
	assert_near(lo, 2, 1e-12); /* under 6 pairs: the extremes */
	assert_near(hi, 6, 1e-12);
	/* An even count: the geometric mean of the middle two, sqrt(2 x 4). */
	assert_int_equal(wb_ratio_ci(c, d, 4, 1.96, &lo, &med, &hi), 4);
	assert_near(med, sqrt(8), 1e-12);
	/* No pair: -1, and zeros. */
	assert_int_equal(wb_ratio_ci(b + 4, a + 3, 1, 1.96, &lo, &med, &hi),
			 -1);
	assert_near(med, 0, 0);
	assert_near(lo, 0, 0);
	assert_near(hi, 0, 0);
	assert_int_equal(wb_ratio_ci(NULL, NULL, 0, 1.96, &lo, &med, &hi), -1);
}

static void geomean_of_shapes(void **state)
{
	const double x[3] = { 2, 8, 4 }, z[2] = { 3, 0 };

	(void)state;
	assert_near(wb_geomean(x, 3), 4, 1e-12);
	assert_near(wb_geomean(x, 1), 2, 1e-12);
	assert_near(wb_geomean(x, 0), 0, 0);
	assert_near(wb_geomean(z, 2), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quantile_single_sample),
		cmocka_unit_test(quantile_interpolates),
		cmocka_unit_test(quantile_ends),
		cmocka_unit_test(quantile_of_nothing_is_nan),
		cmocka_unit_test(summarize_unsorted_input_untouched),
		cmocka_unit_test(summarize_even_count_and_outlier),
		cmocka_unit_test(summarize_empty_fails),
		cmocka_unit_test(rel_iqr),
		cmocka_unit_test(median_rel_err_formula),
		cmocka_unit_test(median_rel_err_shrinks_with_n),
		cmocka_unit_test(median_rel_err_shrinks_on_real_samples),
		cmocka_unit_test(median_rel_err_infinite_below_two),
		cmocka_unit_test(ci_rerun_widens_only_narrow_intervals),
		cmocka_unit_test(median_ci_small_cases),
		cmocka_unit_test(median_ci_order_statistics_15_and_100),
		cmocka_unit_test(median_ci_covers_95_percent),
		cmocka_unit_test(stop_not_before_min_samples),
		cmocka_unit_test(stop_at_max_samples),
		cmocka_unit_test(stop_at_time_cap),
		cmocka_unit_test(time_cap_keeps_min_samples),
		cmocka_unit_test(stop_needs_every_series),
		cmocka_unit_test(stop_never_early_on_nan_or_inf),
		cmocka_unit_test(summarize_keeps_the_values),
		cmocka_unit_test(ratio_ci_pairs),
		cmocka_unit_test(geomean_of_shapes),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
