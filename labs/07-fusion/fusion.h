/* SPDX-License-Identifier: MIT */
/*
 * fusion.h - the entry points of lab 07 (kernel fusion).
 *
 * Four memory-bound operations that an eager framework runs as several
 * kernels, each writing its intermediate to global memory for the next to
 * read back, and a count of the bytes such chains move (passes). Each
 * exercise file defines one of these host functions; the grader calls
 * the four operations with device pointers (256-byte aligned, from
 * cudaMalloc) and waits for the device afterwards. Launch on the default
 * stream and choose grid, block and shared memory inside: everything
 * launched counts in the time. Matrices are row-major and contiguous:
 * row r of a matrix with `cols` columns starts at element r * cols, so
 * rows are 16-byte aligned only when cols % 4 == 0. Every array has fewer
 * than 2^31 elements: no size the grader can check reaches 2^31 elements
 * on the GPUs students have; 32-bit element indices are enough.
 */
#ifndef FUSION_H
#define FUSION_H

#include <stddef.h>
#include "workbook.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * GeLU, tanh form, elementwise over n floats (1 <= n < 2^31):
 *     y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
 */
void gelu(const float *x, float *y, size_t n);

/*
 * y[r][c] = gelu(x[r][c] + b[c]); rows, cols >= 1, rows * cols < 2^31;
 * b has cols floats.
 */
void bias_gelu(const float *x, const float *b, float *y, size_t rows,
	       size_t cols);

/*
 * The residual add and RMSNorm of a transformer block, per row of hidden
 * floats (rows >= 1, 1 <= hidden <= 16384, rows * hidden < 2^31,
 * eps > 0):
 *     h = x + residual, written back into residual (in place)
 *     y = h / sqrt(mean(h^2) + eps) * w
 */
void add_rmsnorm(const float *x, float *residual, const float *w, float *y,
		 size_t rows, size_t hidden, float eps);

/*
 * Row softmax, numerically stable; rows, cols >= 1, rows * cols < 2^31;
 * x finite:
 *     y[r][c] = exp(x[r][c] - m) / sum_j exp(x[r][j] - m),  m = max_j x[r][j]
 */
void softmax(const float *x, float *y, size_t rows, size_t cols);

/*
 * The passes exercise: a chain of kernels, in launch order, over float
 * buffers 0 .. nbufs-1. Kernel i reads the buffers k[i].in (each listed
 * once) and then writes the buffers k[i].out (each listed once; a buffer
 * may be both, for an update in place). result[b] is 1 for the buffers
 * the operation must leave in memory, each written by some kernel.
 */
#define CHAIN_MAX_BUFS 12
#define CHAIN_MAX_KERNELS 12
#define KERNEL_MAX_ARGS 4

struct chain_kernel {
	int nin, nout;              /* 0 to KERNEL_MAX_ARGS each */
	int in[KERNEL_MAX_ARGS];    /* buffers read */
	int out[KERNEL_MAX_ARGS];   /* buffers written */
};

struct chain {
	int nbufs, nkernels;                    /* 1 to the maxima above */
	unsigned long long floats[CHAIN_MAX_BUFS]; /* each buffer's size */
	int result[CHAIN_MAX_BUFS];
	struct chain_kernel k[CHAIN_MAX_KERNELS];
};

/* Bytes read from and written to global memory. */
struct chain_bytes {
	unsigned long long read, write;
};

/*
 * The passes exercise: the bytes the chain moves run eagerly (each kernel
 * reads every buffer it lists and writes every buffer it lists, whole)
 * and fused into one kernel (each buffer read from memory at most once,
 * only if its first use is a read; each result written once; nothing
 * else touches memory). Host code: no GPU, no CUDA call.
 */
void chain_traffic(const struct chain *ch, struct chain_bytes *eager,
		   struct chain_bytes *fused);

/*
 * The diagnose exercise: one profiled call, as Nsight Compute recorded it
 * (README, section 12). Counters are summed over the call's kernels; the
 * two throughputs are averaged over them weighted by their time; waves
 * are the longest kernel's. Each field names the ncu metric it is.
 */
