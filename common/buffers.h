/* SPDX-License-Identifier: MIT */
/*
 * buffers.h - an exercise's context and buffers at one size (buffers.c):
 * set up, uploaded with guard regions, poisoned or restored before every
 * call, read back and checked after it. Runner internals: labs declare
 * their buffers through harness.h (wb_input(), wb_output(), ...).
 */
#ifndef WB_BUFFERS_H
#define WB_BUFFERS_H

#include <stdint.h>

#include "harness.h"

/* Set up ex at size s with the inputs seed gives (the same in every mode,
 * so a profile sees what the grade checked) and upload them. */
void wb_ctx_init(struct wb_ctx *c, const struct wb_exercise *ex,
		 const struct wb_size *s, uint64_t seed);

/* A number never handed out before (wb_ctx.inputs_gen). */
unsigned long wb_next_gen(void);

enum wb_guard_status { WB_GUARDS_OK, WB_GUARDS_HIT };
void wb_bufs_upload(struct wb_ctx *c);
/* Poison the outputs; restore the in-out buffers from their initial
 * copies, perturbed under key when perturb is set (fresh.c's rounds). */
void wb_bufs_reset(struct wb_ctx *c, int perturb, uint64_t key);
/* Queue the poisoning of the lab's scratch (wb_lab_scratch): before
 * every call of the student's code. */
void wb_bufs_clear_lab(struct wb_ctx *c);
/* Before a checked call: wb_bufs_reset() unperturbed, and the lab's
 * scratch poisoned. */
void wb_bufs_poison(struct wb_ctx *c);
/* Read outputs back; check guards (and, if asked, unchanged inputs). */
enum wb_guard_status wb_bufs_readback(struct wb_ctx *c, int check_inputs);
void wb_bufs_free(struct wb_ctx *c);
/* Set by runner --exact (under the sanitizers): no guard regions. */
extern int wb_exact_alloc;

#endif /* WB_BUFFERS_H */
