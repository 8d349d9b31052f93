/* SPDX-License-Identifier: MIT */
/*
 * fate.h - how an exercise runner ends, and what it says on the way
 * (fate.c): where it was, whose code ran, a failed CUDA call, a grader
 * error, a failed check, a skeleton's WB_TODO(). Runner internals: labs use
 * harness.h, exercise files workbook.h, never this.
 *
 * The hooks the other headers declare are defined here too: wb_fail()
 * (harness.h), wb_cuda_fatal() and wb_todo() (workbook.h).
 */
#ifndef WB_FATE_H
#define WB_FATE_H

#include "harness.h"
#include "verdict.h"
#include "workbook.h"

/* Say what the runner is doing, for the message if a CUDA call fails. */
void wb_where(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whose code runs from now: names failures; from the first student call
 * on, a CUDA error is the student's (CRASH), before it the grader's. */
void wb_now(enum wb_impl impl);
/* "student", "naive" or "peer", for messages. */
const char *wb_impl_name(enum wb_impl impl);

/* The harness's own CUDA calls: a failure is reported as a crash. */
#define WB_CUDA(call) CUDA_CHECK(call)

/* Write the verdict, close the record (result.h) and exit with code. */
void wb_finish(enum wb_verdict v, int code) __attribute__((noreturn));
/* Flush and leave with code, running no exit handlers (the runner's every
 * ending: none of a submission's code runs after its record). */
void wb_exit(int code) __attribute__((noreturn));

/* An error of the grader itself (not the student's): report and exit. */
void wb_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* Set by wb_todo(): the code under test is a skeleton. */
extern int wb_todo_hit;
extern char wb_todo_what[256];

#endif /* WB_FATE_H */
