/* SPDX-License-Identifier: MIT */
/*
 * integrity.h - the runner's side of grading integrity (docs/grading.md,
 * "Integrity"): the technique rules it lists for the driver and the
 * diagnosis of a WRONG verdict. (Fresh inputs for the timed calls: fresh.h,
 * fresh.c.)
 */
#ifndef WB_INTEGRITY_H
#define WB_INTEGRITY_H

#include <stdio.h>

#include "diag.h"
#include "harness.h"

/* rules.c: `runner --rules`, the lab's technique rules, one per line. */
void wb_rules_list(FILE *f);

/* The runner's diagnosis of this exercise (diag.h). */
extern struct wb_diag wb_diag;

#endif /* WB_INTEGRITY_H */
