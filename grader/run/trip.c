/* SPDX-License-Identifier: MIT */
/*
 * trip.c - one exercise's trip (trip.h): an ordered table of stages.
 *
 * A stage returns TRIP_NEXT to hand the exercise on, or TRIP_SETTLED when
 * it has decided the verdict (a file that did not build, a rejected
 * program, a failed run): the stages after it that need a passing
 * exercise are skipped; the scoring stages (always) run for every
 * exercise. Every verdict is written through g_settle() (settle.h).
 *
 *   table      the lab's table is consistent; the timeout cap
 *   built      the runner exists (else COMPILE ERROR from its log)
 *   inspect    what was built, before anything runs (REJECTED)
 *   check      make check: a host exercise graded on the CPU; the rest
 *              stay SKELETON or BUILT
 *   gpu        this GPU can run it (lab 08 below sm_80 is not run)
 *   reference  the naive and the speed of light, timed without the
 *              student's code (reference.h)
 *   run        the runner in a child with a timeout: its record, how the
 *              process ended, the figures recomputed from the rounds
 *   sanitize   a passing exercise under compute-sanitizer
 *   profile    Nsight Compute after a pass (PROFILE=1)
 *   score      points from tiers (always)
 *   plausible  faster than the GPU can be is SUSPICIOUS
 *   technique  the lab's technique rules
 */
#include "trip.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect.h"
#include "ncu.h"
#include "plausible.h"
#include "proc.h"
#include "record.h"
#include "reference.h"
#include "sanitize.h"
#include "score.h"
#include "settle.h"

#define TRIP_PATH 1024

/* Seconds for one sanitizer tool over an exercise's small sizes: the tools
 * slow kernels down a hundredfold or more. */
#define SANITIZE_TIMEOUT_S 300.0

/* Lines of a compiler log shown under COMPILE ERROR. */
#define COMPILE_LINES 12

/* What sanitize_with() needs beside the tool. */
struct san_job {
	const struct trip_env *e;
	char *runner;
	const char *exercise;
};

/* COMPILE ERROR: the first error lines of the compiler's log. */
static void compile_error(struct g_result *r, const char *log)
{
	char *text = read_file(log, 1 << 20), *save = NULL;
	int shown = 0, first_error = 0;

	g_settle(r, WB_V_COMPILE_ERROR);
	g_detail(r, "the file did not compile; the compiler said (full log: %s):",
		 log);
	if (!text || !*text) {
		g_detail(r, "  (the log is empty: the runner is missing; rebuild "
			    "with make grade)");
		free(text);
		return;
	}
	/* Start at the first line that says "error", if any. */
	{
		char *e = strstr(text, "error");

		if (e) {
			while (e > text && e[-1] != '\n')
				e--;
			first_error = (int)(e - text);
		}
	}
	for (char *l = strtok_r(text + first_error, "\n", &save);
	     l && shown < COMPILE_LINES; l = strtok_r(NULL, "\n", &save), shown++)
		g_detail(r, "  %s", l);
	free(text);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV (segmentation fault)";
	case SIGABRT: return "SIGABRT (abort)";
	case SIGFPE: return "SIGFPE (arithmetic error)";
	case SIGBUS: return "SIGBUS (bus error)";
	case SIGILL: return "SIGILL (illegal instruction)";
	case SIGKILL: return "SIGKILL";
	default: return "a signal";
	}
}

