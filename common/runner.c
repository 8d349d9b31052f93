/* SPDX-License-Identifier: MIT */
/*
 * runner.c - the exercise runner: one process grades one exercise.
 *
 * Linked with one lab's table (lab.c), its naive references and peers and
 * one submission's file for one exercise. The grader's driver starts it in
 * a process of its own with a timeout, so a crash, a sticky CUDA error or a
 * hang here costs this exercise only. It reports on the result channel
 * (result.h); what it prints is for people and is never parsed. This file
 * is the grade loop; how the process ends, and what it says on the way,
 * is fate.c's.
 *
 *   runner --list
 *   runner --rules          (the lab's technique rules: rules.c)
 *   runner --exercise NAME [--seed N] [--result FILE] [--mode MODE]
 *          [--size LABEL]   (that size alone, untimed: make grade SIZE=)
 *          [--tiers "share|speedup X:P ..."] [--peer-us US] [--exact]
 *
 * Modes: grade (every size, then time student against naive at the
 * benchmark size, stopping once the grade under --tiers is known: bench.c),
 * quick (the small sizes only, no timing: for sanitizers; --exact allocates
 * every buffer to its exact size for them), bench (the benchmark size only:
 * naive and submission timed until their medians are known), reference
 * (no submission: the naive and the library peer, for the grader's
 * reference; the lab's `info` binary, which alone links the peers), profile
 * (one call of --impl at benchmark shape --shape, for Nsight Compute:
 * profile_mode.c). --peer-us gives the peer's time the reference measured,
 * for exercises whose ideal is the peer (matmul).
 */
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "buffers.h"
#include "fate.h"
#include "fresh.h"
#include "integrity.h"
#include "knobs.h"
#include "lockdown.h"
#include "probe.h"
#include "profile_mode.h"
#include "result.h"
#include "stats.h"
#include "verdict.h"
#include "workbook.h"

enum mode { MODE_GRADE, MODE_QUICK, MODE_BENCH, MODE_REFERENCE,
	    MODE_PROFILE };

/* Outcome of one checked call. */
enum call_status { CALL_OK, CALL_WRONG, CALL_OOB, CALL_TODO, CALL_MISSING };

/* Call impl once on fresh poison and check everything it wrote. */
static enum call_status checked_call(struct wb_ctx *c, enum wb_impl impl)
{
	wb_now(impl);
	c->failed = 0;
	wb_bufs_poison(c);
	WB_CUDA(cudaDeviceSynchronize());
	wb_todo_hit = 0;
	wb_where("running the %s code at size %s", wb_impl_name(impl),
		 c->size->label);
	if (c->ex->run(c, impl) == WB_MISSING) {
		if (impl == WB_PEER)
			return CALL_MISSING;
		if (impl != WB_STUDENT)
			wb_die("no %s implementation of %s is linked in",
			       wb_impl_name(impl), c->ex->name);
		wb_result("detail", "the file does not define this exercise's "
				    "entry point: keep the function's name and "
				    "signature from the skeleton (see the lab's "
				    "header)");
		wb_finish(WB_V_COMPILE_ERROR, 0);
	}
	if (wb_todo_hit)
		return CALL_TODO;
	wb_where("waiting for the %s code at size %s", wb_impl_name(impl),
		 c->size->label);
	WB_CUDA(cudaGetLastError());
	WB_CUDA(cudaDeviceSynchronize());
	if (wb_bufs_readback(c, 1) == WB_GUARDS_HIT)
		return CALL_OOB;
	c->ex->check(c);
	return c->failed ? CALL_WRONG : CALL_OK;
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
	wb_finish(WB_V_NOT_IMPLEMENTED, 0);
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
		       wb_impl_name(impl), c->ex->name, c->size->label);
	return 0;
}

/* How the driver scores this exercise (--tiers, --peer-us): bench.h. */
static struct wb_decision decision;

/* Check one benchmark shape, then time it (bench.c). */
static enum wb_verdict bench_shape(const struct wb_exercise *ex,
				   const struct wb_size *s, uint64_t seed,
				   enum wb_bench_kind kind,
				   struct wb_shape_time *st)
{
	struct wb_decision d = decision;
	enum call_status cs;
	enum wb_verdict v;
	struct wb_ctx c;

