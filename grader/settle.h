/* SPDX-License-Identifier: MIT */
/*
 * settle.h - the verdict's one owner. Every verdict the grader gives an
 * exercise is written here and nowhere else (tests/layers.sh checks
 * that no other file of grader/ assigns one): the trip's stages
 * (run/trip.c), the checks they call, and the readers of records and
 * results files all settle it through g_settle().
 *
 * May use: grade.h alone (the base's lowest file).
 */
#ifndef GRADER_SETTLE_H
#define GRADER_SETTLE_H

#include "grade.h"

/* r's verdict is now v. */
void g_settle(struct g_result *r, enum wb_verdict v);

#endif /* GRADER_SETTLE_H */
