/* SPDX-License-Identifier: MIT */
/*
 * harness.h - what a lab provides to be graded, and what it may use.
 *
 * A lab is a folder under labs/ with a lab.mk (its exercise names and
 * sources) and one table, `wb_lab`, of struct wb_exercise. Each exercise
 * states its sizes, tolerance, tiers and points (the knobs, each with a
 * sentence of reasoning in the lab's table) and four hooks:
 *
 *   setup(c)      declare the buffers for c->size with wb_input(),
 *                 wb_output() and fill the inputs from c->rng;
 *   run(c, impl)  call the student's, the naive or the peer entry point on
 *                 the device buffers; return WB_MISSING if it is not linked;
 *   check(c)      compare the outputs (host copies) with a double-precision
 *                 reference computed from the host inputs; report with
 *                 wb_check_*() or wb_fail();
 *   traffic(s, t) the fewest bytes a kernel must read and write at size s
 *                 (each input read once, each output written once) and, for
 *                 compute-bound exercises (matmul), its floating-point
 *                 operations: with the rates measured in the same run, the
 *                 speed of light the tiers are shares of.
 *
 * The harness (runner.c) does the rest: it uploads inputs, poisons outputs,
 * guards them with canaries, checks inputs are unchanged, times the student
 * against the naive code, and reports to the grader. No lab code reaches
 * the grader's driver: adding a lab is adding a folder.
 *
 * The harness is built in floors, lowest first: a file of common/ includes
 * only headers of its own floor or below, and no files include one another
 * in a circle. tests/layers.sh reads the list below (a file's name without
 * its .c, .cu or .h) and checks both; a new file of common/ goes on a floor
 * here.
 *
 *   floor 0 = harness workbook knobs fresh_hash shuffle rng stats check
 *             scale verdict result diag integrity rules lockdown;
 *     what labs and exercise files see, and host code that neither calls
 *     CUDA nor ends the process (the unit tests link it alone).
 *   floor 1 = fate standalone tma;
 *     how the process ends and says where it was: wb_die(), wb_fail(),
 *     the CUDA error path behind WB_CUDA(), WB_TODO() (standalone.c: the
 *     same hooks for code built outside the grader); and the one driver
 *     function a submission may reach, the TMA's tensor-map encoder
 *     (tma.c).
 *   floor 2 = probe peak_sm90 buffers fresh timing lab_check;
 *     one part of running an exercise each: the harness's kernels (the
 *     wgmma peak apart: it is built for sm_90a alone), the
 *     buffers of one size, new inputs every round, one timed sample, the
 *     helpers of a lab's check().
 *   floor 3 = bench profile_mode runner devinfo hostcheck;
 *     the modes and the programs that put floor 2 together: timing a shape,
 *     profiling one call, the grade loop, the GPU's description, a host
 *     exercise graded on the CPU (make check).
 */
#ifndef WB_HARNESS_H
#define WB_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "fresh_hash.h"
#include "rng.h"

#define WB_MAX_BUFS 8
#define WB_MAX_SIZES 24
#define WB_MAX_TIERS 6
#define WB_MAX_DIMS 3
#define WB_MAX_BENCH 3
#define WB_MAX_RULES 4
#define WB_MAX_LAB_SCRATCH 4

/* run() returns this when the implementation asked for is not linked in. */
#define WB_MISSING 1

/*
 * Nsight Compute metric groups that `make profile` and `make grade
 * PROFILE=1` show for an exercise (its .profile, next to its tiers); each
 * group also carries the hints its numbers can justify
 * (docs/nsight-compute.md). 0 shows WB_PROF_DEFAULT.
 */
#define WB_PROF_COALESCING (1u << 0) /* global sectors per request, ld/st */
#define WB_PROF_THROUGHPUT (1u << 1) /* DRAM, L2, SM % of peak; bytes moved */
#define WB_PROF_SHARED     (1u << 2) /* shared-memory bank conflicts */
#define WB_PROF_DIVERGENCE (1u << 3) /* branch efficiency, active lanes */
#define WB_PROF_OCCUPANCY  (1u << 4) /* occupancy and its limit, registers,
				      * local memory (spills), grid size */
