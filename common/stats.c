/* SPDX-License-Identifier: MIT */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double wb_quantile(const double *sorted, size_t n, double q)
{
	double pos, frac;
	size_t lo;

	if (n == 0)
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	pos = q * (double)(n - 1);
	lo = (size_t)pos;
	frac = pos - (double)lo;
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

/* A sorted copy of x[0..n-1], or NULL (n == 0 or out of memory). */
static double *sorted_copy(const double *x, size_t n)
{
	double *v = n ? malloc(n * sizeof(*v)) : NULL;

	if (!v)
		return NULL;
	memcpy(v, x, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	return v;
}

int wb_summarize(const double *x, size_t n, struct wb_summary *s)
{
	double *v;

	memset(s, 0, sizeof(*s));
	v = sorted_copy(x, n);
	if (!v)
		return -1;
	s->n = n;
	s->min = v[0];
	s->q1 = wb_quantile(v, n, 0.25);
	s->median = wb_quantile(v, n, 0.5);
	s->q3 = wb_quantile(v, n, 0.75);
	s->max = v[n - 1];
	free(v);
	if (n <= WB_SUMMARY_KEEP) {
		memcpy(s->x, x, n * sizeof(*x));
		s->kept = n;
	}
	return 0;
}

int wb_median_ci(const double *x, size_t n, double z, double *lo,
		 double *median, double *hi)
{
	double *v, half;
	size_t j;

	v = sorted_copy(x, n);
	if (!v)
		return -1;
	*median = wb_quantile(v, n, 0.5);
	/*
	 * The number of values below the median is B ~ Binomial(n, 1/2):
	 * mean n/2, sd sqrt(n)/2. Order statistics j and n-1-j (from 0)
	 * miss it with probability 2 P(B <= j); the normal approximation
	 * with its continuity correction (the 1/2) keeps that under the
	 * two tails of z.
	 */
	half = z * sqrt((double)n) / 2 + 0.5;
	j = n < 6 || half >= n / 2.0 ? 0 : (size_t)floor(n / 2.0 - half);
	*lo = v[j];
	*hi = v[n - 1 - j];
	free(v);
	return 0;
}

int wb_ratio_ci(const double *a, const double *b, size_t n, double z,
		double *lo, double *median, double *hi)
{
	double *x = n ? malloc(n * sizeof(*x)) : NULL;
	size_t m = 0;
	int ret = -1;

	*lo = *median = *hi = 0;
	if (!x)
		return -1;
	for (size_t k = 0; k < n; k++)
		if (a[k] > 0 && b[k] > 0)
			x[m++] = log(a[k] / b[k]);
	if (m && !wb_median_ci(x, m, z, lo, median, hi)) {
		*lo = exp(*lo);
		*median = exp(*median);
		*hi = exp(*hi);
		ret = (int)m;
	}
	free(x);
	return ret;
}

double wb_geomean(const double *x, size_t n)
{
	double log_sum = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return 0;
		log_sum += log(x[i]);
	}
	return n ? exp(log_sum / (double)n) : 0;
}

double wb_rel_iqr(const struct wb_summary *s)
{
	if (s->n == 0 || s->median <= 0)
		return INFINITY;
	return (s->q3 - s->q1) / s->median;
}

double wb_median_rel_err(const struct wb_summary *s)
{
	double sigma;

	if (s->n < 2 || s->median <= 0)
		return INFINITY;
	sigma = (s->q3 - s->q1) / 1.349;
	return 1.2533 * sigma / sqrt((double)s->n) / s->median;
}

void wb_ci_rerun(double *lo, double median, double *hi, double frac)
{
	if (!(median > 0))
		return;
	if (*lo > median * (1 - frac))
		*lo = median * (1 - frac);
	if (*hi < median * (1 + frac))
		*hi = median * (1 + frac);
}

bool wb_should_stop(const struct wb_stop_rule *rule, size_t n,
		    double elapsed_s, const double *rel_err, size_t nseries)
{
	if (n >= rule->max_samples)
		return true;
	if (n < rule->min_samples)
		return false;
	if (elapsed_s >= rule->max_seconds)
		return true;
	for (size_t i = 0; i < nseries; i++)
		if (!(rel_err[i] <= rule->target_rel_err))
			return false;
	return true;
}
