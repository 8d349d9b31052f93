/* SPDX-License-Identifier: MIT */
/*
 * profile.h - why a kernel is fast or slow, from Nsight Compute's counters
 * (make profile, make grade PROFILE=1; docs/nsight-compute.md): the data
 * that the profiler's files pass between them, and no functions.
 *
 * One job a file, each with its header and its prefix:
 *
 *   metrics.c         metric_  the metrics asked of ncu (one table)
 *   ncu_csv.c         ncsv_    reading ncu's CSV log and the runner's
 *                              record into a struct prof_run
 *   profile_derive.c  prof_    views (a call's kernels combined), the
 *                              figures derived from them, the hints
 *   profile_render.c  render_  the table of figures and hints, as text
 *   ncu.c             ncu_     running the runner under ncu (proc.c),
 *                              and printing or attaching the result
 *
 * All but ncu.c do no I/O: the unit tests feed them recorded output
 * (tests/profile/).
 */
#ifndef GRADER_PROFILE_H
#define GRADER_PROFILE_H

#include "grade.h"
#include "../../common/harness.h" /* the WB_PROF_* groups */

#define PROF_MAX_KERNELS 16
#define PROF_NAME_LEN 96
#define PROF_MAX_UNKNOWN 16
#define PROF_MAX_LINES 40

/* The warp stall reasons asked for (metric_stall_names, metrics.h). */
#define PROF_NSTALLS 17

/* Every metric asked of ncu; metric_name() gives its ncu name. */
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
	M_ISSUE_ACTIVE,     /* % of cycles a scheduler issued (of 1 a cycle) */
	M_WARPS_ACTIVE,     /* warps resident per scheduler, on average */
	M_WARPS_ELIGIBLE,   /* of them, ready to issue, per cycle */
	M_STALL_TOTAL,      /* cycles between two issues of a warp */
	M_STALL_FIRST,      /* PROF_NSTALLS reasons: cycles per issue each */
	PROF_NMETRICS = M_STALL_FIRST + PROF_NSTALLS
};

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

#endif /* GRADER_PROFILE_H */
