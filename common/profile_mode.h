/* SPDX-License-Identifier: MIT */
/*
 * profile_mode.h - the runner's profile mode (runner --mode profile), for
 * the grader's Nsight Compute run (grader/profile/ncu.c). Runner internals: labs
 * use harness.h, never this.
 */
#ifndef WB_PROFILE_MODE_H
#define WB_PROFILE_MODE_H

#include <stdint.h>

#include "harness.h"

/*
 * Set up ex's benchmark shape number `shape`, call impl once untimed (the
 * warm-up: module load, lazy loading, first touch), then once more between
 * cudaProfilerStart() and cudaProfilerStop(), so that ncu run with
 * --profile-from-start off sees exactly that call's kernels. Correctness is
 * not checked: the grade does that. Writes the record (shape, the metric
 * groups, the task's minimum bytes and, for a compute-bound task, its
 * floating-point operations, the verdict) and exits.
 */
void wb_profile_mode(const struct wb_exercise *ex, uint64_t seed,
		     enum wb_impl impl, int shape)
	__attribute__((noreturn));

#endif /* WB_PROFILE_MODE_H */