	wb_ctx_init(&c, ex, s, seed);
	wb_phase("prep", 0);
	if (kind != WB_BENCH_REFERENCE) {
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
		wb_phase("check", 0);
	}
	/*
	 * The naive is checked at this size where its time is a reference:
	 * the grader's reference run (the lab's info binary, the same code)
	 * and make bench. A grade scores shares of the speed of light, and
	 * a naive slowed beside the student's code is caught against that
	 * reference (SUSPICIOUS), so a grade skips its CPU check, which cost
	 * as long as the student's own (tests/gpu/phases.sh).
	 */
	if (kind != WB_BENCH_GRADE)
		require_ok(&c, WB_NAIVE);
	if (kind == WB_BENCH_REFERENCE)
		d.with_peer = require_ok(&c, WB_PEER) == 0;
	wb_phase("naive", 0);
	printf("timing at %s (L2 flushed before every sample)\n", s->label);
	v = wb_bench_shape(&c, seed, kind, &d, st);
	wb_bufs_free(&c);
	return v;
}

/* Geometric mean of n values at x, stepping by stride bytes. */
static double geomean(const void *x, size_t stride, int n)
{
	double log_sum = 0;

	for (int i = 0; i < n; i++)
		log_sum += log(*(const double *)((const char *)x + i * stride));
	return n ? exp(log_sum / n) : 0;
}

#define GEO(st, n, field) geomean(&(st)[0].field, sizeof((st)[0]), (n))

/* The largest of the shapes' own median shares. */
static double max_share(const struct wb_shape_time *st, int n)
{
	double m = 0;

	for (int i = 0; i < n; i++)
		if (st[i].share.med > m)
			m = st[i].share.med;
	return m;
}

/* The "time" line of the summary at offset off of each shape (in us). */
static void time_line(const struct wb_shape_time *st, int n, const char *who,
		      size_t off)
{
	const struct wb_summary *s = (const void *)((const char *)st + off);

	wb_result("time", "%s %.3f %.3f %.3f %zu", who,
		  1e3 * geomean(&s->median, sizeof(*st), n),
		  1e3 * geomean(&s->q1, sizeof(*st), n),
		  1e3 * geomean(&s->q3, sizeof(*st), n), s->n);
}

static const char *const ideal_names[] = {
	[WB_IDEAL_DRAM] = "dram", [WB_IDEAL_PEER] = "peer",
	[WB_IDEAL_INSTR] = "instr", [WB_IDEAL_ROOF] = "roof",
	[WB_IDEAL_LIMIT] = "limit",
};

