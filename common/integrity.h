/* SPDX-License-Identifier: MIT */
/*
 * integrity.h - the runner's side of grading integrity (docs/grading.md,
 * "Integrity"): the technique rules it lists for the driver, the second
 * input set of the timed calls, and the diagnosis of a WRONG verdict.
 */
#ifndef WB_INTEGRITY_H
#define WB_INTEGRITY_H

#include <stdio.h>

#include "diag.h"
#include "harness.h"

/* rules.c: `runner --rules`, the lab's technique rules, one per line. */
void wb_rules_list(FILE *f);

/*
 * fresh.c: a second input set for the timed calls at a benchmark shape.
 * start: make set B (setup() again, another seed) and keep both sets on
 * the device; -1 (and timing on set A alone) when memory is short.
 * next: before each timed sample, put a randomly chosen set in place.
 * flip: put in place the set the student's last timed call did not see.
 * end: set A's pointers back, and free set B.
 */
int wb_fresh_start(struct wb_ctx *c, uint64_t seed);
void wb_fresh_next(struct wb_ctx *c, enum wb_impl impl);
int wb_fresh_flip(struct wb_ctx *c);
void wb_fresh_end(struct wb_ctx *c);

/* Upload the inputs again (the code under test may have written them). */
void wb_inputs_reload(struct wb_ctx *c);

/* The runner's diagnosis of this exercise (diag.h). */
extern struct wb_diag wb_diag;

#endif /* WB_INTEGRITY_H */
