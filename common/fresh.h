/* SPDX-License-Identifier: MIT */
/*
 * fresh.h - new inputs for every timed round (fresh.c; the perturbation
 * itself: fresh_hash.h). Runner internals: labs say how an input may be
 * perturbed through harness.h (wb_input_as(), wb_inout_as()).
 */
#ifndef WB_FRESH_H
#define WB_FRESH_H

#include <stdint.h>

#include "harness.h"

/* Keep device copies of the inputs as they are now; 0, or -1 when there
 * is no memory for them (rounds then reuse the inputs, and say so). */
int wb_fresh_start(struct wb_ctx *c, uint64_t seed);
/* Queue round r's inputs: each perturbable input from its copy. */
void wb_fresh_round(struct wb_ctx *c, uint64_t r);
/* Queue what every call needs before it: outputs and the workspace
 * poisoned, in-out buffers restored (perturbed like the round's inputs). */
void wb_fresh_prepare(struct wb_ctx *c);
/* Point the host side at the round's inputs (for check()), and back. */
void wb_fresh_host_begin(struct wb_ctx *c);
void wb_fresh_host_end(struct wb_ctx *c);
/* Free the copies; the buffers hold the inputs check() last saw. */
void wb_fresh_end(struct wb_ctx *c);
/* Reload the inputs from the host (a second run on the same inputs). */
void wb_inputs_reload(struct wb_ctx *c);

#endif /* WB_FRESH_H */
