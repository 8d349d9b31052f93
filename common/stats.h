/* SPDX-License-Identifier: MIT */
/*
 * stats.h - order statistics for timing samples and the stopping rule.
 *
 * Times are summarised by their median and quartiles, which outliers (a
 * context switch, a clock ramp) barely move. Sampling stops when the median
 * is known well enough, in the spirit of nvbench's relative-noise criterion:
 * at least a minimum number of samples, then until the estimated relative
 * standard error of the median falls under a target, or a time cap.
 */
#ifndef WB_STATS_H
#define WB_STATS_H

#include <stddef.h>
#include <stdbool.h>

#include "knobs.h"

/*
 * A summary keeps the values it summarised, in the order given, when
 * there are at most this many (a benchmark shape's kept rounds: bench.c
 * summarises each series' rounds in round order), so that the runner can
 * hand every round to the driver (result.h's "sample" lines) and the
 * driver scores what was measured, not the runner's summary of it.
 */
#define WB_SUMMARY_KEEP WB_MAX_SAMPLES

struct wb_summary {
	size_t n;
	double min, q1, median, q3, max;
	size_t kept;                /* values in x: n, or 0 when n is larger
				     * than WB_SUMMARY_KEEP */
	double x[WB_SUMMARY_KEEP];  /* the values, in the order given */
};

/* Quantile q in [0, 1] of sorted[0..n-1], linear between order statistics. */
double wb_quantile(const double *sorted, size_t n, double q);

/* Summarise x[0..n-1] (x is not modified). Returns -1 when n == 0. */
int wb_summarize(const double *x, size_t n, struct wb_summary *s);

/* Relative interquartile range (q3 - q1) / median: the reported spread. */
double wb_rel_iqr(const struct wb_summary *s);

/*
 * Estimated relative standard error of the median: the IQR gives a robust
 * sigma (IQR / 1.349 for a normal sample) and the median's standard error
 * is about 1.2533 sigma / sqrt(n).
 */
double wb_median_rel_err(const struct wb_summary *s);

/*
 * The median of x[0..n-1] and a distribution-free confidence interval for
 * it: the order statistics j and n-1-j around it, j chosen from the
 * binomial's normal approximation for the standard normal quantile z
 * (1.96: 95%). With fewer than 6 values the interval is [min, max].
 * Returns -1 when n == 0 or out of memory.
 */
int wb_median_ci(const double *x, size_t n, double z, double *lo,
		 double *median, double *hi);

/*
 * The median of the paired ratios a[k] / b[k] over the pairs where both
 * are positive, and its confidence interval (wb_median_ci(), on the
 * logarithms: a ratio and its inverse get the same interval). The share
 * of the speed of light (ideal / student) and the speedup (naive /
 * student) per round, as bench.c pairs them. Returns the pairs used, or
 * -1 (none, or out of memory) with all three 0.
 */
int wb_ratio_ci(const double *a, const double *b, size_t n, double z,
		double *lo, double *median, double *hi);

/* The geometric mean of x[0..n-1] (0 when n == 0, or when any is not
 * positive): how the figures of several benchmark shapes make one. */
double wb_geomean(const double *x, size_t n);

/*
 * Widen [*lo, *hi] to at least frac either way of median: an interval from
 * one run's rounds, stated so that it also covers where a rerun lands
 * (what is fixed per process moves a rerun by more than the rounds see).
 */
void wb_ci_rerun(double *lo, double median, double *hi, double frac);

struct wb_stop_rule {
	size_t min_samples;   /* never stop before this many */
	size_t max_samples;   /* always stop at this many */
	double target_rel_err; /* stop when every series is this precise */
	double max_seconds;   /* or when the timing loop has run this long */
};

/*
 * Decide whether to stop sampling. rel_err holds the current estimate for
 * each of the nseries interleaved series, n is the samples each has.
 */
bool wb_should_stop(const struct wb_stop_rule *rule, size_t n,
		    double elapsed_s, const double *rel_err, size_t nseries);

#endif /* WB_STATS_H */
