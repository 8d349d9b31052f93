/* SPDX-License-Identifier: MIT */
/*
 * profile.h - why a kernel is fast or slow, from Nsight Compute's counters
 * (make profile, make grade PROFILE=1; docs/nsight-compute.md).
 *
 * profile.c knows the metrics (one table), reads what `ncu --csv --page raw
 * --print-units base --metrics ...` prints (one row per kernel, a units
 * row, values with thousands separators, "n/a"), classifies ncu's errors
 * (counters not permitted, metrics it does not know), combines a call's
 * kernels, and turns the numbers into the short table (value, ideal, one
 * line of meaning) and hints, each hint backed by a measured number. It
 * does no I/O: the unit tests feed it recorded output (tests/profile/).
 *
 * ncu.c runs the runner (runner --mode profile) under ncu through proc.c,
 * retries without metrics this ncu does not know, and prints or attaches
 * the result.
 */
#ifndef GRADER_PROFILE_H
#define GRADER_PROFILE_H

#include <stdio.h>

#include "grade.h"
#include "../common/harness.h" /* the WB_PROF_* groups */

#define PROF_MAX_KERNELS 16
#define PROF_NAME_LEN 96
#define PROF_MAX_UNKNOWN 16
#define PROF_MAX_LINES 40

/* The warp stall reasons asked for, in the order of ncu's names. */
#define PROF_NSTALLS 17
extern const char *const prof_stall_names[PROF_NSTALLS];

/* Every metric asked of ncu; prof_metric_name() gives its ncu name. */
enum prof_metric {
	M_TIME_NS,          /* kernel duration (ns) */
	M_DRAM_RD,          /* DRAM bytes read */
	M_DRAM_WR,          /* DRAM bytes written */
	M_L2_WR_SECTORS,    /* sectors the SMs wrote to L2 */
	M_DRAM_PCT,         /* DRAM throughput, % of peak */
	M_L2_PCT,           /* L2 throughput, % of peak */
	M_SM_PCT,           /* SM (compute) throughput, % of peak */
	M_LD_SECTORS,       /* global loads: sectors, requests, bytes asked */
	M_LD_REQUESTS,
	M_LD_BYTES,
	M_ST_SECTORS,       /* global stores: the same */
	M_ST_REQUESTS,
	M_ST_BYTES,
	M_SH_LD_INST,       /* shared memory: instructions, wavefronts, */
	M_SH_ST_INST,       /* and bank conflicts (extra wavefronts) */
	M_SH_LD_WAVES,
	M_SH_ST_WAVES,
	M_SH_LD_CONFLICTS,
	M_SH_ST_CONFLICTS,
	M_BR_TARGETS,       /* branch targets, and those that split a warp */
	M_BR_DIVERGENT,
	M_BR_UNIFORM,
	M_LANES,            /* active threads per warp instruction (of 32) */
	M_OCC_ACHIEVED,     /* % of the SM's warp slots, on average */
	M_OCC_THEORETICAL,  /* the most the launch allows */
	M_LIM_REGS,         /* blocks per SM that registers, shared memory, */
	M_LIM_SMEM,         /* warps and the block-count limit allow */
	M_LIM_WARPS,
	M_LIM_BLOCKS,
	M_REGS,             /* registers per thread */
	M_WAVES,            /* grid size in waves of resident blocks */
	M_SMS,              /* the GPU's SMs */
	M_LOCAL_LD,         /* local-memory instructions: spills, runtime- */
	M_LOCAL_ST,         /* indexed arrays */
	M_STALL_TOTAL,      /* cycles between two issues of a warp */
	M_STALL_FIRST,      /* PROF_NSTALLS reasons: cycles per issue each */
	PROF_NMETRICS = M_STALL_FIRST + PROF_NSTALLS
};

const char *prof_metric_name(int m);

enum prof_status {
	PROF_OK,
	PROF_NO_NCU,        /* no ncu to run */
	PROF_NO_PERMISSION, /* ERR_NVGPUCTRPERM: counters not readable */
	PROF_BAD_METRICS,   /* ncu does not know some metrics (unknown[]) */
	PROF_NO_KERNELS,    /* it ran, but no kernel was profiled */
	PROF_RUN_FAILED,    /* the code under test did not run (why) */
	PROF_ERROR,         /* anything else ncu refused (why) */
};

/* One profiled kernel launch. */
struct prof_kernel {
	char name[PROF_NAME_LEN];  /* the function's name, no parameters */
	long block, grid;          /* threads per block, blocks */
	double m[PROF_NMETRICS];   /* NAN: not measured */
};

/* One ncu run of one implementation: its kernels, or why there are none. */
struct prof_run {
	enum prof_status status;
	char why[G_DETAIL_LEN];
	char unknown[PROF_MAX_UNKNOWN][PROF_NAME_LEN]; /* metric names ncu
							* did not know */
	int nunknown;
	struct prof_kernel k[PROF_MAX_KERNELS];
	int nk;
	int dropped_kernels;       /* past PROF_MAX_KERNELS, not kept */
	/* From the runner's record. */
	unsigned groups;           /* WB_PROF_* to show */
	double min_bytes;          /* the task's minimum at this shape; 0 */
	double flops;              /* its operations (a compute-bound task);
				    * 0: memory-bound, or not said */
	char shape[G_NAME_LEN];
};

