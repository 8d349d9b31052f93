/* SPDX-License-Identifier: MIT */
/*
 * scale.h - from an exercise's tiers to points: one scale, used by the
 * runner (its stopping rule asks how many points the measurement is worth)
 * and by the driver (which scores it), so the two can never disagree.
 *
 * A scale is a rising list of boundaries in the quantity the tiers are
 * written in, with the points earned at each: at[0] earns 0 points, at[k]
 * tier k's points, linear in between, the top tier's points above at[n].
 *
 * A lab's tiers are shares of the exercise's ideal time on this GPU
 * (harness.h, struct wb_tier): the quantity is share = ideal / time. Each
 * share becomes a speedup over the naive through R = naive / ideal,
 * measured in the same run: speedup = share x R. The tiers stand as
 * written on every GPU (the same share earns the same points anywhere),
 * with one gate (knobs.h): nothing is earned up to WB_ZERO_SPEEDUP over
 * the naive, so a GPU whose naive comes close to the speed of light gives
 * no points to a share that is no speedup there, and from the gate on
 * what that share earns everywhere. A course may instead give fixed
 * speedups (course.h): the quantity is then the speedup itself.
 */
#ifndef WB_SCALE_H
#define WB_SCALE_H

#define WB_SCALE_MAX 8

enum wb_scale_unit { WB_SCALE_SHARE, WB_SCALE_SPEEDUP };

struct wb_scale {
	enum wb_scale_unit unit;
	int n;                            /* tiers */
	double at[WB_SCALE_MAX + 1];      /* at[0]: where points start */
	double points[WB_SCALE_MAX + 1];  /* points[0] = 0 */
	double r;                         /* naive / ideal (shares); 1 */
	double gate;                      /* shares: WB_ZERO_SPEEDUP / r, no
					   * points at or below it (0: none) */
};

/*
 * Shares: tier k at share[k-1] of the ideal, worth pts[k-1]; r = naive /
 * ideal as measured (0 when unknown: no floors, no speedups). Returns -1
 * when the tiers do not rise or are too many.
 */
int wb_scale_shares(struct wb_scale *sc, const double *share,
		    const double *pts, int n, double r);
/* Fixed speedups over the naive (a course's tiers). */
int wb_scale_speedups(struct wb_scale *sc, const double *speedup,
		      const double *pts, int n);

/* Either of the above, as unit says (r: for shares only). */
int wb_scale_make(struct wb_scale *sc, enum wb_scale_unit unit,
		  const double *x, const double *pts, int n, double r);

/*
 * Points for x (in the scale's unit); the tiers reached into *tier and
 * the next boundary, as a speedup over the naive, into *next (0 at the
 * top or when unknown).
 */
double wb_scale_points(const struct wb_scale *sc, double x, int *tier,
		       double *next);

/* Boundary k (1..n) as a speedup over the naive; 0 when unknown. */
double wb_scale_speedup_at(const struct wb_scale *sc, int k);

#endif /* WB_SCALE_H */
