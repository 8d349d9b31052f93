/* SPDX-License-Identifier: MIT */
/*
 * fate.c - how an exercise runner ends, and what it says on the way.
 *
 * Every way out of a runner but a crash or a timeout goes through
 * wb_finish(): the verdict, then "end" on the result channel (result.h),
 * so the driver never reads half a record. A failed CUDA call ends the
 * runner as CRASH once the student's code has run (wb_now()), as a
 * grader error before; either way the message names the call, its file
 * and line, and what the runner was doing (wb_where()). wb_fail() does not
 * end anything: it marks the size wrong and says why, for the people
 * reading the .out and for the diagnosis (diag.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fate.h"
#include "integrity.h"
#include "result.h"

/* The most detail lines one exercise writes: enough to see a pattern. */
#define MAX_FAIL_LINES 40

static const char *const impl_names[WB_IMPL_COUNT] = {
	[WB_STUDENT] = "student", [WB_NAIVE] = "naive", [WB_PEER] = "peer",
	[WB_LIMIT] = "limit",
};

int wb_todo_hit;
char wb_todo_what[256];
static char where_now[256] = "starting";
static enum wb_impl impl_now = WB_STUDENT;
static int student_started; /* a CUDA error from now on is the student's */
static int fails_reported;

void wb_where(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(where_now, sizeof(where_now), fmt, ap);
	va_end(ap);
}

void wb_now(enum wb_impl impl)
{
	impl_now = impl;
	if (impl == WB_STUDENT)
		student_started = 1;
}

const char *wb_impl_name(enum wb_impl impl)
{
	return impl_names[impl];
}

/*
 * Leave without running exit handlers: whatever a submission registered
 * (atexit, a static object's destructor) never runs, so registering one
 * gains nothing (allowlist.c lists atexit as allowed for that reason).
 */
void wb_exit(int code)
{
	fflush(NULL);
	_exit(code);
}

void wb_finish(enum wb_verdict v, int code)
{
	wb_result("verdict", "%s", wb_verdict_key(v));
	wb_result_end();
	wb_exit(code);
}

void wb_cuda_fatal(cudaError_t err, const char *call, const char *file,
		   int line)
{
	const char *name = cudaGetErrorName(err);

	fprintf(stderr, "CUDA error %s (%s)\n  in %s at %s:%d\n  while %s\n",
		name, cudaGetErrorString(err), call, file, line, where_now);
	wb_result("detail", "%s: %s", name, cudaGetErrorString(err));
	wb_result("detail", "in %s at %s:%d, while %s", call, file, line,
		  where_now);
	wb_finish(student_started ? WB_V_CRASH : WB_V_ERROR, 3);
}

void wb_todo(const char *what, const char *file, int line)
{
	wb_todo_hit = 1;
	snprintf(wb_todo_what, sizeof(wb_todo_what), "%s (%s:%d)", what, file,
		 line);
}

void wb_die(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "grader error: %s\n", msg);
	wb_result("detail", "grader error: %s", msg);
	wb_finish(WB_V_ERROR, 4);
}

void wb_fail(struct wb_ctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	c->failed = 1;
	if (wb_diag.rerun)
		return; /* a failing size run again, quietly (diag.h) */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (impl_now == WB_STUDENT && strstr(msg, "modified its input"))
		wb_diag.input_modified = 1;
	printf("  %s, %s: %s\n", impl_names[impl_now], c->size->label, msg);
	if (fails_reported++ < MAX_FAIL_LINES)
		wb_result("detail", "%s%s%s: %s",
			  impl_now == WB_STUDENT ? "" : impl_names[impl_now],
			  impl_now == WB_STUDENT ? "" : " ", c->size->label,
			  msg);
}
