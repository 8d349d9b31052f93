/* SPDX-License-Identifier: MIT */
/*
 * standalone.c - the two hooks of workbook.h for code built outside the
 * grader (the shared libraries of make torch-compare): a failed CUDA call
 * is printed and ends the process; WB_TODO is printed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "workbook.h"

void wb_cuda_fatal(cudaError_t err, const char *call, const char *file,
		   int line)
{
	fprintf(stderr, "CUDA error %s (%s) in %s at %s:%d\n",
		cudaGetErrorName(err), cudaGetErrorString(err), call, file, line);
	exit(3);
}

void wb_todo(const char *what, const char *file, int line)
{
	fprintf(stderr, "not implemented: %s (%s:%d)\n", what, file, line);
}
