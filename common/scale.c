/* SPDX-License-Identifier: MIT */
/*
 * scale.c - boundaries and points (see scale.h). Plain C, no CUDA: the
 * driver links it too.
 */
#include "scale.h"

#include "knobs.h"

static int rising(const double *x, const double *p, int n)
{
	if (n < 1 || n > WB_SCALE_MAX)
		return 0;
	for (int i = 0; i < n; i++)
		if (!(x[i] > 0) || !(p[i] > 0) ||
		    (i && (x[i] <= x[i - 1] || p[i] <= p[i - 1])))
			return 0;
	return 1;
}

int wb_scale_shares(struct wb_scale *sc, const double *share,
		    const double *pts, int n, double r)
{
	double floor = WB_ZERO_SPEEDUP;

	if (!rising(share, pts, n))
		return -1;
	sc->unit = WB_SCALE_SHARE;
	sc->n = n;
	sc->r = r > 0 ? r : 0;
	sc->points[0] = 0;
	/* Without r, points start at half the first tier's share. */
	sc->at[0] = sc->r ? floor / sc->r : share[0] / 2;
	for (int k = 1; k <= n; k++) {
		double at = share[k - 1];

		floor *= WB_TIER_STEP;
		if (sc->r && at < floor / sc->r)
			at = floor / sc->r;
		sc->at[k] = at;
		sc->points[k] = pts[k - 1];
	}
	if (sc->at[0] >= sc->at[1])
		sc->at[0] = sc->at[1] / WB_TIER_STEP;
	return 0;
}

int wb_scale_speedups(struct wb_scale *sc, const double *speedup,
		      const double *pts, int n)
{
	if (!rising(speedup, pts, n))
		return -1;
	sc->unit = WB_SCALE_SPEEDUP;
	sc->n = n;
	sc->r = 1;
	sc->points[0] = 0;
	sc->at[0] = WB_ZERO_SPEEDUP;
	if (sc->at[0] >= speedup[0])
		sc->at[0] = speedup[0] / WB_TIER_STEP;
	for (int k = 1; k <= n; k++) {
		sc->at[k] = speedup[k - 1];
		sc->points[k] = pts[k - 1];
	}
	return 0;
}

int wb_scale_make(struct wb_scale *sc, enum wb_scale_unit unit,
		  const double *x, const double *pts, int n, double r)
{
	if (unit == WB_SCALE_SPEEDUP)
		return wb_scale_speedups(sc, x, pts, n);
	return wb_scale_shares(sc, x, pts, n, r);
}

double wb_scale_speedup_at(const struct wb_scale *sc, int k)
{
	if (k < 0 || k > sc->n || !sc->r)
		return 0;
	return sc->unit == WB_SCALE_SPEEDUP ? sc->at[k] : sc->at[k] * sc->r;
}

double wb_scale_points(const struct wb_scale *sc, double x, int *tier,
		       double *next)
{
	int k = 0;

	while (k < sc->n && x >= sc->at[k + 1])
		k++;
	if (tier)
		*tier = k;
	if (next)
		*next = k < sc->n ? wb_scale_speedup_at(sc, k + 1) : 0;
	if (!(x > sc->at[0]))
		return 0;
	if (k == sc->n)
		return sc->points[k];
	return sc->points[k] + (sc->points[k + 1] - sc->points[k]) *
				       (x - sc->at[k]) /
				       (sc->at[k + 1] - sc->at[k]);
}
