/* SPDX-License-Identifier: MIT */
/*
 * fresh.h - new inputs for every timed call (fresh.c; the perturbation
 * itself: fresh_hash.h, the rotation of moved inputs: shuffle.h). Runner
 * internals: labs say how an input may change through harness.h
 * (wb_input_as(), wb_inout_as(), wb_input_rotated()).
 */
#ifndef WB_FRESH_H
#define WB_FRESH_H

#include <stdint.h>

#include "harness.h"

/* Keep device copies of the inputs as they are now (in place where the
 * device has no memory for one). An input the rounds could not change
 * is a grader error (wb_die). */
void wb_fresh_start(struct wb_ctx *c, uint64_t seed);
/* Queue round r's inputs: each input from its copy, under r's key. */
void wb_fresh_round(struct wb_ctx *c, uint64_t r);
/*
 * Queue what a call of impl needs before it: outputs and the workspace
 * poisoned, in-out buffers restored (perturbed like the call's inputs).
 * For the student's call also the lab's scratch poisoned, and, when the
 * lab's code (the naive, a peer) ran since the inputs were written, the
 * inputs rewritten under a new key: no student call sees inputs the
 * lab's code worked on.
 */
void wb_fresh_prepare(struct wb_ctx *c, enum wb_impl impl);
/* Point the host side at the last call's inputs (for check()), and back. */
void wb_fresh_host_begin(struct wb_ctx *c);
void wb_fresh_host_end(struct wb_ctx *c);
/* Free the copies; the buffers hold the inputs check() last saw. */
void wb_fresh_end(struct wb_ctx *c);
/* Reload the inputs from the host (a second run on the same inputs). */
void wb_inputs_reload(struct wb_ctx *c);

#endif /* WB_FRESH_H */
