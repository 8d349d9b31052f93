/* SPDX-License-Identifier: MIT */
/*
 * runner.c - the exercise runner: one process grades one exercise.
 *
 * Linked with one lab's table (lab.c), its naive references and peers and
 * one submission's file for one exercise. The grader's driver starts it in
 * a process of its own with a timeout, so a crash, a sticky CUDA error or a
 * hang here costs this exercise only. It reports on the result channel
 * (result.h); what it prints is for people and is never parsed.
 *
 *   runner --list
 *   runner --rules          (the lab's technique rules: rules.c)
 *   runner --exercise NAME [--seed N] [--result FILE] [--mode MODE]
 *          [--size LABEL]   (that size alone, untimed: make grade SIZE=)
 *
 * Modes: grade (every size, then time student against naive at the
 * benchmark size), quick (the small sizes only, no timing: for sanitizers),
 * bench (the benchmark size only: naive, submission and peer timed). An
 * exercise with peer_in_grade times its peer when grading too. profile
 * (one call of --impl at benchmark shape --shape, for Nsight Compute:
 * profile_mode.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "integrity.h"
#include "knobs.h"
#include "profile_mode.h"
#include "result.h"
#include "runner.h"
#include "stats.h"
#include "verdict.h"
#include "workbook.h"

enum mode { MODE_GRADE, MODE_QUICK, MODE_BENCH, MODE_PROFILE };

static const char *const impl_names[WB_IMPL_COUNT] = {
	[WB_STUDENT] = "student", [WB_NAIVE] = "naive", [WB_PEER] = "peer",
};

int wb_todo_hit;
char wb_todo_what[256];
static char where_now[256] = "starting";
static enum wb_impl impl_now = WB_STUDENT;
static int student_started; /* a CUDA error from now on is the student's */
static int fails_reported;

/* The most detail lines one exercise writes: enough to see a pattern. */
#define MAX_FAIL_LINES 40

void wb_where(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(where_now, sizeof(where_now), fmt, ap);
	va_end(ap);
}

static void __attribute__((noreturn)) finish(enum wb_verdict v, int code)
{
	wb_result("verdict", "%s", wb_verdict_key(v));
	wb_result_end();
	fflush(stdout);
	exit(code);
}

void wb_cuda_fatal(cudaError_t err, const char *call, const char *file,
		   int line)
{
	const char *name = cudaGetErrorName(err);

	fprintf(stderr, "CUDA error %s (%s)\n  in %s at %s:%d\n  while %s\n",
		name, cudaGetErrorString(err), call, file, line, where_now);
	wb_result("detail", "%s: %s", name, cudaGetErrorString(err));
	wb_result("detail", "in %s at %s:%d, while %s", call, file, line,
		  where_now);
	finish(student_started ? WB_V_CRASH : WB_V_ERROR, 3);
}

void wb_todo(const char *what, const char *file, int line)
{
	wb_todo_hit = 1;
	snprintf(wb_todo_what, sizeof(wb_todo_what), "%s (%s:%d)", what, file,
		 line);
}

void wb_die(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "grader error: %s\n", msg);
	wb_result("detail", "grader error: %s", msg);
	finish(WB_V_ERROR, 4);
}

void wb_fail(struct wb_ctx *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	c->failed = 1;
	if (wb_diag.rerun)
		return; /* a failing size run again, quietly (diag.h) */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (impl_now == WB_STUDENT && strstr(msg, "modified its input"))
		wb_diag.input_modified = 1;
	printf("  %s, %s: %s\n", impl_names[impl_now], c->size->label, msg);
	if (fails_reported++ < MAX_FAIL_LINES)
		wb_result("detail", "%s%s%s: %s",
			  impl_now == WB_STUDENT ? "" : impl_names[impl_now],
			  impl_now == WB_STUDENT ? "" : " ", c->size->label,
			  msg);
}

static void report_cmp(struct wb_ctx *c, const char *what,
		       const struct wb_cmp *r, const char *tol)
{
	wb_fail(c, "%zu of %zu values of %s wrong (%s)%s%s", r->bad, r->n,
		what, tol,
		r->poisoned == r->n ? ": none was written" :
		r->poisoned ? ": some never written (still poison)" : "",
		r->nonfinite && r->poisoned != r->n ? ", NaN or inf among them" :
						      "");
	for (size_t i = 0; i < r->nshown; i++)
		wb_fail(c, "  %s[%zu] = %.9g, expected %.9g", what,
			r->shown[i].index, r->shown[i].got, r->shown[i].want);
}