struct diag_report {
	int kernels;          /* kernels the call launched */
	double time_ns;       /* gpu__time_duration.sum */
	double dram_pct;      /* dram__throughput.avg.pct_of_peak_sustained_elapsed */
	double sm_pct;        /* sm__throughput.avg.pct_of_peak_sustained_elapsed */
	double dram_bytes;    /* dram__bytes_read.sum + dram__bytes_write.sum */
	double min_bytes;     /* the task's fewest bytes (lab.c's traffic()) */
	double flops;         /* the task's operations; 0: memory-bound task */
	double ld_sectors;    /* l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum */
	double ld_requests;   /* l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum */
	double ld_bytes;      /* sm__sass_data_bytes_mem_global_op_ld.sum */
	double st_sectors;    /* the same three for global stores (op_st) */
	double st_requests;
	double st_bytes;
	double sh_wavefronts; /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum + _st */
	double sh_conflicts;  /* l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum + _st */
	double br_targets;    /* smsp__sass_branch_targets.sum */
	double br_divergent;  /* smsp__sass_branch_targets_threads_divergent.sum */
	double br_uniform;    /* smsp__sass_branch_targets_threads_uniform.sum */
	double lanes;         /* smsp__thread_inst_executed_per_inst_executed.ratio */
	double waves;         /* launch__waves_per_multiprocessor */
};

/* What limits the call (README, section 12: ncu's speed-of-light rule). */
enum diag_bound { DIAG_MEMORY, DIAG_COMPUTE, DIAG_LATENCY };

/* The figures a diagnosis rests on, each derived from the report as
 * section 12 defines it (a ratio whose denominator is 0 is 0). */
enum diag_metric {
	DIAG_WAVES,          /* waves */
	DIAG_SECTOR_EXCESS,  /* sectors per request over the fewest a
			      * request could touch (its bytes / 32, at
			      * least 1): the larger of loads' and stores' */
	DIAG_TRAFFIC,        /* dram_bytes / min_bytes */
	DIAG_BYTES_PER_FLOP, /* ld_bytes / flops */
	DIAG_CONFLICTS,      /* sh_conflicts / sh_wavefronts */
	DIAG_BRANCH_EFF,     /* 100 br_uniform / br_targets, % (ncu's branch
			      * efficiency; 100 without branches) */
	DIAG_SM_PCT,         /* sm_pct */
	DIAG_DRAM_PCT,       /* dram_pct */
};

/* The change that would help most: the fixes labs 01 to 07 teach. */
enum diag_fix {
	DIAG_FIX_GRID,       /* launch enough blocks to fill the GPU (03) */
	DIAG_FIX_COALESCE,   /* neighbouring lanes, neighbouring bytes (03) */
	DIAG_FIX_FUSE,       /* one kernel for the chain (07) */
	DIAG_FIX_TILE,       /* reuse from shared memory or registers (04) */
	DIAG_FIX_PAD,        /* pad shared tiles against bank conflicts (04) */
	DIAG_FIX_BRANCH,     /* same path for a warp's lanes (01) */
	DIAG_FIX_FEWER_INSTR,/* fewer instructions a byte: shuffles, more
			      * elements a thread (02, 05) */
	DIAG_FIX_IN_FLIGHT,  /* more independent loads in flight (05) */
	DIAG_FIX_NONE,       /* at the memory's roof: nothing left */
};

struct diag_answer {
	enum diag_bound bound;
	enum diag_metric metric; /* the figure that shows the fix is due */
	double value;            /* its value in this report */
	enum diag_fix fix;
};

/* The diagnose exercise: read one report, fill *a. Host code. */
void diagnose(const struct diag_report *r, struct diag_answer *a);

/*
 * The compare exercise (README, section 16): two versions of one task,
 * each one profiled call as Nsight Compute recorded it, side by side as
 * ncu's baseline shows them. Counters are summed over a call's kernels,
 * the throughputs averaged over them weighted by their time.
 */
struct cmp_version {
	int kernels;       /* kernels the call launched */
	double time_ns;    /* gpu__time_duration.sum */
	double dram_bytes; /* dram__bytes_read.sum + dram__bytes_write.sum */
	double dram_pct;   /* dram__throughput.avg.pct_of_peak_sustained_elapsed */
	double sm_pct;     /* sm__throughput.avg.pct_of_peak_sustained_elapsed */
	double l2_pct;     /* lts__throughput.avg.pct_of_peak_sustained_elapsed */
};

struct cmp_pair {
	struct cmp_version v[2]; /* [0] the baseline, [1] the version
				  * compared with it; the same task, on the
				  * same GPU */
	double flops;            /* the task's floating-point operations,
				  * the same for both; 0: none counted */
};

