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
/* Whose code runs from now: names failures; from the first student call
 * on, a CUDA error is the student's (CRASH), before it the grader's. */
void wb_now(enum wb_impl impl);

/* The harness's own CUDA calls: a failure is reported as a crash. */
#define WB_CUDA(call) CUDA_CHECK(call)

/* An error of the grader itself (not the student's): report and exit. */
void wb_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* fresh.c: a number never handed out before (wb_ctx.inputs_gen). */
unsigned long wb_next_gen(void);

/* runner.c: set up ex at size s with the inputs seed gives (the same in
 * every mode, so a profile sees what the grade checked) and upload them. */
void wb_ctx_init(struct wb_ctx *c, const struct wb_exercise *ex,
		 const struct wb_size *s, uint64_t seed);

/* buffers.c: the life of an exercise's buffers at one size. */
enum wb_guard_status { WB_GUARDS_OK, WB_GUARDS_HIT };
void wb_bufs_upload(struct wb_ctx *c);
/* Poison the outputs; restore the in-out buffers from their initial
 * copies, perturbed under key when perturb is set (fresh.c's rounds). */
void wb_bufs_reset(struct wb_ctx *c, int perturb, uint64_t key);
void wb_bufs_poison(struct wb_ctx *c);
/* Read outputs back; check guards (and, if asked, unchanged inputs). */
enum wb_guard_status wb_bufs_readback(struct wb_ctx *c, int check_inputs);
void wb_bufs_free(struct wb_ctx *c);
/* Set by runner --exact (under the sanitizers): no guard regions. */
extern int wb_exact_alloc;

/* timing.c: one timed sample (see its header comment for the method). */
#define WB_STATE_LIMITS 5
struct wb_timer {
	cudaEvent_t start, stop, tail;
	void *flush;
	size_t flush_bytes;
	unsigned flush_value;
	double tail0_ms;    /* stop-to-tail of an empty region: its median */
	double tail_tol_ms; /* work after the stop event counts beyond this */
	/* device-wide settings as the runner found them, put back before
	 * every sample */
	size_t limit[WB_STATE_LIMITS];
	int limit_ok[WB_STATE_LIMITS];
	enum cudaFuncCache cache;
	int cache_ok;
	int persisting_l2;  /* the GPU keeps persisting L2 lines: reset them */
	int resets;         /* samples before which something was put back */
};

struct wb_sample {
	double ms;       /* the time counted: event_ms + extra_ms */
	double event_ms; /* start to stop event */
	double extra_ms; /* device work that outlived the call, counted */
	double mhz;      /* the SM clock the spacer measured just before */
};

typedef void wb_work_fn(void *arg);

void wb_timer_init(struct wb_timer *t);
void wb_timer_free(struct wb_timer *t);
/* Time one call of work(arg), cold L2; what was queued before (poison,
 * inputs) completes first, untimed. */
void wb_time_sample(struct wb_timer *t, wb_work_fn *work, void *arg,
		    struct wb_sample *s);

/* fresh.c: new inputs for every timed round (fresh_hash.h). */
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

/* Set by wb_todo(): the code under test is a skeleton. */
extern int wb_todo_hit;
extern char wb_todo_what[256];

#endif /* WB_RUNNER_H */
