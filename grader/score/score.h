/* SPDX-License-Identifier: MIT */
/*
 * score.h - from a verdict and the measured ratios to points (score.c):
 * a spec's knobs checked, the figures recomputed from a record's rounds,
 * an exercise's result scored against its tiers, and the tiers written
 * out.
 */
#ifndef GRADER_SCORE_H
#define GRADER_SCORE_H

#include <stddef.h>

#include "grade.h"

/* Check a spec's knobs; 0, or -1 with the reason in why. */
int g_spec_validate(const struct g_spec *s, char *why, size_t n);
/*
 * Does s need a newer GPU than one of compute capability cc (x 10; 0:
 * unknown, never too old)? Lab 08's bf16 mma.sync and cp.async need
 * sm_80: such an exercise is built and inspected, never run or profiled.
 * 1 with the reason in why (if not NULL), or 0.
 */
int g_spec_too_new(const struct g_spec *s, int cc, char *why, size_t n);
/* Speedup, share, bandwidth, tiers on this GPU and points of r under s;
 * copy_gbps and dram_gbps (0: unknown) for the percentages. */
void g_score(const struct g_spec *s, struct g_result *r, double copy_gbps,
	     double dram_gbps);
struct g_samples;

/*
 * The driver's own figures for r, from the raw rounds in smp (record.h;
 * common/result.h's "sample" lines): medians, shares, speedups and their
 * intervals made as the runner makes them (common/stats.c), over every
 * benchmark shape of s. The samples are checked first (the shapes s's
 * table names, timing the student's code where a grade must, each
 * shape's count of rounds as declared, as the "rounds" line
 * counts and within the runner's limits, every time positive, finite and
 * under the time limit, an ideal of s's kind: peer_us, the peer's time
 * the driver passed, 0 if none; the SM clock plausible), then what the
 * record claims (its "time", "ratio", "clock" lines) against what they
 * give, within the rounding of its lines. All agree: the figures in r
 * are the driver's, and 0. Otherwise r is GRADER ERROR without figures,
 * its first detail naming runner and what disagreed, and -1. A record
 * without samples is left as it is, unless it is a PASS of a speed
 * exercise and timed (a grade or a bench, not SIZE=): then it has no
 * rounds to score, and is GRADER ERROR too.
 */
int g_measure(const struct g_spec *s, struct g_result *r,
	      const struct g_samples *smp, const char *runner, double peer_us,
	      int timed);
/* Performance points for x (a share or a speedup: s's tier unit), with
 * naive_ideal turning shares into speedups (0: unknown). */
double g_speed_points(const struct g_spec *s, double x, double naive_ideal,
		      int *tier, double *next_target);
/* s's tiers as a course file writes them, "0.4:20 0.6:40 0.8:60"; "none". */
void g_format_tiers(char *buf, size_t n, const struct g_spec *s);
/* "share 0.4:20 ..." or "speedup 2:20 ...": the runner's --tiers. */
void g_tiers_arg(char *buf, size_t n, const struct g_spec *s);

#endif /* GRADER_SCORE_H */