#define WB_PROF_STALLS     (1u << 5) /* the top warp stall reasons */
#define WB_PROF_DEFAULT (WB_PROF_THROUGHPUT | WB_PROF_OCCUPANCY | WB_PROF_STALLS)

/*
 * compute-sanitizer tools an exercise always runs once it passes, whatever
 * SANITIZE= says (its .sanitize): for an exercise whose lesson is a race
 * that usually gives the right answer (lab 02's lockstep), a plain grade
 * cannot tell the fix from the bug. Where a tool cannot run (no
 * compute-sanitizer, or it does not finish), the exercise earns nothing:
 * GRADER ERROR (docs/grading.md, "Sanitizers").
 */
#define WB_SAN_MEMCHECK  (1u << 0)
#define WB_SAN_RACECHECK (1u << 1) /* shared-memory hazards */
#define WB_SAN_SYNCCHECK (1u << 2) /* barrier and __syncwarp misuse */

enum wb_kind {
	WB_SPEED,       /* correctness gates, then speedup over naive scores */
	WB_CORRECTNESS, /* correctness only */
};

enum wb_impl {
	WB_STUDENT, /* the submission (a skeleton, a solution, a test case) */
	WB_NAIVE,   /* the lab's naive reference: the speedup's baseline */
	WB_PEER,    /* a library's best (CUB, cuBLAS), shown by make bench */
	WB_LIMIT,   /* the lab's limit kernel (WB_IDEAL_LIMIT): the least
		     * work the task needs, issued without waste */
	WB_IMPL_COUNT
};

/*
 * A technique rule, checked on the student's own compiled file, not on
 * timings (grader/inspect/inspect.c; docs/grading.md, "Technique checks"): the
 * file must (or must not) contain one of the alternatives of `pattern`,
 * substrings separated by '|', in its PTX (nvcc -ptx), its symbol table
 * (nm: names it defines and calls) or its SASS (cuobjdump, where
 * installed). An alternative written "!word" excludes the lines that
 * contain word. A failed rule withholds the performance points.
 */
enum wb_rule_kind {
	WB_RULE_END,  /* ends the list */
	WB_MUST,      /* at least one alternative must be there */
	WB_MUST_NOT,  /* none may be there */
};

enum wb_rule_where { WB_PTX, WB_SYMBOLS, WB_SASS };

struct wb_rule {
	enum wb_rule_kind kind;
	enum wb_rule_where where;
	const char *pattern; /* "shfl.sync" or "cublas|mma.sync" */
	const char *what;    /* what it stands for: "warp shuffles" */
	const char *why;     /* one sentence: why the exercise asks this */
};

/*
 * What a device-wide library algorithm leaves in an object: the kernel
 * stubs of CUB's and Thrust's algorithms (cub::DeviceReduce, thrust::reduce,
 * cub::DeviceSegmentedReduce, ...), or calls into cuBLAS or cuDNN. CUB's
 * block- and warp-level primitives (cub::BlockReduce) define no kernel of
 * their own and do not match; <cub/cub.cuh> instantiates cub's EmptyKernel
 * whatever is used, so that one is excluded.
 */
#define WB_PAT_LIBRARY \
	"__device_stub__ZN3cub|__device_stub__ZN6thrust|cublas|cudnn|!EmptyKernel"

/* A problem size: up to three extents whose meaning the exercise defines. */
struct wb_size {
	const char *label; /* shown in reports: "n=33", "31x33" */
	size_t n[WB_MAX_DIMS];
};

/*
 * Performance points earned once the code reaches `share` of its ideal
 * time on this GPU (0.7: 70% of the speed of light, ideal time / time).
 * The grader turns each share into a speedup over the naive for the GPU
 * at hand, from what it measured in the same run (docs/grading.md,
 * section 5): the tiers mean the same on every GPU.
 */
struct wb_tier {
	double share;
	double points;
};