/* What the process's end says when its record is missing or partial. */
static void judge_process(struct g_result *r, const struct proc_result *pr,
			  double timeout_s, const char *out_path)
{
	char *tail;

	if (pr->timed_out) {
		g_settle(r, WB_V_TIMEOUT);
		g_detail(r, "still running after %.0f s: killed (an endless loop, "
			    "a deadlock at a barrier, or far too slow)", timeout_s);
	} else if (r->complete && !r->garbled) {
		return; /* the runner finished and said what happened */
	} else if (pr->signaled) {
		g_settle(r, WB_V_CRASH);
		g_detail(r, "the exercise process was killed by %s",
			 signal_name(pr->signo));
	} else {
		g_settle(r, WB_V_CRASH);
		g_detail(r, "the exercise process %s (exit status %d)",
			 r->garbled ? "left an unreadable result" :
				      "ended without a result",
			 pr->code);
	}
	tail = file_tail(out_path, 600);
	if (tail && *tail) {
		char *save = NULL;

		g_detail(r, "its last output:");
		for (char *l = strtok_r(tail, "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save))
			g_detail(r, "  %s", l);
	}
	free(tail);
}

/* Run one sanitizer tool (san_run_fn): 1 and the finding in r when it
 * reports one, -1 when it does not finish. */
static int sanitize_with(const struct san_tool *t, struct g_result *r,
			 void *arg)
{
	const struct san_job *job = arg;
	const struct trip_env *o = job->e;
	char out[TRIP_PATH + 32], res[TRIP_PATH + 32], seed[32], code[8];
	char *argv[] = { (char *)o->sanitizer_found, "--tool", (char *)t->name,
			 "--error-exitcode", code, job->runner, "--exercise",
			 (char *)job->exercise, "--seed", seed, "--result", res,
			 "--mode", "quick", "--exact", NULL };
	char lines[SAN_LINES][G_DETAIL_LEN], *text;
	struct proc_result pr;
	int n;

	snprintf(out, sizeof(out), "%s.%s.out", job->runner, t->name);
	snprintf(res, sizeof(res), "%s.%s.result", job->runner, t->name);
	snprintf(seed, sizeof(seed), "%llu", o->seed);
	snprintf(code, sizeof(code), "%d", SAN_FOUND_EXIT);
	if (proc_run(argv, out, SANITIZE_TIMEOUT_S, &pr) < 0 || pr.timed_out) {
		g_detail(r, "sanitizers: %s did not finish in %.0f s: not checked",
			 t->name, SANITIZE_TIMEOUT_S);
		return -1;
	}
	if (!pr.exited || (pr.code != SAN_FOUND_EXIT && pr.code != 0)) {
		g_detail(r, "sanitizers: %s ended with %s %d (see %s): not "
			    "checked", t->name, pr.exited ? "status" : "signal",
			 pr.exited ? pr.code : pr.signo, out);
		return -1;
	}
	if (pr.code == 0)
		return san_record_passed(t, res, r);
	text = read_file(out, 1 << 20);
	n = text ? san_condense(text, lines, SAN_LINES) : 0;
	free(text);
	g_settle(r, t->verdict);
	g_detail(r, "compute-sanitizer %s found a problem at the small sizes "
		    "(full report: %s):", t->name, out);
	for (int i = 0; i < n; i++)
		g_detail(r, "  %s", lines[i]);
	return 1;
}

/*
 * An exercise that passed, once more under the sanitizer tools SANITIZE=1
 * asks for and those its table requires (san_run_plan(): a required tool
 * that cannot run is GRADER ERROR).
 */
static void sanitize(const struct trip_env *o, char *runner, struct g_row *row)
{
	struct san_job job = { o, runner, row->spec.name };

	san_run_plan(san_plan(o->sanitize_all, row->spec.sanitize),
		     row->spec.sanitize, o->sanitizer_found,
		     o->sanitizer ? o->sanitizer : "its usual places",
		     sanitize_with, &job, &row->res);
}

/*
 * The figures scored are the driver's own, recomputed from the record's
 * rounds (g_measure()): a record that disagrees with itself, or a timed
 * PASS without its rounds, is GRADER ERROR. Only a complete, readable
 * record of a runner that ended in time is judged (judge_process()).
 */
static void measure(const struct trip_env *o, struct g_row *row,
		    const char *runner, const struct g_samples *smp,
		    const char *peer, const struct proc_result *pr)
{
	struct g_result *r = &row->res;

	if (pr->timed_out || !r->complete || r->garbled)
		return;
	g_measure(&row->spec, r, smp, runner, *peer ? strtod(peer, NULL) : 0,
		  !o->size);
}

/* The most lines of a host check's messages a report shows. */
#define HOST_LINES 8

/*
 * make check: a host exercise (lab.mk's HOST_EXERCISES) graded on the
 * CPU by <runner>.host (common/hostcheck.c), which needs no GPU and no
 * driver: PASS or WRONG with check()'s first messages. Left BUILT where
 * make check built no such program (make check's other callers, a file
 * not written yet) or it could not grade.
 */
static void host_check(const struct trip_env *o, const char *runner,
		       struct g_row *row)
{
	char prog[TRIP_PATH], out[TRIP_PATH], seed[32], *text, *from;
	char *argv[] = { prog, row->spec.name, seed, NULL }, *save = NULL;
	struct g_result *r = &row->res;
	struct proc_result pr;
	int shown = 0, wrong;

	snprintf(prog, sizeof(prog), "%.1000s.host", runner);
	snprintf(out, sizeof(out), "%.1000s.host.out", runner);
	snprintf(seed, sizeof(seed), "%llu", o->seed);
	if (r->verdict != WB_V_BUILT || !file_exists(prog))
		return;
	if (proc_run(argv, out, row->spec.timeout_s, &pr) < 0 || !pr.exited ||
	    (pr.code != 0 && pr.code != 1)) {
		g_detail(r, "not checked on the CPU: %s ended %s (see %s)",
			 prog, pr.timed_out ? "at its time limit" :
			 "without a verdict", out);
		return;
	}
	wrong = pr.code == 1;
	g_settle(r, wrong ? WB_V_WRONG : WB_V_PASS);
	g_detail_first(r, "checked without a GPU, on the CPU against %s: make "
		    "grade on a GPU gives the grade that counts", wrong ?
		 "the first wrong answer below" : "every size of the lab's table");
	text = wrong ? read_file(out, 1 << 20) : NULL;
	/* From the first failure on: check()'s summaries come before it. */
	from = text;
	if (text) {
		char head[G_NAME_LEN + 16];

		snprintf(head, sizeof(head), "%s: WRONG at ", row->spec.name);
		from = strstr(text, head) ? strstr(text, head) : text;
	}
	for (char *l = from ? strtok_r(from, "\n", &save) : NULL;
	     l && shown < HOST_LINES; l = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(row->spec.name);

		/* the last line, "<exercise> WRONG", is the verdict */
		if (!strncmp(l, row->spec.name, n) && !strcmp(l + n, " WRONG"))
			break;
		g_detail(r, "  %s", l);
		shown++;
	}
	free(text);
}

/* ---- the stages ---- */

enum { TRIP_NEXT, TRIP_SETTLED };

/* One exercise on its way: its paths and what the stages learnt. */
struct trip {
	const struct trip_env *e;
	const struct g_device *dev;
	struct g_row *row;
	struct g_result *r;
	char runner[TRIP_PATH], log[TRIP_PATH], res[TRIP_PATH];
	char out[TRIP_PATH], seed[32], peer[32];
	struct proc_result pr;
	int ran; /* the runner ran and its record was read */
};

static int st_table(struct trip *t)
{
	char why[160];

	if (t->e->timeout_cap > 0 && t->e->timeout_cap < t->row->spec.timeout_s)
		t->row->spec.timeout_s = t->e->timeout_cap;
	if (!g_spec_validate(&t->row->spec, why, sizeof(why)))
		return TRIP_NEXT;
	g_settle(t->r, WB_V_ERROR);
	g_detail(t->r, "the lab's table is inconsistent: %s", why);
	return TRIP_SETTLED;
}

static int st_built(struct trip *t)
{
	if (file_exists(t->runner))
		return TRIP_NEXT;
	if (file_exists(t->log)) {
		compile_error(t->r, t->log);
	} else {
		g_settle(t->r, WB_V_ERROR);
		g_detail(t->r, "%s was not built (grade through make)", t->runner);
	}
	return TRIP_SETTLED;
}

/* REJECTED (inspect.h): the file is never run. make bench times the
 * solutions and the naive alone: nothing to inspect. */
static int st_inspect(struct trip *t)
{
	int static_only = t->e->mode == G_BUILD_ONLY ||
			  g_spec_too_new(&t->row->spec, t->dev->cc, NULL, 0);

	if (t->e->mode == G_BENCH ||
	    g_inspect_runner(t->runner, &t->row->spec, t->r, static_only) >= 0)
		return TRIP_NEXT;
	return TRIP_SETTLED;
}

/* make check: SKELETON or BUILT, as g_inspect_runner() decided; a host
 * exercise that BUILT is graded on the CPU. */
static int st_check(struct trip *t)
{
	if (t->e->mode != G_BUILD_ONLY)
		return TRIP_NEXT;
	host_check(t->e, t->runner, t->row);
	san_note_required(t->row->spec.sanitize, t->e->sanitizer_found, t->r);
	return TRIP_SETTLED;
}

/* As make check where this GPU cannot run it: SKELETON or BUILT, and why
 * it was not run. */
static int st_gpu(struct trip *t)
{
	char why[160];

	if (!g_spec_too_new(&t->row->spec, t->dev->cc, why, sizeof(why)))
		return TRIP_NEXT;
	if (t->e->mode == G_BENCH)
		g_settle(t->r, WB_V_BUILT);
	g_detail(t->r, "not run: %s", why);
	return TRIP_SETTLED;
}

static int st_reference(struct trip *t)
{
	const struct trip_env *e = t->e;

	if (!t->row->spec.speed || e->size || e->mode == G_BUILD_ONLY ||
	    !reference_run(e->build_dir, e->reference_dir, e->seed, t->dev,
			   t->row))
		return TRIP_NEXT;
	g_settle(t->r, WB_V_ERROR);
	g_detail(t->r, "the grader's reference run (the naive and the speed of "
		       "light, without your code) failed: see %s/%s.%s."
		       "reference.out", e->reference_dir ? e->reference_dir :
		 e->build_dir, t->row->spec.lab, t->row->spec.name);
	return TRIP_SETTLED;
}

/* The runner, in a child with the exercise's timeout; its record through
 * a pipe (proc.h), copied to res after. Settled unless it passed. */
static int st_run(struct trip *t)
{
	static struct g_samples smp; /* large: one exercise at a time */
	const struct trip_env *e = t->e;
	struct g_result *r = t->r;
	char tiers[256];
	char *argv[16] = { t->runner, "--exercise", t->row->spec.name, "--seed",
			   t->seed, "--result-fd", PROC_RECORD_FD_ARG, "--mode",
			   e->mode == G_BENCH ? "bench" : "grade" };
	struct proc_record rec;
	int argc = 9;

	g_tiers_arg(tiers, sizeof(tiers), &t->row->spec);
	if (e->size) {
		argv[argc++] = "--size";
		argv[argc++] = (char *)e->size;
	}
	if (t->row->spec.speed && t->row->spec.ntiers) {
		argv[argc++] = "--tiers";
		argv[argc++] = tiers;
	}
	if (!e->no_lockdown)
		argv[argc++] = "--lockdown";
	/* The peer's first quartile (reference.h says why). */
	if (!reference_peer_arg(&r->ref, t->peer, sizeof(t->peer))) {
		argv[argc++] = "--peer-us";
		argv[argc++] = t->peer;
	}
	argv[argc] = NULL;
	remove(t->res);
	if (proc_run_record(argv, t->out, t->res, t->row->spec.timeout_s,
			    &t->pr, &rec) < 0) {
		g_settle(r, WB_V_ERROR);
		g_detail(r, "could not start %s: %s", t->runner, strerror(errno));
		return TRIP_SETTLED;
	}
	g_parse_record_samples(rec.text, r, &smp);
	if (rec.too_long) {
		r->garbled = 1;
		g_detail(r, "record too long: the runner wrote more than %d "
			    "bytes to its result", PROC_RECORD_MAX);
	}
	free(rec.text);
	r->wall_s = t->pr.wall_s;
	t->ran = 1;
	judge_process(r, &t->pr, t->row->spec.timeout_s, t->out);
	measure(e, t->row, t->runner, &smp, t->peer, &t->pr);
	/* The library peer beside the result ("x% of cuBLAS"): timed in
	 * the reference run. */
	if (r->ref.peer.have)
		r->t[G_PEER] = r->ref.peer;
	reference_check(r);
	return r->verdict == WB_V_PASS ? TRIP_NEXT : TRIP_SETTLED;
}

static int st_sanitize(struct trip *t)
{
	if (t->e->mode != G_GRADE)
		return TRIP_NEXT;
	sanitize(t->e, t->runner, t->row);
	return t->r->verdict == WB_V_PASS ? TRIP_NEXT : TRIP_SETTLED;
}

/* After the timed grade, so it never disturbs it. */
static int st_profile(struct trip *t)
{
	if (t->e->ncu && t->e->mode == G_GRADE && t->row->spec.speed)
		ncu_attach(t->e->ncu, t->runner, &t->row->spec, t->r);
	return TRIP_NEXT;
}

/* Points; those a GPU cannot give are no part of its maximum (lab 08
 * below sm_80): the same code earns the same share everywhere. */
static int st_score(struct trip *t)
{
	struct g_row *row = t->row;

	g_score(&row->spec, t->r, t->dev->copy_gbps, t->dev->dram_gbps);
	if (t->e->mode == G_GRADE &&
	    g_spec_too_new(&row->spec, t->dev->cc, NULL, 0)) {
		t->r->max_points = 0;
		g_detail(t->r, "left out of the maximum: this GPU cannot run it, "
			       "so its %g points count on a GPU that can",
			 row->spec.points_correct + row->spec.points_speed);
	}
	return t->r->verdict == WB_V_PASS ? TRIP_NEXT : TRIP_SETTLED;
}

static int st_plausible(struct trip *t)
{
	if (t->e->mode != G_GRADE || !g_plausible(&t->row->spec, t->r, t->dev))
		return TRIP_NEXT;
	return TRIP_SETTLED;
}

static int st_technique(struct trip *t)
{
	if (t->e->mode == G_GRADE)
		g_technique_apply(&t->row->spec, t->r);
	return TRIP_NEXT;
}

struct stage {
	const char *name;
	int (*run)(struct trip *t);
	int always; /* runs when an earlier stage settled, too */
};

static const struct stage stages[] = {
	{ "table",     st_table,     0 },
	{ "built",     st_built,     0 },
	{ "inspect",   st_inspect,   0 },
	{ "check",     st_check,     0 },
	{ "gpu",       st_gpu,       0 },
	{ "reference", st_reference, 0 },
	{ "run",       st_run,       0 },
	{ "sanitize",  st_sanitize,  0 },
	{ "profile",   st_profile,   0 },
	{ "score",     st_score,     1 },
	{ "plausible", st_plausible, 0 },
	{ "technique", st_technique, 0 },
};

#define NSTAGES ((int)(sizeof(stages) / sizeof(stages[0])))

const char *trip_stage(int i)
{
	return i >= 0 && i < NSTAGES ? stages[i].name : NULL;
}


void trip_run(const struct trip_env *e, const struct g_device *dev,
	      struct g_row *row)
{
	static struct trip t; /* paths: large, and one exercise at a time */
	char base[TRIP_PATH - 16];
	int settled = 0;

	memset(&t, 0, sizeof(t));
	t.e = e;
	t.dev = dev;
	t.row = row;
	t.r = &row->res;
	memset(t.r, 0, sizeof(*t.r));
	snprintf(base, sizeof(base), "%.800s/%.63s/%.63s", e->build_dir,
		 row->spec.lab, row->spec.name);
	snprintf(t.runner, sizeof(t.runner), "%s", base);
	snprintf(t.log, sizeof(t.log), "%s.log", base);
	snprintf(t.res, sizeof(t.res), "%s.result", base);
	snprintf(t.out, sizeof(t.out), "%s.out", base);
	snprintf(t.seed, sizeof(t.seed), "%llu", e->seed);
	for (int i = 0; i < NSTAGES; i++) {
		if (settled && !stages[i].always)
			continue;
		if (stages[i].run(&t) == TRIP_SETTLED)
			settled = 1;
	}
}
