/* SPDX-License-Identifier: MIT */
/*
 * workbook.h - the few helpers every exercise file may use.
 *
 * Student files, naive references and solutions include this header. It
 * gives one CUDA_CHECK() that names the failing call, file and line, a
 * ceiling division, and WB_TODO(), the marker skeletons use for "not
 * implemented yet". Nothing here is defined other than as static inline.
 */
#ifndef WORKBOOK_H
#define WORKBOOK_H

#include <stddef.h>
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Report a failed CUDA call to the grader and end the process. The grader
 * turns this into the verdict CRASH with the error's name; the other
 * exercises are graded in their own processes and are not affected.
 */
void wb_cuda_fatal(cudaError_t err, const char *call, const char *file,
		   int line);

/* Called by WB_TODO(); the grader reports NOT IMPLEMENTED. */
void wb_todo(const char *what, const char *file, int line);

#ifdef __cplusplus
}
#endif

/* Check a CUDA runtime call; on failure name the call, file and line. */
#define CUDA_CHECK(call)                                                   \
	do {                                                               \
		cudaError_t wb_err_ = (call);                              \
		if (wb_err_ != cudaSuccess)                                \
			wb_cuda_fatal(wb_err_, #call, __FILE__, __LINE__); \
	} while (0)

/* Check the launch just made (bad configuration, missing kernel image). */
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())

/*
 * Mark an unfinished exercise. Delete the line when you implement the
 * function: while it is there the exercise grades as NOT IMPLEMENTED.
 */
#define WB_TODO(what) wb_todo((what), __FILE__, __LINE__)

/* Number of blocks of size b needed to cover n items (n may be 0). */
static inline size_t wb_ceil_div(size_t n, size_t b)
{
	return (n + b - 1) / b;
}

#endif /* WORKBOOK_H */