/* What the people reading the .out and the report see of one shape. */
static void shape_notes(const struct wb_exercise *ex, const struct wb_size *s,
			const struct wb_shape_time *st, int many)
{
	if (st->have_ideal && ex->ideal != WB_IDEAL_PEER && st->mem_probe >= 0)
		wb_result("detail", "%s%sspeed of light %.1f us: %.0f MB read "
			  "and %.0f MB written at %.0f GB/s (%s, timed in the "
			  "same rounds)%s",
			  many ? s->label : "", many ? ": " : "",
			  st->ideal.median * 1e3, st->read_bytes / 1e6,
			  st->write_bytes / 1e6, st->mem_gbps,
			  wb_probe_name((enum wb_probe)st->mem_probe),
			  ex->ideal == WB_IDEAL_INSTR &&
			  st->ideal.median > 0 ? ", or the naive over the "
			  "instruction-bound ideal speedup if longer" :
			  ex->ideal == WB_IDEAL_ROOF ? ", or its FLOPs at the "
			  "compute peak if longer" :
			  ex->ideal == WB_IDEAL_LIMIT ? ", or the lab's limit "
			  "kernel's time if longer" : "");
	if (st->have_ideal && st->limit)
		wb_result("detail", "%s%sthe lab's limit kernel (the least "
			  "instruction work the task needs, without divergence, "
			  "timed in the same rounds): %.1f us",
			  many ? s->label : "", many ? ": " : "",
			  st->limit_ms.median * 1e3);
	if (st->have_ideal && st->peak_probe >= 0)
		wb_result("detail", "%s%s%.1f GFLOP at %.0f TFLOP/s, the peak "
			  "of %s measured in the same rounds: %.1f us",
			  many ? s->label : "", many ? ": " : "",
			  st->flops / 1e9, st->peak_tflops,
			  wb_probe_name((enum wb_probe)st->peak_probe),
			  st->flops / (st->peak_tflops * 1e6));
	if (st->capped)
		wb_result("detail", "%s%ssampling stopped at its cap (%d rounds "
			  "or %.0f s) before the grade was known to within %g "
			  "point: a rerun may differ by more",
			  many ? s->label : "", many ? ": " : "", st->rounds,
			  WB_MAX_TIMING_S, WB_POINTS_TOL);
	if (st->discarded)
		wb_result("detail", "%d rounds thrown away: the SM clock was "
			  "below %.0f%% of its median (%.0f MHz)%s",
			  st->discarded, 100 * WB_THROTTLE_FRAC, st->mhz_med,
			  st->throttled ? "; the GPU stayed throttled, so the "
			  "rest were kept" : "");
	if (st->extra)
		wb_result("detail", "in %d rounds device work outlived your "
			  "call (another stream): it was counted", st->extra);
	if (st->resets)
		wb_result("detail", "device-wide settings had changed before %d "
			  "samples and were put back", st->resets);
	printf("  %s: naive %.1f us, %s %.1f us, ideal %.1f us; %d rounds "
	       "(%d dropped), SM clock %.0f-%.0f MHz\n", s->label,
	       st->naive.median * 1e3, st->timed_peer ? "peer" : "code",
	       (st->timed_peer ? st->peer.median : st->student.median) * 1e3,
	       st->ideal.median * 1e3, st->rounds, st->discarded, st->mhz_min,
	       st->mhz_max);
}

/*
 * The series timed beside the naive in st's rounds: the student's, the
 * peer's (the grader's reference), or none (a reference without a peer).
 */
static const struct wb_summary *other_series(const struct wb_shape_time *st,
					     const char **who)
{
	*who = st->timed_student ? "student" : st->timed_peer ? "peer" : "-";
	return st->timed_student ? &st->student :
	       st->timed_peer ? &st->peer : NULL;
}

/* Does summary s keep all of the shape's rounds (stats.h)? */
static int keeps_rounds(const struct wb_summary *s, size_t rounds)
{
	return s->n == rounds && s->kept == rounds;
}

/*
 * Shape k's rounds, raw (result.h's "shape" and "sample" lines): the
 * driver scores from these, and checks the figures written after them
 * against them. bench.c summarises every series over the same kept
 * rounds in round order, so the i-th value of each summary is round i.
 * Where a summary did not keep them all, no line is written: the driver
 * then finds the samples missing (GRADER ERROR), never a partial record.
 */
static void shape_samples(int k, const struct wb_size *s,
			  const struct wb_shape_time *st)
{
	size_t rounds = (size_t)st->rounds;
	const char *who;
	const struct wb_summary *o = other_series(st, &who);

	if (!keeps_rounds(&st->naive, rounds) ||
	    (o && !keeps_rounds(o, rounds)) ||
	    (st->have_ideal && !keeps_rounds(&st->ideal, rounds))) {
		wb_result("detail", "%s: the rounds' samples were not kept: "
			  "the grader cannot score them", s->label);
		return;
	}
	wb_result("shape", "%d %s %zu %s %.9g %.0f %.0f %.0f", k, s->label,
		  rounds, who, (double)st->small, st->mhz_min, st->mhz_med,
		  st->mhz_max);
	for (size_t i = 0; i < rounds; i++)
		wb_result("sample", "%d %zu %.9g %.9g %.9g", k, i,
			  o ? 1e3 * o->x[i] : 0, 1e3 * st->naive.x[i],
			  st->have_ideal ? 1e3 * st->ideal.x[i] : 0);
}

/*
 * Time every benchmark shape. With several, the figures reported are
 * geometric means over the shapes, so every shape weighs the same; each
 * shape's own figures go in a detail line. Every round of every shape
 * goes in the record first (shape_samples()): the figures after them are
 * what the runner made of them, which the driver recomputes and checks.
 */