/* The figures whose change ncu's baseline shows, in cmp_answer.change. */
enum cmp_figure {
	CMP_TIME, CMP_DRAM_BYTES, CMP_DRAM_PCT, CMP_SM_PCT, CMP_L2_PCT,
	CMP_NFIGURES
};

/* One version where the roofline chart puts it (a ratio whose
 * denominator is 0 is 0). */
struct cmp_side {
	double gbps;      /* DRAM bytes a second, GB/s (10^9 bytes) */
	double peak_gbps; /* the DRAM peak its dram_pct is a share of */
	double intensity; /* flop/B: the task's flops over its DRAM bytes */
	double gflops;    /* GFLOP/s: the task's flops over its time */
};

struct cmp_answer {
	double speedup;               /* the baseline's time over the other's */
	double change[CMP_NFIGURES];  /* each figure's change from the
				       * baseline, % of the baseline's */
	struct cmp_side side[2];      /* the baseline, the other */
	int faster_left;              /* 1: the faster version sits left of
				       * the slower on the roofline, its
				       * intensity under 0.9 times the
				       * slower's (the roofline puzzle) */
};

/* The compare exercise: read two versions, fill *a. Host code. */
void compare(const struct cmp_pair *p, struct cmp_answer *a);

/*
 * The stalls exercise (README, section 17): why a kernel's warps wait,
 * from ncu's Warp State Statistics. Per warp, the average cycles between
 * two of its instructions, and how many of them went to each reason
 * (smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio,
 * in this order); averaged over a call's kernels weighted by their time.
 */
enum stall_reason {
	STALL_BARRIER, STALL_BRANCH_RESOLVING, STALL_DISPATCH_STALL,
	STALL_DRAIN, STALL_IMC_MISS, STALL_LG_THROTTLE,
	STALL_LONG_SCOREBOARD, STALL_MATH_PIPE_THROTTLE, STALL_MEMBAR,
	STALL_MIO_THROTTLE, STALL_MISC, STALL_NO_INSTRUCTION,
	STALL_NOT_SELECTED, STALL_SHORT_SCOREBOARD, STALL_SLEEPING,
	STALL_TEX_THROTTLE, STALL_WAIT,
	STALL_COUNT,
	STALL_NONE = STALL_COUNT /* no reason: nothing to act on */
};

struct stall_report {
	int kernels;                /* kernels the call launched */
	double cycles;              /* smsp__average_warp_latency_per_inst_issued.ratio */
	double stall[STALL_COUNT];  /* cycles of those spent on each reason */
	double dram_pct;            /* dram__throughput.avg.pct_of_peak_sustained_elapsed */
	double dram_bytes;          /* dram__bytes_read.sum + dram__bytes_write.sum */
	double min_bytes;           /* the task's fewest bytes; 0: not counted */
};

/* What fills the queue a throttle waits on. */
enum stall_cause {
	CAUSE_NONE,          /* no throttle to act on */
	CAUSE_GLOBAL_LOCAL,  /* global and local memory instructions */
	CAUSE_SHARED_MIO,    /* shared memory, special functions, shuffles
			      * and other MIO instructions */
	CAUSE_TEXTURE,       /* texture and surface instructions (and what
			      * a chip routes through that unit) */
	CAUSE_MATH_PIPE,     /* arithmetic on one oversubscribed pipe */
};

struct stall_answer {
	enum stall_reason top;         /* the reason with the most cycles */
	double top_share;              /* its cycles over report.cycles */
	enum stall_reason throttle;    /* the throttle to act on, or
					* STALL_NONE */
	double throttle_share;         /* its cycles over report.cycles; 0
					* for STALL_NONE */
	enum stall_cause cause;        /* what fills its queue */
};

/* The stalls exercise: read one report, fill *a. Host code. */
void stalls(const struct stall_report *r, struct stall_answer *a);

/*
 * The naive references the grader times against (naive.cu): the eager
 * kernel sequences, one kernel per operation.
 */
void naive_gelu(const float *x, float *y, size_t n);
void naive_bias_gelu(const float *x, const float *b, float *y, size_t rows,
		     size_t cols);
void naive_add_rmsnorm(const float *x, float *residual, const float *w,
		       float *y, size_t rows, size_t hidden, float eps);
void naive_softmax(const float *x, float *y, size_t rows, size_t cols);

#ifdef __cplusplus
}
#endif

#endif /* FUSION_H */