/* What an exercise's ideal time, the base of its tiers' shares, is. */
enum wb_ideal {
	WB_IDEAL_DRAM,  /* its bytes read and written at the rates the probes
			 * measure in the same timing rounds */
	WB_IDEAL_PEER,  /* the library peer (cuBLAS), timed by the grader in a
			 * process without the student's code */
	WB_IDEAL_INSTR, /* the naive's time over instr_speedup, where the naive
			 * and the best code are bound by the same instruction
			 * pipelines (divergence), or the DRAM time if longer */
	WB_IDEAL_ROOF,  /* its roofline: the longer of its FLOPs at the peak
			 * rate of the units they run on (tensor_flops: the
			 * tensor cores, through wgmma on a Hopper GPU and
			 * mma.sync elsewhere; else the CUDA cores' fp32 FMA)
			 * and its bytes at the memory probe's rate, both
			 * measured in the same rounds (probe.h) */
	WB_IDEAL_LIMIT, /* the lab's limit kernel (run with WB_LIMIT), timed
			 * in the same rounds, or the DRAM time if longer:
			 * for a task bound by its instructions, the least
			 * instruction work it needs at the rate the GPU
			 * issues it (lab 01's branch: both chains, with no
			 * divergence and four independent chains a thread) */
};

/* What an exercise must move and compute at one size. */
struct wb_traffic {
	double read;  /* bytes: each input read once */
	double write; /* bytes: each output written once */
	double flops; /* floating-point operations; 0 for memory-bound work */
};

enum wb_buf_kind {
	WB_IN,    /* uploaded once; must be unchanged after every call */
	WB_OUT,   /* poisoned before and read back after every call */
	WB_INOUT, /* restored to its initial contents before every call, read
		   * back after (an update in place, like a residual) */
};

/* A device buffer and its host mirror. */
struct wb_buf {
	const char *name;
	enum wb_buf_kind kind;
	enum wb_fresh fresh; /* how timed calls perturb it (inputs, in-out) */
	void *host;     /* inputs: the contents uploaded; outputs: read back */
	void *init;     /* in-out: the initial contents, for the reference */
	void *dev;      /* the pointer handed to the code under test */
	size_t bytes;
	void *alloc;    /* device allocation including the guard regions */
	void *init_dev; /* in-out: a device copy of init, to restore from */
	void *readback; /* inputs: host scratch the device copy is read into
			 * to check it is unchanged (kept: no page faults) */
	size_t rotate_elem; /* inputs: timed calls see it rotated by whole
			     * elements of this many bytes (0: not moved;
			     * wb_input_rotated) */
	unsigned char host_locked;     /* host (outputs) is page-locked */
	unsigned char readback_locked; /* readback is page-locked */
};

struct wb_ctx {
	const struct wb_exercise *ex;
	const struct wb_size *size;
	struct wb_rng rng;
	struct wb_buf buf[WB_MAX_BUFS]; /* in the order setup() declared them */
	int nbuf;
	void *work;        /* scratch for the code under test, or NULL */
	size_t work_bytes;
	int failed;        /* check() found this size wrong */
	unsigned long inputs_gen; /* new whenever the host inputs change (the
				   * timed rounds' fresh inputs): a reference
				   * kept between checks is keyed on it */
	/* device memory the lab's own code writes outside the buffers
	 * (wb_lab_scratch): overwritten before every student call */
	struct wb_scratch_region {
		void *dev;
		size_t bytes;
	} lab_scratch[WB_MAX_LAB_SCRATCH];
	int n_lab_scratch; /* above WB_MAX_LAB_SCRATCH: the lab asked for
			    * more (buffers.c stops with a grader error) */
};