static enum wb_verdict bench_all(const struct wb_exercise *ex, uint64_t seed,
				 enum wb_bench_kind kind)
{
	static struct wb_shape_time st[WB_MAX_BENCH];
	int n = 0, rounds = 0, dropped = 0, extra = 0, resets = 0, checked = 0;

	for (; n < WB_MAX_BENCH && ex->bench[n].label; n++) {
		enum wb_verdict v = bench_shape(ex, &ex->bench[n], seed, kind,
						&st[n]);

		if (v != WB_V_PASS)
			return v;
	}
	for (int i = 0; i < n; i++) {
		shape_notes(ex, &ex->bench[i], &st[i], n > 1);
		rounds += st[i].rounds;
		dropped += st[i].discarded;
		extra += st[i].extra;
		resets += st[i].resets;
		checked += st[i].verified;
		if (n > 1 && st[i].timed_student)
			wb_result("detail", "%s: %.1f us vs naive %.1f us (%.2fx)",
				  ex->bench[i].label, st[i].student.median * 1e3,
				  st[i].naive.median * 1e3, st[i].speedup.med);
	}
	for (int i = 0; i < n; i++)
		shape_samples(i, &ex->bench[i], &st[i]);
	time_line(st, n, "naive", offsetof(struct wb_shape_time, naive));
	if (st[0].timed_student)
		time_line(st, n, "student", offsetof(struct wb_shape_time, student));
	if (st[0].timed_peer)
		time_line(st, n, "peer", offsetof(struct wb_shape_time, peer));
	if (st[0].have_ideal)
		time_line(st, n, "ideal", offsetof(struct wb_shape_time, ideal));
	if (st[0].timed_student)
		wb_result("ratio", "speedup %.5f %.5f %.5f", GEO(st, n, speedup.med),
			  GEO(st, n, speedup.lo), GEO(st, n, speedup.hi));
	if (st[0].timed_student && st[0].have_ideal)
		wb_result("ratio", "share %.5f %.5f %.5f", GEO(st, n, share.med),
			  GEO(st, n, share.lo), GEO(st, n, share.hi));
	/* With several shapes, the largest shape's own share too: each
	 * shape must be possible on its own (the grader's share ceiling),
	 * not only their mean. */
	if (n > 1 && st[0].timed_student && st[0].have_ideal)
		wb_result("ratio", "share_max %.5f 0 0", max_share(st, n));
	if (st[0].have_ideal)
		wb_result("ratio", "naive_ideal %.5f 0 0",
			  GEO(st, n, naive_over_ideal));
	wb_result("sol", "%s %.0f %.0f %.1f %.1f", ideal_names[ex->ideal],
		  GEO(st, n, read_bytes), GEO(st, n, write_bytes),
		  st[0].mem_probe >= 0 ? GEO(st, n, mem_gbps) : 0,
		  st[0].mem_probe >= 0 ? GEO(st, n, mem_gbps) : 0);
	if (st[0].peak_probe >= 0)
		wb_result("peak", "%s %.1f",
			  st[0].peak_probe == WB_PROBE_FMA ? "fma" :
			  st[0].peak_probe == WB_PROBE_MMA ? "mma" : "wgmma",
			  GEO(st, n, peak_tflops));
	wb_result("clock", "%.0f %.0f %.0f", st[0].mhz_min, st[0].mhz_med,
		  st[0].mhz_max);
	wb_result("rounds", "%d %d %d %d %d %d", rounds, dropped, extra, resets,
		  checked, st[0].throttled);
	wb_result("bytes", "%.0f", GEO(st, n, read_bytes) + GEO(st, n, write_bytes));
	if (st[0].flops > 0)
		wb_result("flops", "%.0f", GEO(st, n, flops));
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
	wb_finish(v, 0);
}

/* --mode reference: the naive and the peer, no submission (the lab's info
 * binary, which alone links the peers): the grader's reference. */
static void reference(const struct wb_exercise *ex, uint64_t seed)
{
	enum wb_verdict v;

	if (ex->kind != WB_SPEED)
		wb_die("%s is not timed: it has no reference", ex->name);
	wb_now(WB_NAIVE);
	v = bench_all(ex, seed, WB_BENCH_REFERENCE);
	wb_finish(v, 0);
}

