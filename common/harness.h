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
 *   bytes(s)      the fewest bytes a kernel must move for size s (each input
 *                 read once, each output written once): the speed of light.
 *   flops(s)      optional, for compute-bound exercises (matmul): the
 *                 floating-point operations of size s, so the report shows
 *                 FLOP/s beside GB/s.
 *
 * The harness (runner.c) does the rest: it uploads inputs, poisons outputs,
 * guards them with canaries, checks inputs are unchanged, times the student
 * against the naive code, and reports to the grader. No lab code reaches
 * the grader's driver: adding a lab is adding a folder.
 */
#ifndef WB_HARNESS_H
#define WB_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "rng.h"

#define WB_MAX_BUFS 8
#define WB_MAX_SIZES 24
#define WB_MAX_TIERS 6
#define WB_MAX_DIMS 3
#define WB_MAX_BENCH 3

/* run() returns this when the implementation asked for is not linked in. */
#define WB_MISSING 1

enum wb_kind {
	WB_SPEED,       /* correctness gates, then speedup over naive scores */
	WB_CORRECTNESS, /* correctness only */
};

enum wb_impl {
	WB_STUDENT, /* the submission (a skeleton, a solution, a test case) */
	WB_NAIVE,   /* the lab's naive reference: the speedup's baseline */
	WB_PEER,    /* a library's best (CUB, cuBLAS), shown by make bench */
	WB_IMPL_COUNT
};

/* A problem size: up to three extents whose meaning the exercise defines. */
struct wb_size {
	const char *label; /* shown in reports: "n=33", "31x33" */
	size_t n[WB_MAX_DIMS];
};

/* Performance points earned once the speedup reaches `speedup`. */
struct wb_tier {
	double speedup;
	double points;
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
	void *host;     /* inputs: the contents uploaded; outputs: read back */
	void *init;     /* in-out: the initial contents, for the reference */
	void *dev;      /* the pointer handed to the code under test */
	size_t bytes;
	void *alloc;    /* device allocation including the guard regions */
	void *init_dev; /* in-out: a device copy of init, to restore from */
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
	struct wb_tier tiers[WB_MAX_TIERS];  /* rising; ends at speedup 0 */
	double timeout_s;                    /* the whole exercise process */
	size_t work_bytes;                   /* scratch given to the entry */
	int peer_in_grade;                   /* also time the library peer
					      * when grading, and report the
					      * student against it (matmul
					      * against cuBLAS); not scored */

	int (*setup)(struct wb_ctx *c);
	int (*run)(struct wb_ctx *c, enum wb_impl impl);
	void (*check)(struct wb_ctx *c);
	double (*bytes)(const struct wb_size *s);
	double (*flops)(const struct wb_size *s); /* NULL: memory-bound */
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

#endif /* WB_HARNESS_H */
