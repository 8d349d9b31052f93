/* SPDX-License-Identifier: MIT */
/*
 * runner.h - internals shared by the exercise runner's files (runner.c,
 * buffers.c, timing.c). Labs use harness.h, never this.
 */
#ifndef WB_RUNNER_H
#define WB_RUNNER_H

#include <stddef.h>
#include <cuda_runtime.h>

#include "harness.h"

/* Say what the runner is doing, for the message if a CUDA call fails. */
void wb_where(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The harness's own CUDA calls: a failure is reported as a crash. */
#define WB_CUDA(call) CUDA_CHECK(call)

/* An error of the grader itself (not the student's): report and exit. */
void wb_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* runner.c: set up ex at size s with the inputs seed gives (the same in
 * every mode, so a profile sees what the grade checked) and upload them. */
void wb_ctx_init(struct wb_ctx *c, const struct wb_exercise *ex,
		 const struct wb_size *s, uint64_t seed);

/* buffers.c: the life of an exercise's buffers at one size. */
enum wb_guard_status { WB_GUARDS_OK, WB_GUARDS_HIT };
void wb_bufs_upload(struct wb_ctx *c);
void wb_bufs_poison(struct wb_ctx *c);
/* Read outputs back; check guards (and, if asked, unchanged inputs). */
enum wb_guard_status wb_bufs_readback(struct wb_ctx *c, int check_inputs);
void wb_bufs_free(struct wb_ctx *c);

/* timing.c: one timed sample of one implementation. */
struct wb_timer {
	cudaEvent_t start, stop;
	void *flush;
	size_t flush_bytes;
	unsigned flush_value;
	double overhead_ms; /* host clock minus events for an empty region */
};
void wb_timer_init(struct wb_timer *t);
void wb_timer_free(struct wb_timer *t);
/* Milliseconds for one call of impl, cold L2; host clock in *host_ms. */
double wb_time_sample(struct wb_timer *t, struct wb_ctx *c,
		      enum wb_impl impl, double *host_ms);

/* Set by wb_todo(): the code under test is a skeleton. */
extern int wb_todo_hit;
extern char wb_todo_what[256];

#endif /* WB_RUNNER_H */