struct wb_exercise {
	const char *name;  /* as in lab.mk and the file name: "sum" */
	const char *title; /* one line for reports */
	enum wb_kind kind;
	struct wb_size sizes[WB_MAX_SIZES]; /* checked; ends at label NULL */
	struct wb_size bench[WB_MAX_BENCH];  /* timed (and checked); ends at
					      * label NULL; several are
					      * combined by geometric mean */
	double points_correct;               /* for passing every size */
	double points_speed;                 /* for reaching the top tier */
	struct wb_tier tiers[WB_MAX_TIERS];  /* rising; ends at share 0 */
	enum wb_ideal ideal;                 /* what the shares are of */
	double instr_speedup;                /* WB_IDEAL_INSTR: the best code's
					      * speedup where both it and the
					      * naive are instruction-bound */
	unsigned profile;                    /* WB_PROF_* groups make profile
					      * shows (0: WB_PROF_DEFAULT) */
	unsigned sanitize;                   /* WB_SAN_* tools run on every
					      * grade, not only SANITIZE=1 */
	double timeout_s;                    /* the whole exercise process */
	size_t work_bytes;                   /* scratch given to the entry */
	int min_cc;                          /* the compute capability x 10
					      * it needs (80: sm_80's bf16
					      * mma, cp.async); 0: any. On
					      * an older GPU the driver
					      * builds and inspects it only
					      * (BUILT or SKELETON, no
					      * points) and says why */
	int tensor_flops;                    /* its FLOPs (traffic()) run on
					      * tensor cores: the FLOP/s
					      * ceiling (SUSPICIOUS) is their
					      * peak, not the CUDA cores' */

	int (*setup)(struct wb_ctx *c);
	int (*run)(struct wb_ctx *c, enum wb_impl impl);
	void (*check)(struct wb_ctx *c);
	void (*traffic)(const struct wb_size *s, struct wb_traffic *t);
	struct wb_rule rules[WB_MAX_RULES];  /* technique checks; end at
					      * kind WB_RULE_END */
};

struct wb_lab {
	const char *name;
	const struct wb_exercise *exercises;
	int count;
};

/* Each lab defines exactly one of these (in its lab.c). */
extern const struct wb_lab wb_lab;

/* For setup(): declare a buffer; returns the host side to fill or read. */
void *wb_input(struct wb_ctx *c, const char *name, size_t bytes);
void *wb_output(struct wb_ctx *c, const char *name, size_t bytes);
/* In-out: fill the returned host side with the initial contents; after the
 * call, host holds the result and init the initial contents. */
void *wb_inout(struct wb_ctx *c, const char *name, size_t bytes);
/*
 * The same, saying how each timed call may perturb the contents, so that
 * no timed call sees inputs an earlier one saw (fresh_hash.h): about half
 * the floats get their sign flipped, buffers where any value is valid get
 * any bits. Inputs declared with wb_input() or wb_inout() stay as they
 * are: only an exercise that is not timed may have them.
 */
void *wb_input_as(struct wb_ctx *c, const char *name, size_t bytes,
		  enum wb_fresh fresh);
void *wb_inout_as(struct wb_ctx *c, const char *name, size_t bytes,
		  enum wb_fresh fresh);
/*
 * An input whose values cannot change (counts whose distribution is the
 * lesson, indices) but whose elements may move: any rotation of it by
 * whole elements of elem bytes (bytes a multiple of elem) is as valid
 * as the original, as for elements drawn independently of one another.
 * Each timed round rotates it by a new amount (shuffle.h), so a result or
 * a plan kept from an earlier call (a sort of the work by count), keyed
 * by pointer or by content, is wrong. A timed exercise must declare
 * every input with wb_input_as() or this: an input the rounds cannot
 * change is a grader error (fresh.c).
 */
void *wb_input_rotated(struct wb_ctx *c, const char *name, size_t bytes,
		       size_t elem);

/*
 * For setup(): device memory the lab's own code (its naive, its peer, a
 * device reference) writes at this size outside the declared buffers,
 * bytes of it from dev: the scores a naive keeps between its kernels.
 * The student's code is not given it, but could find it; so the harness
 * overwrites it (WB_POISON_BYTE) before every call of the student's
 * code, checked or timed, untimed (docs/grading.md, "What your code can
 * reach"). The memory stays the lab's, and must stay allocated until
 * the next size is set up.
 */
static inline void wb_lab_scratch(struct wb_ctx *c, void *dev, size_t bytes)
{
	if (c->n_lab_scratch < WB_MAX_LAB_SCRATCH) {
		c->lab_scratch[c->n_lab_scratch].dev = dev;
		c->lab_scratch[c->n_lab_scratch].bytes = bytes;
	}
	c->n_lab_scratch++;
}

