/* SPDX-License-Identifier: MIT */
/*
 * spec_fixture.h - an exercise's spec as the output tests need one
 * (test_formats.c, test_report_html.c): 40 points for correctness and, for
 * a speed exercise, 60 for speed over a course's fixed speedups (2x, 4x,
 * 6x for 20, 40, 60 points), so the figures need no ideal.
 */
#ifndef UNIT_SPEC_FIXTURE_H
#define UNIT_SPEC_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "grade.h"

static inline struct g_spec unit_spec(const char *lab, const char *name,
				      int speed)
{
	struct g_spec s;

	memset(&s, 0, sizeof(s));
	snprintf(s.lab, sizeof(s.lab), "%s", lab);
	snprintf(s.name, sizeof(s.name), "%s", name);
	snprintf(s.bench, sizeof(s.bench), "%s", speed ? "n=64M" : "-");
	s.speed = speed;
	s.points_correct = speed ? 40 : 100;
	s.points_speed = speed ? 60 : 0;
	s.timeout_s = 60;
	if (speed) {
		s.tiers[0] = (struct g_tier){ 2, 20 };
		s.tiers[1] = (struct g_tier){ 4, 40 };
		s.tiers[2] = (struct g_tier){ 6, 60 };
		s.ntiers = 3;
		s.tier_unit = G_TIERS_SPEEDUP;
	}
	return s;
}

#endif /* UNIT_SPEC_FIXTURE_H */