/* --lockdown: the student's code runs under the seccomp filter of
 * lockdown.h, installed once the CUDA runtime is up (the driver asks for
 * it in grade and bench modes; not under the sanitizers or the profiler). */
static int lockdown;

static void lock_down(void)
{
	char why[256];

	wb_where("locking the runner down");
	WB_CUDA(cudaFree(0));
	WB_CUDA(wb_probe_init());
	if (wb_lockdown(wb_result_fd(), why, sizeof(why))) {
		printf("not locked down: %s\n", why);
		wb_result("detail", "the runner was not locked down: %s", why);
	}
}

static void grade(const struct wb_exercise *ex, uint64_t seed, enum mode m)
{
	int wrong = 0, oob = 0;
	enum wb_verdict v;

	init_device();
	printf("%s/%s: %s (seed %" PRIu64 ")\n", wb_lab.name, ex->name,
	       ex->title, seed);
	if (lockdown && (m == MODE_GRADE || m == MODE_BENCH))
		lock_down();
	wb_phase("init", 0);
	if (m == MODE_REFERENCE)
		reference(ex, seed);
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
	wb_phase("checks", 0);
	if (v == WB_V_PASS && ex->kind == WB_SPEED && m != MODE_QUICK) {
		v = bench_all(ex, seed, m == MODE_BENCH ? WB_BENCH_COMPARE :
					WB_BENCH_GRADE);
	}
	if (v == WB_V_WRONG || v == WB_V_OUT_OF_BOUNDS)
		diagnose(ex, seed);
	wb_finish(v, 0);
}

/* "sanitize NAME racecheck,synccheck": the tools every grade runs. */
static void list_sanitize(const struct wb_exercise *ex)
{
	static const char *const tool[] = { "memcheck", "racecheck",
					    "synccheck" };
	const char *sep = "";

	printf("sanitize %s ", ex->name);
	for (unsigned t = 0; t < 3; t++) {
		if (!(ex->sanitize & (1u << t)))
			continue;
		printf("%s%s", sep, tool[t]);
		sep = ",";
	}
	printf("\n");
}

/*
 * The lab's table, for the driver: "exercise NAME KIND POINTS_CORRECT
 * POINTS_SPEED TIMEOUT TITLE", then per speed exercise its tiers ("tier
 * NAME SHARE POINTS": shares of the ideal time), what the ideal is
 * ("ideal NAME dram|peer|instr|roof|limit SPEEDUP"), its benchmark shapes, for an
 * exercise that always runs compute-sanitizer tools which ones, and for
 * one that needs a newer GPU or runs on tensor cores, that ("arch NAME
 * MIN_CC cuda|tensor").
 */
static void list(void)
{
	printf("lab %s\n", wb_lab.name);
	for (int i = 0; i < wb_lab.count; i++) {
		const struct wb_exercise *ex = &wb_lab.exercises[i];

		printf("exercise %s %s %g %g %g %s\n", ex->name,
		       ex->kind == WB_SPEED ? "speed" : "correctness",
		       ex->points_correct, ex->points_speed, ex->timeout_s,
		       ex->title);
		for (int t = 0; t < WB_MAX_TIERS && ex->tiers[t].share > 0; t++)
			printf("tier %s %g %g\n", ex->name, ex->tiers[t].share,
			       ex->tiers[t].points);
		if (ex->kind == WB_SPEED)
			printf("ideal %s %s %g\n", ex->name,
			       ideal_names[ex->ideal], ex->instr_speedup);
		if (ex->min_cc || ex->tensor_flops)
			printf("arch %s %d %s\n", ex->name, ex->min_cc,
			       ex->tensor_flops ? "tensor" : "cuda");
		printf("bench %s ", ex->name);
		for (int b = 0; b < WB_MAX_BENCH && ex->bench[b].label; b++)
			printf("%s%s", b ? "+" : "", ex->bench[b].label);
		printf("%s\n", ex->bench[0].label ? "" : "-");
		if (ex->sanitize)
			list_sanitize(ex);
	}
}

