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

/*
 * Shares: the tiers as the lab wrote them, on every GPU, so that the same
 * share earns the same points wherever it runs; the one floor is the
 * gate, WB_ZERO_SPEEDUP over the naive, below which nothing is earned
 * (a GPU whose naive comes close to the speed of light: a share that is
 * no speedup there earns nothing, and one past the gate what it earns
 * anywhere). Points start at the gate, or, where the gate is above the
 * first tier, rise from the first tier's share / WB_TIER_STEP as
 * anywhere, cut at the gate.
 */
int wb_scale_shares(struct wb_scale *sc, const double *share,
		    const double *pts, int n, double r)
{
	if (!rising(share, pts, n))
		return -1;
	sc->unit = WB_SCALE_SHARE;
	sc->n = n;
	sc->r = r > 0 ? r : 0;
	sc->gate = sc->r ? WB_ZERO_SPEEDUP / sc->r : 0;
	sc->points[0] = 0;
	for (int k = 1; k <= n; k++) {
		sc->at[k] = share[k - 1];
		sc->points[k] = pts[k - 1];
	}
	/* Without r, points start at half the first tier's share. */
	sc->at[0] = sc->r ? sc->gate : share[0] / 2;
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
	sc->gate = 0;
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
	double at;

	if (k < 0 || k > sc->n || !sc->r)
		return 0;
	if (sc->unit == WB_SCALE_SPEEDUP)
		return sc->at[k];
	at = sc->at[k] > sc->gate ? sc->at[k] : sc->gate;
	return at * sc->r;
}

double wb_scale_points(const struct wb_scale *sc, double x, int *tier,
		       double *next)
{
	int k = 0;

	while (k < sc->n && x >= sc->at[k + 1])
		k++;
	/* Not past the gate: no tier, whatever the share. */
	if (!(x > sc->gate) && sc->gate > 0)
		k = 0;
	if (tier)
		*tier = k;
	if (next)
		*next = k < sc->n ? wb_scale_speedup_at(sc, k + 1) : 0;
	if (!(x > sc->at[0]) || (sc->gate > 0 && !(x > sc->gate)))
		return 0;
	if (k == sc->n)
		return sc->points[k];
	return sc->points[k] + (sc->points[k + 1] - sc->points[k]) *
				       (x - sc->at[k]) /
				       (sc->at[k + 1] - sc->at[k]);
}
