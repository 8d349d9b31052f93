/* SPDX-License-Identifier: MIT */
/*
 * profile_mode.c - runner --mode profile: one call of one implementation at
 * a benchmark size, and nothing else, inside the profiler's range.
 *
 * The grader runs the runner under Nsight Compute with
 * --profile-from-start off, so only the kernels launched between
 * cudaProfilerStart() and cudaProfilerStop() are profiled: the setup, the
 * poison memsets, the warm-up call and, for the naive, everything of the
 * student's are left out. ncu itself flushes the caches before each replay
 * pass (its default --cache-control all), as the grader's timing does.
 *
 * The record says (result.h): "shape <label>", "profile <groups>" (the
 * exercise's WB_PROF_* mask), "bytes <minimum>" (the task's traffic() at
 * this shape, read plus written), "flops <count>" for a compute-bound task (one with flops:
 * the grader then does not read a busy SM as wasted instructions), then
 * the verdict: PASS when the call ran, NOT_IMPLEMENTED,
 * COMPILE_ERROR (no entry point), or GRADER_ERROR / CRASH from a CUDA
 * error, with its details.
 */
#include <stdio.h>
#include <string.h>
#include <cuda_profiler_api.h>

#include "buffers.h"
#include "fate.h"
#include "profile_mode.h"
#include "result.h"
#include "verdict.h"
#include "workbook.h"

/* Call impl once on fresh poison and wait for it; 0 or WB_MISSING. */
static int call(struct wb_ctx *c, enum wb_impl impl)
{
	wb_bufs_poison(c);
	WB_CUDA(cudaDeviceSynchronize());
	wb_todo_hit = 0;
	wb_where("running the %s code at size %s under the profiler",
		 wb_impl_name(impl), c->size->label);
	if (c->ex->run(c, impl) == WB_MISSING)
		return WB_MISSING;
	WB_CUDA(cudaGetLastError());
	WB_CUDA(cudaDeviceSynchronize());
	return 0;
}

void wb_profile_mode(const struct wb_exercise *ex, uint64_t seed,
		     enum wb_impl impl, int shape)
{
	const struct wb_size *s;
	struct wb_ctx c;

	if (shape < 0 || shape >= WB_MAX_BENCH || !ex->bench[shape].label)
		wb_die("%s has no benchmark shape number %d to profile",
		       ex->name, shape);
	s = &ex->bench[shape];
	wb_where("initialising the GPU");
	WB_CUDA(cudaSetDevice(0));
	printf("%s/%s: the %s code at %s, once under the profiler\n",
	       wb_lab.name, ex->name, wb_impl_name(impl), s->label);
	wb_result("shape", "%s", s->label);
	wb_result("profile", "%u", ex->profile ? ex->profile : WB_PROF_DEFAULT);
	if (ex->traffic) {
		struct wb_traffic t = { 0 };

		ex->traffic(s, &t);
		wb_result("bytes", "%.0f", t.read + t.write);
		if (t.flops > 0)
			wb_result("flops", "%.0f", t.flops);
	}
	wb_ctx_init(&c, ex, s, seed); /* the grade's inputs at this seed */

	if (call(&c, impl) == WB_MISSING) {
		wb_result("detail", "no %s entry point is linked in",
			  wb_impl_name(impl));
		wb_finish(impl == WB_STUDENT ? WB_V_COMPILE_ERROR : WB_V_ERROR,
			  0);
	}
	if (wb_todo_hit) {
		wb_result("detail", "not implemented: %s", wb_todo_what);
		wb_finish(WB_V_NOT_IMPLEMENTED, 0);
	}

	WB_CUDA(cudaProfilerStart());
	call(&c, impl);
	WB_CUDA(cudaProfilerStop());
	wb_bufs_free(&c);
	wb_finish(WB_V_PASS, 0);
}