void wb_check_f32(struct wb_ctx *c, const char *what, const float *got,
		  const double *want, size_t n, double atol, double rtol)
{
	struct wb_cmp r;
	char tol[96];

	wb_cmp_f32(got, want, n, atol, rtol, &r);
	if (r.bad || wb_diag.rerun)
		wb_diag_cmp_f32(&wb_diag, got, want, n, atol, rtol);
	else
		wb_diag_cmp_ok(&wb_diag, n);
	if (!r.bad)
		return;
	snprintf(tol, sizeof(tol), "tolerance %.3g + %.3g x |expected|", atol,
		 rtol);
	report_cmp(c, what, &r, tol);
}

void wb_check_i64(struct wb_ctx *c, const char *what, const int64_t *got,
		  const int64_t *want, size_t n)
{
	struct wb_cmp r;

	wb_cmp_i64(got, want, n, &r);
	if (r.bad || wb_diag.rerun)
		wb_diag_cmp_i64(&wb_diag, got, want, n);
	else
		wb_diag_cmp_ok(&wb_diag, n);
	if (r.bad)
		report_cmp(c, what, &r, "must match exactly");
}

void wb_ctx_init(struct wb_ctx *c, const struct wb_exercise *ex,
		 const struct wb_size *s, uint64_t seed)
{
	memset(c, 0, sizeof(*c));
	c->ex = ex;
	c->size = s;
	wb_rng_seed(&c->rng, wb_seed_mix(wb_seed_mix(seed, ex->name), s->label));
	wb_where("setting up size %s", s->label);
	if (ex->setup(c))
		wb_die("setup of %s at %s failed", ex->name, s->label);
	wb_bufs_upload(c);
}

/* Outcome of one checked call. */
enum call_status { CALL_OK, CALL_WRONG, CALL_OOB, CALL_TODO, CALL_MISSING };

/* Call impl once on fresh poison and check everything it wrote. */
static enum call_status checked_call(struct wb_ctx *c, enum wb_impl impl)
{
	impl_now = impl;
	c->failed = 0;
	wb_bufs_poison(c);
	WB_CUDA(cudaDeviceSynchronize());
	wb_todo_hit = 0;
	if (impl == WB_STUDENT)
		student_started = 1;
	wb_where("running the %s code at size %s", impl_names[impl],
		 c->size->label);
	if (c->ex->run(c, impl) == WB_MISSING) {
		if (impl == WB_PEER)
			return CALL_MISSING;
		if (impl != WB_STUDENT)
			wb_die("no %s implementation of %s is linked in",
			       impl_names[impl], c->ex->name);
		wb_result("detail", "the file does not define this exercise's "
				    "entry point: keep the function's name and "
				    "signature from the skeleton (see the lab's "
				    "header)");
		finish(WB_V_COMPILE_ERROR, 0);
	}
	if (wb_todo_hit)
		return CALL_TODO;
	wb_where("waiting for the %s code at size %s", impl_names[impl],
		 c->size->label);
	WB_CUDA(cudaGetLastError());
	WB_CUDA(cudaDeviceSynchronize());
	if (wb_bufs_readback(c, 1) == WB_GUARDS_HIT)
		return CALL_OOB;
	c->ex->check(c);
	return c->failed ? CALL_WRONG : CALL_OK;
}

/* One round: every impl once, forward on even rounds, backward on odd. */
static void time_round(struct wb_timer *t, struct wb_ctx *c,
		       const enum wb_impl *impls, int k, size_t round,
		       double **ms, double **host)
{
	for (int j = 0; j < k; j++) {
		int i = round % 2 ? k - 1 - j : j;

		impl_now = impls[i];
		wb_where("timing the %s code", impl_names[impls[i]]);
		wb_fresh_next(c, impls[i]); /* before the flush: untimed */
		ms[i][round] = wb_time_sample(t, c, impls[i], &host[i][round]);
	}
}

/*
 * Time the impls interleaved at the benchmark size until the stopping rule
 * says the medians are known. The student comes last in impls and rounds
 * are stopped after a forward one, so the buffers end up holding a timed
 * student output, which the caller checks again.
 */
