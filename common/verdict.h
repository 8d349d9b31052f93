/* SPDX-License-Identifier: MIT */
/*
 * verdict.h - the outcomes of grading one exercise, shared by the exercise
 * runner (which decides what it sees: wrong results, out-of-bounds writes,
 * CUDA errors, a missing entry point) and the grader's driver (which
 * decides what is seen from outside: compile errors, signals, timeouts).
 */
#ifndef WB_VERDICT_H
#define WB_VERDICT_H

enum wb_verdict {
	WB_V_PASS,
	WB_V_WRONG,
	WB_V_NOT_IMPLEMENTED,
	WB_V_COMPILE_ERROR,
	WB_V_CRASH,
	WB_V_TIMEOUT,
	WB_V_OUT_OF_BOUNDS,
	WB_V_MEMCHECK,  /* compute-sanitizer memcheck found an error */
	WB_V_RACE,      /* racecheck found a shared-memory hazard */
	WB_V_SYNC,      /* synccheck found a barrier misuse */
	WB_V_BUILT,     /* build-only mode: compiled, not run */
	WB_V_ERROR,     /* the grader itself failed: not the student's fault */
	WB_V_SUSPICIOUS, /* faster than the hardware allows: not computed by
			  * the timed calls */
	WB_V_REJECTED,  /* the file defines or calls what it may not: not run */
	WB_V_SKELETON,  /* build-only mode: compiled, still calls WB_TODO */
	WB_V_COUNT
};

/* Name used on the wire and in machine-readable output: "NOT_IMPLEMENTED". */
const char *wb_verdict_key(enum wb_verdict v);
/* Name shown to people: "NOT IMPLEMENTED". */
const char *wb_verdict_label(enum wb_verdict v);
/* Parse a wire name; returns -1 when unknown. */
int wb_verdict_parse(const char *key);

#endif /* WB_VERDICT_H */
