/* SPDX-License-Identifier: MIT */
/*
 * ncu_csv.h - reading what one profiled run left (ncu_csv.c): Nsight
 * Compute's `--csv --page raw --print-units base` log, and the runner's
 * record of the call it profiled, into a struct prof_run (profile.h).
 */
#ifndef GRADER_NCU_CSV_H
#define GRADER_NCU_CSV_H

#include "profile.h"

/*
 * Parse ncu's output (its log, and anything else it printed) into r: the
 * kernels, or the status and a one-line reason. Returns r->status.
 */
enum prof_status ncsv_parse(const char *text, struct prof_run *r);

/*
 * Both outputs of one profiled run: ncu's (ncsv_parse) and the runner's
 * record (groups, minimum bytes, shape, whether the call ran). A run that
 * did not reach the profiled call gives PROF_RUN_FAILED, unless ncu
 * refused the counters or the metrics. Returns r->status.
 */
enum prof_status ncsv_read(const char *ncu_text, const char *record_text,
			   struct prof_run *r);

#endif /* GRADER_NCU_CSV_H */