static void time_impls(struct wb_ctx *c, const enum wb_impl *impls, int k,
		       struct wb_summary *ev, struct wb_summary *hc)
{
	const struct wb_stop_rule rule = {
		.min_samples = WB_MIN_SAMPLES, .max_samples = WB_MAX_SAMPLES,
		.target_rel_err = WB_TARGET_REL_ERR,
		.max_seconds = WB_MAX_TIMING_S,
	};
	double *ms[WB_IMPL_COUNT], *host[WB_IMPL_COUNT], t0;
	double err[WB_IMPL_COUNT];
	struct wb_timer t;
	struct timespec ts;
	size_t round;

	wb_timer_init(&t);
	for (int i = 0; i < k; i++) {
		ms[i] = calloc(WB_MAX_SAMPLES, sizeof(double));
		host[i] = calloc(WB_MAX_SAMPLES, sizeof(double));
		if (!ms[i] || !host[i])
			wb_die("out of host memory for samples");
	}
	for (int w = 0; w < WB_WARMUP_RUNS; w++)
		time_round(&t, c, impls, k, 0, ms, host); /* overwritten below */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t0 = ts.tv_sec + ts.tv_nsec * 1e-9;
	for (round = 0;; round++) {
		time_round(&t, c, impls, k, round, ms, host);
		if (round % 2)
			continue;
		for (int i = 0; i < k; i++) {
			struct wb_summary s;

			wb_summarize(ms[i], round + 1, &s);
			err[i] = wb_median_rel_err(&s);
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		if (wb_should_stop(&rule, round + 1,
				   ts.tv_sec + ts.tv_nsec * 1e-9 - t0, err, k))
			break;
	}
	for (int i = 0; i < k; i++) {
		wb_summarize(ms[i], round + 1, &ev[impls[i]]);
		wb_summarize(host[i], round + 1, &hc[impls[i]]);
		printf("  %-8s median %10.2f us  (IQR %.1f%%, %zu samples)\n",
		       impl_names[impls[i]], ev[impls[i]].median * 1e3,
		       100 * wb_rel_iqr(&ev[impls[i]]), round + 1);
		free(ms[i]);
		free(host[i]);
	}
	wb_timer_free(&t);
}

static void init_device(void)
{
	struct cudaDeviceProp p;

	wb_where("initialising the GPU");
	WB_CUDA(cudaSetDevice(0));
	WB_CUDA(cudaGetDeviceProperties(&p, 0));
	printf("device: %s (sm_%d%d, %d SMs)\n", p.name, p.major, p.minor,
	       p.multiProcessorCount);
}

/* Check one size; returns its status and writes its "size" line. */
static enum call_status check_size(const struct wb_exercise *ex,
				   const struct wb_size *s, uint64_t seed)
{
	struct wb_ctx c;
	enum call_status st;

	wb_ctx_init(&c, ex, s, seed);
	wb_diag_call_begin(&wb_diag, 0);
	st = checked_call(&c, WB_STUDENT);
	wb_diag_call_end(&wb_diag, st == CALL_OK);
	if (st == CALL_WRONG && !wb_diag.reran) {
		/* The same input once more: a race shows as a difference. */
		wb_inputs_reload(&c);
		wb_diag_call_begin(&wb_diag, 1);
		wb_diag_call_end(&wb_diag,
				 checked_call(&c, WB_STUDENT) == CALL_OK);
	}
	if (st != CALL_TODO) {
		wb_diag_add_size(&wb_diag, s->label, s->n, st == CALL_OK, 0);
		wb_result("size", "%s %s", s->label, st == CALL_OK ? "ok" : "fail");
		printf("  %-14s %s\n", s->label, st == CALL_OK ? "ok" : "FAIL");
	}
	wb_bufs_free(&c);
	return st;
}

static enum wb_verdict verdict_of(int wrong, int oob)
{
	return oob ? WB_V_OUT_OF_BOUNDS : wrong ? WB_V_WRONG : WB_V_PASS;
}

static void not_implemented(void)
{
	wb_result("detail", "not implemented: %s", wb_todo_what);
	printf("  not implemented: %s\n", wb_todo_what);
	finish(WB_V_NOT_IMPLEMENTED, 0);
}

/*
 * The lab's own references must be right, or no speedup means anything.
 * Returns 0, or -1 when impl (a peer) is not linked in.
 */
static int require_ok(struct wb_ctx *c, enum wb_impl impl)
{
	enum call_status st = checked_call(c, impl);

	if (st == CALL_MISSING)
		return -1;
	if (st != CALL_OK)
		wb_die("the %s implementation of %s is wrong at %s",
		       impl_names[impl], c->ex->name, c->size->label);
	return 0;
}

/* What timing one benchmark shape measured, per implementation. */
struct shape_time {
	struct wb_summary ev[WB_IMPL_COUNT]; /* the samples (ms) */
	struct wb_summary hc[WB_IMPL_COUNT]; /* host clock cross-check (ms) */
	int timed[WB_IMPL_COUNT];
	double bytes;
	double flops;
};

/*
 * After timing: one more call, on the input set the student's last timed
 * call did not see (fresh.c). A result kept from an earlier call is wrong.
 */
static void fresh_call(struct wb_ctx *c)
{
	if (wb_fresh_flip(c) || checked_call(c, WB_STUDENT) == CALL_OK)
		return;
	wb_result("detail", "a call on new inputs in the same buffers, right "
			    "after the timed calls, was wrong");
	wb_diag.fresh_wrong = 1;
	c->failed = 1;
}

/* Check one benchmark shape, time it, and check a timed output again. */
static enum wb_verdict bench_shape(const struct wb_exercise *ex,
				   const struct wb_size *s, uint64_t seed,
				   int with_peer, struct shape_time *st)
{
	enum wb_impl impls[WB_IMPL_COUNT];
	enum call_status cs;
	struct wb_ctx c;
	int k = 0;

	memset(st, 0, sizeof(*st));
	wb_ctx_init(&c, ex, s, seed);
	wb_diag_call_begin(&wb_diag, 0);
	cs = checked_call(&c, WB_STUDENT);
	wb_diag_call_end(&wb_diag, cs == CALL_OK);
	if (cs == CALL_TODO)
		not_implemented();
	wb_diag_add_size(&wb_diag, s->label, s->n, cs == CALL_OK, 1);
	wb_diag.bench_wrong |= cs != CALL_OK;
	wb_result("size", "%s %s", s->label, cs == CALL_OK ? "ok" : "fail");
	printf("  %-14s %s\n", s->label, cs == CALL_OK ? "ok" : "FAIL");
	if (cs != CALL_OK) {
		wb_bufs_free(&c);
		return verdict_of(cs == CALL_WRONG, cs == CALL_OOB);
	}
	require_ok(&c, WB_NAIVE);
	impls[k++] = WB_NAIVE;
	if (with_peer && require_ok(&c, WB_PEER) == 0)
		impls[k++] = WB_PEER;
	impls[k++] = WB_STUDENT;
	wb_fresh_start(&c, seed);
	printf("timing at %s (L2 flushed before every sample)\n", s->label);
	time_impls(&c, impls, k, st->ev, st->hc);
	for (int i = 0; i < k; i++)
		st->timed[impls[i]] = 1;
	st->bytes = ex->bytes ? ex->bytes(s) : 0;
	st->flops = ex->flops ? ex->flops(s) : 0;

	impl_now = WB_STUDENT;
	c.failed = 0;
	if (wb_bufs_readback(&c, 1) == WB_GUARDS_HIT) {
		wb_fresh_end(&c);
		wb_bufs_free(&c);
		return WB_V_OUT_OF_BOUNDS;
	}
	ex->check(&c);
	if (c.failed) {
		wb_result("detail", "the output of a timed run was wrong");
		wb_diag.timed_wrong = 1;
	} else {
		fresh_call(&c);
	}
	wb_fresh_end(&c);
	wb_bufs_free(&c);
	return c.failed ? WB_V_WRONG : WB_V_PASS;
}

/* Geometric mean of x[0..n-1]. */
static double geomean(const double *x, int n)
{
	double log_sum = 0;

	for (int i = 0; i < n; i++)
		log_sum += log(x[i]);
	return exp(log_sum / n);
}

/* Report impl's times over n shapes: geometric means of each statistic. */
static void time_record(const struct shape_time *st, int n, enum wb_impl impl)
{
	double med[WB_MAX_BENCH], q1[WB_MAX_BENCH], q3[WB_MAX_BENCH];
	double host[WB_MAX_BENCH];

	for (int i = 0; i < n; i++) {
		med[i] = st[i].ev[impl].median * 1e3;
		q1[i] = st[i].ev[impl].q1 * 1e3;
		q3[i] = st[i].ev[impl].q3 * 1e3;
		host[i] = st[i].hc[impl].median * 1e3;
	}
	wb_result("time", "%s %.3f %.3f %.3f %zu", impl_names[impl],
		  geomean(med, n), geomean(q1, n), geomean(q3, n),
		  st[0].ev[impl].n);
	wb_result("host", "%s %.3f", impl_names[impl], geomean(host, n));
}

/*
 * Time every benchmark shape. With several, the figures reported are
 * geometric means over the shapes, so the speedup is the geometric mean of
 * the per-shape speedups and every shape weighs the same; each shape's own
 * figures go in a detail line.
 */
static enum wb_verdict bench_all(const struct wb_exercise *ex, uint64_t seed,
				 int with_peer)
{
	struct shape_time st[WB_MAX_BENCH];
	double bytes[WB_MAX_BENCH], flops[WB_MAX_BENCH];
	int n = 0;

	for (; n < WB_MAX_BENCH && ex->bench[n].label; n++) {
		enum wb_verdict v = bench_shape(ex, &ex->bench[n], seed,
						with_peer, &st[n]);

		if (v != WB_V_PASS)
			return v;
		bytes[n] = st[n].bytes > 0 ? st[n].bytes : 1;
		flops[n] = st[n].flops > 0 ? st[n].flops : 1;
	}
	for (int i = 0; n > 1 && i < n; i++) {
		double sv = st[i].ev[WB_STUDENT].median, nv = st[i].ev[WB_NAIVE].median;

		wb_result("detail", "%s: %.1f us vs naive %.1f us (%.2fx), %.0f GB/s",
			  ex->bench[i].label, sv * 1e3, nv * 1e3, nv / sv,
			  st[i].bytes / (sv * 1e-3) / 1e9);
	}
	for (int impl = 0; impl < WB_IMPL_COUNT; impl++)
		if (st[0].timed[impl])
			time_record(st, n, impl);
	if (st[0].bytes > 0)
		wb_result("bytes", "%.0f", geomean(bytes, n));
	if (st[0].flops > 0)
		wb_result("flops", "%.0f", geomean(flops, n));
	return WB_V_PASS;
}

/* A WRONG verdict: the likely cause, when clear, and how to reproduce. */
static void diagnose(const struct wb_exercise *ex, uint64_t seed)
{
	char line[768];

	if (wb_diag_cause(&wb_diag, line, sizeof(line))) {
		wb_result("detail", "likely cause: %s", line);
		printf("likely cause: %s\n", line);
	}
	wb_diag_reproduce(&wb_diag, wb_lab.name, ex->name, seed, line,
			  sizeof(line));
	wb_result("detail", "%s", line);
	printf("%s\n", line);
}

/* --size LABEL (make grade SIZE=...): that one size alone, untimed. */
static const char *only_size;

static void check_only(const struct wb_exercise *ex, uint64_t seed)
{
	const struct wb_size *s = NULL;
	enum call_status st;
	enum wb_verdict v;

	for (int i = 0; !s && i < WB_MAX_SIZES && ex->sizes[i].label; i++)
		if (!strcmp(ex->sizes[i].label, only_size))
			s = &ex->sizes[i];
	for (int i = 0; !s && i < WB_MAX_BENCH && ex->bench[i].label; i++)
		if (!strcmp(ex->bench[i].label, only_size))
			s = &ex->bench[i];
	if (!s)
		wb_die("%s has no size '%s' (its sizes are listed in the lab's "
		       "lab.c)", ex->name, only_size);
	st = check_size(ex, s, seed);
	if (st == CALL_TODO)
		not_implemented();
	v = verdict_of(st == CALL_WRONG, st == CALL_OOB);
	wb_result("detail", "only size %s was checked (SIZE=), untimed: a "
			    "debugging run, not a grade", s->label);
	if (v != WB_V_PASS)
		diagnose(ex, seed);
	finish(v, 0);
}

static void grade(const struct wb_exercise *ex, uint64_t seed, enum mode m)
{
	int wrong = 0, oob = 0;
	enum wb_verdict v;

	init_device();
	printf("%s/%s: %s (seed %" PRIu64 ")\n", wb_lab.name, ex->name,
	       ex->title, seed);
	if (only_size)
		check_only(ex, seed);
	if (m != MODE_BENCH || ex->kind != WB_SPEED) {
		for (int i = 0; i < WB_MAX_SIZES && ex->sizes[i].label; i++) {
			enum call_status st = check_size(ex, &ex->sizes[i], seed);

			if (st == CALL_TODO)
				not_implemented();
			wrong |= st == CALL_WRONG;
			oob |= st == CALL_OOB;
		}
	}
	v = verdict_of(wrong, oob);
	if (v == WB_V_PASS && ex->kind == WB_SPEED && m != MODE_QUICK)
		v = bench_all(ex, seed, m == MODE_BENCH || ex->peer_in_grade);
	if (v == WB_V_WRONG || v == WB_V_OUT_OF_BOUNDS)
		diagnose(ex, seed);
	finish(v, 0);
}

static void list(void)
{
	printf("lab %s\n", wb_lab.name);
	for (int i = 0; i < wb_lab.count; i++) {
		const struct wb_exercise *ex = &wb_lab.exercises[i];

		printf("exercise %s %s %g %g %g %s\n", ex->name,
		       ex->kind == WB_SPEED ? "speed" : "correctness",
		       ex->points_correct, ex->points_speed, ex->timeout_s,
		       ex->title);
		for (int t = 0; t < WB_MAX_TIERS && ex->tiers[t].speedup > 0; t++)
			printf("tier %s %g %g\n", ex->name, ex->tiers[t].speedup,
			       ex->tiers[t].points);
		printf("bench %s ", ex->name);
		for (int b = 0; b < WB_MAX_BENCH && ex->bench[b].label; b++)
			printf("%s%s", b ? "+" : "", ex->bench[b].label);
		printf("%s\n", ex->bench[0].label ? "" : "-");
	}
}

static const struct wb_exercise *find(const char *name)
{
	for (int i = 0; i < wb_lab.count; i++)
		if (strcmp(wb_lab.exercises[i].name, name) == 0)
			return &wb_lab.exercises[i];
	return NULL;
}

static int usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s --list | --rules\n"
		"       %s --exercise NAME [--seed N] [--result FILE] "
		"[--mode grade|quick|bench] [--size LABEL]\n"
		"       %s --exercise NAME [--seed N] [--result FILE] --mode profile "
		"[--impl student|naive|peer] [--shape K]\n",
		argv0, argv0, argv0);
	return 2;
}

