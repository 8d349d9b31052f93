/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: talk to the grader instead of computing. The runner
 * writes its verdict and times through wb_result(); this file declares
 * that function and writes a record of its own, a PASS with a
 * one-microsecond time, closes it, and exits before the runner can write
 * the real one.
 *
 * The verdict comes from the output buffers, never from what the code
 * under test says: a file that calls into the grader (anything wb_ but
 * the CUDA_CHECK and WB_TODO helpers) is not run.
 * Expected verdict: REJECTED (the file is never run).
 */
#include <stdlib.h>

#include "reduction.h"

extern "C" void wb_result(const char *key, const char *fmt, ...);
extern "C" void wb_result_end(void);

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	(void)in, (void)n, (void)out, (void)work;
	wb_result("time", "student 1.000 1.000 1.000 15");
	wb_result("time", "naive 1000.000 1000.000 1000.000 15");
	wb_result("verdict", "PASS");
	wb_result_end();
	exit(0);
}