/* Kernels of one run combined (a column of the table). */
struct prof_view {
	char label[PROF_NAME_LEN]; /* "yours", "naive", or a kernel's name */
	int nkernels;
	double time_ns;            /* all kernels */
	double m[PROF_NMETRICS];   /* counters summed; rates and ratios
				    * weighted by time; launch figures of the
				    * longest kernel */
	long block, grid;          /* of the longest kernel */
	char main_kernel[PROF_NAME_LEN];
	double min_bytes;          /* the task's minimum; 0: unknown */
	double flops;              /* the task's operations; 0: memory-bound */
	double copy_gbps;          /* measured copy bandwidth; 0: unknown */
	double share;              /* of the call's kernel time (1: all) */
};

/* The hints, each a lesson with the README that teaches it. */
enum prof_hint {
	H_COALESCING, H_GRID, H_OCCUPANCY, H_SPILLS, H_LATENCY, H_FUSION,
	H_REREAD, H_BANKS, H_DIVERGENCE, H_LG_THROTTLE, H_BARRIER,
	H_INSTRUCTIONS, PROF_NHINTS
};

extern const char *const prof_hint_names[PROF_NHINTS];

/*
 * Parse ncu's output (its log, and anything else it printed) into r: the
 * kernels, or the status and a one-line reason. Returns r->status.
 */
enum prof_status prof_parse(const char *text, struct prof_run *r);

/*
 * Both outputs of one profiled run: ncu's (prof_parse) and the runner's
 * record (groups, minimum bytes, shape, whether the call ran). A run that
 * did not reach the profiled call gives PROF_RUN_FAILED, unless ncu
 * refused the counters or the metrics. Returns r->status.
 */
enum prof_status prof_read(const char *ncu_text, const char *record_text,
			   struct prof_run *r);

/* All kernels of r combined, under label. */
void prof_view_all(const struct prof_run *r, const char *label,
		   struct prof_view *v);
/* Kernel k of r alone, labelled with its name; no task minimum (that is
 * the whole call's), and its share of the call's time. */
void prof_view_kernel(const struct prof_run *r, int k, struct prof_view *v);

/* Derived figures of a view; 1 when measured, with the value in *x. */
int prof_ld_sectors_per_request(const struct prof_view *v, double *x);
int prof_ld_ideal(const struct prof_view *v, double *x);
int prof_ld_excess(const struct prof_view *v, double *x);
int prof_st_excess(const struct prof_view *v, double *x);
int prof_traffic_ratio(const struct prof_view *v, double *x);

/*
 * The hints that v's numbers justify, for the groups shown: ids into ids[]
 * and one line each into lines[] (either may be NULL). Returns the count.
 */
int prof_hints(const struct prof_view *v, unsigned groups, int *ids,
	       char lines[][G_DETAIL_LEN], int max);

/*
 * The table: a heading, one line per figure of the groups shown (a column
 * per view; the ideal and the meaning are for views[subject]), then each
 * view's hints. Lines into out; returns their count.
 */
int prof_table(const struct prof_view *views, int nviews, int subject,
	       unsigned groups, char out[][G_DETAIL_LEN], int max);

/* "coalescing throughput" for a mask, into buf. */
void prof_group_names(unsigned groups, char *buf, size_t n);

/* ---- ncu.c: running it ---- */

struct prof_ctx {
	const char *ncu;            /* its path; "" or NULL: not found */
	unsigned long long seed;
	int shape;                  /* which benchmark shape */
	double copy_gbps;
	double timeout_s;
	int disabled;               /* no ncu, or counters refused: no more */
	char why[G_DETAIL_LEN];     /* ... and the one line that says why */
	int said;                   /* that line was printed */
	char dropped[PROF_MAX_UNKNOWN][PROF_NAME_LEN]; /* metrics ncu did
							* not know */
	int ndropped;
};

/* Ready pc: 0, or -1 with pc->disabled and pc->why when ncu is missing. */
int prof_init(struct prof_ctx *pc, const char *ncu, unsigned long long seed,
	      double copy_gbps);

/* Profile impl ("student", "naive", "peer") of exercise with runner. */
enum prof_status prof_collect(struct prof_ctx *pc, const char *runner,
			      const char *exercise, const char *impl,
			      struct prof_run *out);

/* make grade PROFILE=1: profile a passing speed exercise's code and attach
 * the table and hints to r as details. */
void prof_attach(struct prof_ctx *pc, const char *runner,
		 const struct g_spec *s, struct g_result *r);

/*
 * make profile: print exercise s's table. Columns: the submission in
 * build_dir, then those `with` names ("naive", "peer", "solution": the
 * runner in sol_dir). tsv, if not NULL, gets every figure. Returns 0, or 1
 * when ncu failed on every column (a column that did not run says why).
 */
int prof_exercise(struct prof_ctx *pc, const char *build_dir,
		  const char *sol_dir, const char *with,
		  const struct g_spec *s, FILE *out, FILE *tsv);

struct g_row;

/* make profile: prof_exercise for each row; every figure also to tsv_path
 * (if not NULL). Returns 0, or 1 when some exercise gave no profile. */
int prof_all(struct prof_ctx *pc, const struct g_row *rows, int n,
	     const char *build_dir, const char *sol_dir, const char *with,
	     const char *tsv_path);

#endif /* GRADER_PROFILE_H */