int main(int argc, char **argv)
{
	const char *name = NULL, *result = NULL;
	const struct wb_exercise *ex;
	uint64_t seed = 1;
	enum mode m = MODE_GRADE;
	enum wb_impl impl = WB_STUDENT;
	int shape = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--list") == 0) {
			list();
			return 0;
		} else if (strcmp(a, "--rules") == 0) {
			wb_rules_list(stdout);
			return 0;
		} else if (strcmp(a, "--size") == 0 && v) {
			only_size = v;
		} else if (strcmp(a, "--exercise") == 0 && v) {
			name = v;
		} else if (strcmp(a, "--seed") == 0 && v) {
			seed = strtoull(v, NULL, 0);
		} else if (strcmp(a, "--result") == 0 && v) {
			result = v;
		} else if (strcmp(a, "--mode") == 0 && v) {
			if (strcmp(v, "grade") == 0)
				m = MODE_GRADE;
			else if (strcmp(v, "quick") == 0)
				m = MODE_QUICK;
			else if (strcmp(v, "bench") == 0)
				m = MODE_BENCH;
			else if (strcmp(v, "profile") == 0)
				m = MODE_PROFILE;
			else
				return usage(argv[0]);
		} else if (strcmp(a, "--impl") == 0 && v) {
			impl = strcmp(v, "naive") == 0 ? WB_NAIVE :
			       strcmp(v, "peer") == 0  ? WB_PEER : WB_STUDENT;
			if (impl == WB_STUDENT && strcmp(v, "student"))
				return usage(argv[0]);
		} else if (strcmp(a, "--shape") == 0 && v) {
			shape = atoi(v);
		} else {
			return usage(argv[0]);
		}
		i++;
	}
	if (!name)
		return usage(argv[0]);
	if (wb_result_open(result)) {
		perror(result);
		return 2;
	}
	ex = find(name);
	if (!ex)
		wb_die("no exercise %s in lab %s", name, wb_lab.name);
	setvbuf(stdout, NULL, _IOLBF, 0);
	wb_result("seed", "%" PRIu64, seed);
	if (m == MODE_PROFILE)
		wb_profile_mode(ex, seed, impl, shape);
	grade(ex, seed, m);
	return 0;
}