/*
 * --tiers "share 0.4:20 0.6:40 0.8:60" (or "speedup 1.5:20 ..."): the
 * tiers the driver scores with, so the rounds stop when the grade is
 * known. -1 when it cannot be read.
 */
static int parse_tiers(const char *arg, struct wb_decision *d)
{
	char unit[16];
	int off = 0, k = 0;

	if (sscanf(arg, "%15s %n", unit, &off) != 1)
		return -1;
	if (!strcmp(unit, "share"))
		d->tiers.unit = WB_SCALE_SHARE;
	else if (!strcmp(unit, "speedup"))
		d->tiers.unit = WB_SCALE_SPEEDUP;
	else
		return -1;
	for (const char *p = arg + off; *p && k < WB_SCALE_MAX; k++) {
		int used = 0;

		if (sscanf(p, "%lf:%lf %n", &d->tiers.x[k], &d->tiers.pts[k],
			   &used) != 2 || !used)
			return -1;
		p += used;
	}
	d->tiers.n = k;
	return k ? 0 : -1;
}

/* Without --tiers: the lab's own shares. */
static void lab_tiers(const struct wb_exercise *ex, struct wb_decision *d)
{
	int k = 0;

	d->tiers.unit = WB_SCALE_SHARE;
	for (; k < WB_MAX_TIERS && k < WB_SCALE_MAX && ex->tiers[k].share > 0;
	     k++) {
		d->tiers.x[k] = ex->tiers[k].share;
		d->tiers.pts[k] = ex->tiers[k].points;
	}
	d->tiers.n = k;
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
		"[--mode grade|quick|bench|reference] [--size LABEL]\n"
		"          [--tiers \"share|speedup X:P ...\"] [--peer-us US] "
		"[--exact]\n"
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
	const char *tiers = NULL;
	int shape = 0;

	wb_phase_begin();

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
		} else if (strcmp(a, "--tiers") == 0 && v) {
			tiers = v;
		} else if (strcmp(a, "--peer-us") == 0 && v) {
			decision.peer_ms = strtod(v, NULL) / 1e3;
		} else if (strcmp(a, "--exact") == 0) {
			wb_exact_alloc = 1;
			continue;
		} else if (strcmp(a, "--lockdown") == 0) {
			/* Every module loaded before the lock, not at its
			 * first launch after it. */
			setenv("CUDA_MODULE_LOADING", "EAGER", 1);
			lockdown = 1;
			continue;
		} else if (strcmp(a, "--exercise") == 0 && v) {
			name = v;
		} else if (strcmp(a, "--seed") == 0 && v) {
			seed = strtoull(v, NULL, 0);
		} else if (strcmp(a, "--result") == 0 && v) {
			if (wb_result_fd() >= 0) /* --result-fd came first */
				return usage(argv[0]);
			result = v;
		} else if (strcmp(a, "--result-fd") == 0 && v) {
			/* The driver's pipe (grader/proc.c): no rewinding it. */
			char *end;
			long fd = strtol(v, &end, 10);

			if (result)
				return usage(argv[0]);
			if (end == v || *end || fd < 0 || (long)(int)fd != fd ||
			    wb_result_open_fd((int)fd)) {
				fprintf(stderr, "--result-fd %s: not a descriptor "
						"open for writing\n", v);
				return 2;
			}
		} else if (strcmp(a, "--mode") == 0 && v) {
			if (strcmp(v, "grade") == 0)
				m = MODE_GRADE;
			else if (strcmp(v, "quick") == 0)
				m = MODE_QUICK;
			else if (strcmp(v, "bench") == 0)
				m = MODE_BENCH;
			else if (strcmp(v, "reference") == 0)
				m = MODE_REFERENCE;
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
	if (tiers && parse_tiers(tiers, &decision))
		wb_die("cannot read --tiers \"%s\"", tiers);
	if (!tiers)
		lab_tiers(ex, &decision);
	setvbuf(stdout, NULL, _IOLBF, 0);
	wb_result("seed", "%" PRIu64, seed);
	if (m == MODE_PROFILE)
		wb_profile_mode(ex, seed, impl, shape);
	grade(ex, seed, m);
	wb_exit(0);
}