/* For run(): the device pointer of the i-th declared buffer. */
static inline void *wb_dev(const struct wb_ctx *c, int i)
{
	return c->buf[i].dev;
}

/* For check(): report a failure at the current size (printf format). */
void wb_fail(struct wb_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* For check(): compare and report mismatches with the reference. */
void wb_check_f32(struct wb_ctx *c, const char *what, const float *got,
		  const double *want, size_t n, double atol, double rtol);
void wb_check_i64(struct wb_ctx *c, const char *what, const int64_t *got,
		  const int64_t *want, size_t n);
/* For check(): scratch for the reference, n doubles (free() it); NULL, with
 * the size failed, when the host has no memory for it. */
double *wb_ref_scratch(struct wb_ctx *c, size_t n);
/* For check(): n zeroed slots of `size` bytes, a partial result for each
 * stretch of a wb_parallel_for() (free() it); NULL, with the size failed,
 * when the host has no memory for them. */
void *wb_ref_parts(struct wb_ctx *c, size_t n, size_t size);

/*
 * For check(): the same comparisons, chunk by chunk on several threads
 * (a row, or a stretch of elements, a chunk). chunk(c, p, k, scratch,
 * arg) makes chunk k's reference in scratch (`scratch` doubles) and
 * compares each output of the chunk with wb_chunk_f32(p, ...); it must
 * only read the inputs and write its scratch. When every chunk passes,
 * the result is the same as wb_check_f32() on every chunk in order; when
 * one does not, the chunks are checked again in order on one thread, up to
 * the first that fails, with wb_check_f32(), and note(c, k) is called
 * after it (the report is then exactly the one-thread one). Threads: up
 * to WB_CHECK_THREADS, one when only one CPU is there or one cannot start.
 */
struct wb_chunks;
typedef void wb_chunk_fn(struct wb_ctx *c, struct wb_chunks *p, size_t k,
			 double *scratch, const void *arg);
typedef void wb_chunk_note_fn(struct wb_ctx *c, size_t k, size_t nchunks);
void wb_check_chunks(struct wb_ctx *c, size_t nchunks, size_t scratch,
		     wb_chunk_fn *chunk, const void *arg,
		     wb_chunk_note_fn *note);
void wb_chunk_f32(struct wb_chunks *p, const char *what, const float *got,
		  const double *want, size_t n, double atol, double rtol);

/*
 * For setup() and check() work that is not a float comparison (an exact
 * compare, a sum, a sort, inputs made stretch by stretch): fn(k, arg) for
 * every k in [0, n), on up to WB_CHECK_THREADS threads and in no set
 * order. Each fn(k) must write only what belongs to k (its slot of an
 * array of partial results, its stretch of a buffer), so that the result
 * does not depend on the threads: combine the slots in order afterwards.
 */
typedef void wb_task_fn(size_t k, void *arg);
void wb_parallel_for(size_t n, wb_task_fn *fn, void *arg);

/* Items in stretch k when n items are cut into stretches of `stretch`
 * (the last one may be short): for a wb_parallel_for() over stretches. */
static inline size_t wb_stretch_len(size_t n, size_t k, size_t stretch)
{
	size_t at = k * stretch;

	return n - at < stretch ? n - at : stretch;
}

/*
 * For setup(): large inputs made on several threads. Up to
 * WB_FILL_STRETCH floats (bytes) come from c->rng in order, as
 * wb_rng_fill_uniform() gives them; beyond, one draw from c->rng seeds a
 * generator per stretch of WB_FILL_STRETCH, so the contents depend on the
 * seed alone, never on the threads. wb_fill_bits(): uniform random bytes,
 * eight from each draw.
 */
void wb_fill_uniform(struct wb_ctx *c, float *x, size_t n, double lo,
		     double hi);
void wb_fill_bits(struct wb_ctx *c, void *x, size_t bytes);

#endif /* WB_HARNESS_H */
