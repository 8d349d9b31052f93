/* SPDX-License-Identifier: MIT */
/*
 * main.c - the grader's driver.
 *
 * Finds the labs (folders with a lab.mk), asks each lab's info binary for
 * its exercises and knobs, runs every exercise's runner in a child process
 * with a timeout, scores what comes back and reports. It never touches the
 * GPU itself: the device is probed by devinfo, in a child too.
 *
 * Exit status: 0 every graded exercise passed, 1 some did not, 2 nothing
 * could be graded (no GPU, bad arguments, nothing built).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calibrate.h"
#include "course.h"
#include "formats.h"
#include "gpustate.h"
#include "grade.h"
#include "history.h"
#include "html.h"
#include "inspect.h"
#include "ncu.h"
#include "plausible.h"
#include "proc.h"
#include "record.h"
#include "reference.h"
#include "report.h"
#include "sanitize.h"
#include "score.h"

#define MAX_LABS 32
#define MAX_ROWS 256
#define MAX_PER_LAB 32
#define PATH_LEN 1024

/* Seconds allowed to `info --list` and to the device probe. */
#define LIST_TIMEOUT_S 20.0
#define PROBE_TIMEOUT_S 120.0

/* Seconds for one sanitizer tool over an exercise's small sizes: the tools
 * slow kernels down a hundredfold or more. */
#define SANITIZE_TIMEOUT_S 300.0

/* Lines of a compiler log shown under COMPILE ERROR. */
#define COMPILE_LINES 12

struct options {
	const char *labs_dir;
	const char *build_dir;
	const char *source;
	const char *lab;
	const char *ex;
	const char *devinfo;
	const char *sanitizer; /* compute-sanitizer's path as given, or NULL */
	int sanitize_all;      /* --sanitizer (SANITIZE=1): every exercise */
	char sanitizer_at[PATH_LEN]; /* where it is, found at the start */
	const char *sanitizer_found; /* sanitizer_at, or NULL: none found */
	unsigned long long seed;
	int have_seed;
	double timeout_cap; /* 0: each exercise's own timeout */
	enum g_mode mode;
	const char *course;    /* per-course settings file (course.h) */
	int check_course;      /* 1: check it and say what it grades and
				* changes; 2: print the labs it grades,
				* 3: its lab/exercise pairs */
	struct report_outputs out; /* the files to write (formats.h) */
	const char *propose;   /* calibration all.tsv: propose tiers, grade nothing */
	const char *score;     /* a recording's all.tsv: its tiers, nothing graded */
	const char *ncu;       /* Nsight Compute: profile (PROFILE=1, profile) */
	int profile_only;      /* make profile: profile, grade nothing */
	const char *with;      /* make profile's extra columns: naive,solution */
	const char *sol_build; /* where the solutions' runners are */
	const char *profile_tsv;
	int shape;             /* which benchmark shape to profile */
	const char *size;      /* --size: one size alone, untimed (SIZE=) */
	const char *reference_dir; /* where references are kept (reference.h) */
	int no_lockdown;       /* LOCKDOWN=0: runners without seccomp, to
				* diagnose a runtime the filter breaks */
	const char *calibrations; /* folder of calibrations per GPU model */
	char calib_path[PATH_LEN]; /* the one for this GPU, if found */
	const char *history;   /* each root's history file's name (history.h) */
	const char *solutions_run; /* their report.run, for report.html */
	const char *probe_only; /* --probe-only FILE: probe the GPU, write
				 * devinfo's lines there, grade nothing */
	const char *probe_file; /* --probe-file FILE: such a probe, used
				 * instead of probing again if fresh */
};

/* What sanitize_with() needs beside the tool. */
struct san_job {
	const struct options *o;
	char *runner;
	const char *exercise;
};

/* Nsight Compute's state across exercises (grader/ncu.c). */
static struct ncu_ctx prof;

static int usage(void)
{
	fprintf(stderr,
		"usage: grader --labs DIR --build DIR [--source NAME] [--lab L] "
		"[--ex E]\n"
		"              [--seed N] [--mode grade|bench|build-only] "
		"[--devinfo PATH]\n"
		"              [--timeout-cap SECONDS]\n"
		"              [--sanitizer PATH-TO-COMPUTE-SANITIZER] [--size LABEL]\n"
		"              [--sanitizer-path PATH]  (where it is, for the "
		"exercises\n"
		"               that always run it; looked for when not given)\n"
		"              [--course FILE]\n"
		"              [--ncu PATH]  (profile each passing speed exercise)\n"
		"              [--reference-cache DIR] [--lockdown 0|1]\n"
		"              [--calibrations DIR] [--history NAME]\n"
		"              [--solutions-run REPORT.RUN]\n"
		"              (--lab takes a list: --lab \"reduction fusion\")\n"
		"       grader --labs DIR --build DIR --course FILE "
		"--check-course summary|labs|exercises\n"
		"       grader --labs DIR --build DIR --propose-tiers ALL.TSV\n"
		"       grader --labs DIR --build DIR --score-recording ALL.TSV\n"
		"       grader --devinfo PATH --probe-only FILE  (the GPU probe "
		"alone, for\n"
		"               --probe-file FILE: make grade runs it beside the "
		"build)\n"
		"       grader ... --mode profile --ncu PATH [--with naive,peer,solution]\n"
		"              [--solutions-build DIR] [--profile-tsv FILE] [--shape K]\n");
	report_outputs_usage(stderr);
	return 2;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->source = "labs";
	o->mode = G_GRADE;
	for (int i = 1; i < argc; i += 2) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			return -1;
		if (report_outputs_set(&o->out, a, v))
			continue;
		if (!strcmp(a, "--labs"))
			o->labs_dir = v;
		else if (!strcmp(a, "--build"))
			o->build_dir = v;
		else if (!strcmp(a, "--source"))
			o->source = v;
		else if (!strcmp(a, "--lab") && o->lab) {
			/* Keeping the last would grade less than was asked. */
			fprintf(stderr, "grader: --lab is given twice ('%s', "
					"'%s'): give one list, --lab \"%s %s\"\n",
				o->lab, v, o->lab, v);
			return -1;
		} else if (!strcmp(a, "--lab"))
			o->lab = *v ? v : NULL;
		else if (!strcmp(a, "--ex"))
			o->ex = *v ? v : NULL;
		else if (!strcmp(a, "--devinfo"))
			o->devinfo = v;
		else if (!strcmp(a, "--sanitizer")) {
			o->sanitizer = *v ? v : NULL;
			o->sanitize_all = !!*v;
		} else if (!strcmp(a, "--sanitizer-path") && !o->sanitize_all)
			o->sanitizer = *v ? v : NULL;
		else if (!strcmp(a, "--sanitizer-path"))
			; /* --sanitizer's path wins */
		else if (!strcmp(a, "--timeout-cap"))
			o->timeout_cap = atof(v);
		else if (!strcmp(a, "--course"))
			o->course = *v ? v : NULL;
		else if (!strcmp(a, "--check-course"))
			o->check_course = !strcmp(v, "summary") ? 1 :
					  !strcmp(v, "labs") ? 2 :
					  !strcmp(v, "exercises") ? 3 : -1;
		else if (!strcmp(a, "--propose-tiers"))
			o->propose = v;
		else if (!strcmp(a, "--score-recording"))
			o->score = v;
		else if (!strcmp(a, "--ncu"))
			o->ncu = v;
		else if (!strcmp(a, "--with"))
			o->with = v;
		else if (!strcmp(a, "--solutions-build"))
			o->sol_build = v;
		else if (!strcmp(a, "--profile-tsv"))
			o->profile_tsv = v;
		else if (!strcmp(a, "--shape"))
			o->shape = atoi(v);
		else if (!strcmp(a, "--size"))
			o->size = *v ? v : NULL;
		else if (!strcmp(a, "--reference-cache"))
			o->reference_dir = *v ? v : NULL;
		else if (!strcmp(a, "--lockdown"))
			o->no_lockdown = !strcmp(v, "0");
		else if (!strcmp(a, "--calibrations"))
			o->calibrations = *v ? v : NULL;
		else if (!strcmp(a, "--history"))
			o->history = *v ? v : NULL;
		else if (!strcmp(a, "--solutions-run"))
			o->solutions_run = *v ? v : NULL;
		else if (!strcmp(a, "--seed") && *v) {
			char *end;

			o->seed = strtoull(v, &end, 0);
			if (*end)
				return -1;
			o->have_seed = 1;
		} else if (!strcmp(a, "--mode")) {
			if (!strcmp(v, "grade"))
				o->mode = G_GRADE;
			else if (!strcmp(v, "bench"))
				o->mode = G_BENCH;
			else if (!strcmp(v, "build-only"))
				o->mode = G_BUILD_ONLY;
			else if (!strcmp(v, "profile"))
				o->profile_only = 1;
			else
				return -1;
		} else if (!strcmp(a, "--probe-only")) {
			o->probe_only = v;
		} else if (!strcmp(a, "--probe-file")) {
			o->probe_file = v;
		} else if (strcmp(a, "--seed"))
			return -1;
	}
	/* Probe and nothing else: make grade runs it beside the build. */
	if (o->probe_only)
		return o->devinfo ? 0 : -1;
	if (!o->labs_dir || !o->build_dir || o->check_course < 0 ||
	    (o->check_course && !o->course))
		return -1;
	if (o->check_course)
		o->mode = G_BUILD_ONLY; /* reads the labs' tables; runs nothing */
	if (o->propose || o->score)
		o->mode = G_BUILD_ONLY; /* reads the labs' tables; runs nothing */
	if (o->mode != G_BUILD_ONLY && !o->devinfo)
		return -1;
	return 0;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static unsigned long long fresh_seed(void)
{
	unsigned int x = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || read(fd, &x, sizeof(x)) != (ssize_t)sizeof(x))
		x = (unsigned int)getpid() ^ (unsigned int)time(NULL);
	if (fd >= 0)
		close(fd);
	return x;
}

/* Does a lab folder name match one LAB= word ("05-reduction",
 * "reduction" or its number, "05"), len bytes of want? */
static int lab_is_word(const char *dir, const char *want, size_t len)
{
	const char *dash = strchr(dir, '-');

	return (strlen(dir) == len && !strncmp(dir, want, len)) ||
	       (dash && strlen(dash + 1) == len && !strncmp(dash + 1, want, len)) ||
	       (dash && (size_t)(dash - dir) == len && !strncmp(dir, want, len));
}

/* Does a lab folder name match LAB=, a list of words ("reduction fusion",
 * commas too)? Every lab when want is NULL. */
static int lab_matches(const char *dir, const char *want)
{
	static const char sep[] = " \t,";

	if (!want)
		return 1;
	for (const char *w = want + strspn(want, sep); *w;
	     w += strcspn(w, sep), w += strspn(w, sep))
		if (lab_is_word(dir, w, strcspn(w, sep)))
			return 1;
	return 0;
}

/* Each word of LAB= must name a lab under labs (labs[0..n-1]): 0, or -1
 * said. */
static int lab_words_exist(const char *want, char **labs, int n)
{
	static const char sep[] = " \t,";

	for (const char *w = want ? want + strspn(want, sep) : ""; *w;
	     w += strcspn(w, sep), w += strspn(w, sep)) {
		int found = 0;

		for (int i = 0; i < n && !found; i++)
			found = lab_is_word(labs[i], w, strcspn(w, sep));
		if (!found) {
			fprintf(stderr, "grader: no lab named '%.*s' (LAB=%s); "
					"the labs:", (int)strcspn(w, sep), w, want);
			for (int k = 0; k < n; k++)
				fprintf(stderr, " %s", labs[k]);
			fprintf(stderr, "\n");
			return -1;
		}
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lab folders (those with a lab.mk), sorted. */
static int find_labs(const char *dir, const char *want, char **out, int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max) {
		char mk[PATH_LEN];

		if (e->d_name[0] == '.' || !lab_matches(e->d_name, want))
			continue;
		snprintf(mk, sizeof(mk), "%s/%s/lab.mk", dir, e->d_name);
		if (exists(mk))
			out[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(out, n, sizeof(*out), cmp_str);
	return n;
}

/* How old a --probe-file may be and still stand for a probe of now: make
 * grade writes it seconds before the grader starts; an older one (a build
 * that waited, a file left behind) is not used. */
#define PROBE_FRESH_S 120

/*
 * devinfo --probe, its output to out: key value lines; exit 2 and one line
 * when no GPU, which is printed. 0, or -1 (out then removed). The lines
 * are written beside out first, so that out is never a partial probe.
 */
static int run_probe(const struct options *o, const char *out)
{
	char tmp[PATH_LEN + 8], *text;
	char *argv[] = { (char *)o->devinfo, "--probe", NULL };
	struct proc_result pr;

	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	remove(out);
	if (!exists(o->devinfo)) {
		fprintf(stderr, "grader: %s is not built\n", o->devinfo);
		return -1;
	}
	if (proc_run(argv, tmp, PROBE_TIMEOUT_S, &pr) < 0)
		return -1;
	if (pr.exited && pr.code == 0)
		return rename(tmp, out) ? -1 : 0;
	text = read_file(tmp, 1 << 16);
	if (text) {
		char *nl = strchr(text, '\n');

		if (nl)
			*nl = '\0';
	}
	printf("%s\n", text && *text ? text : "no usable CUDA GPU was found");
	free(text);
	remove(tmp);
	return -1;
}

/* Is path a probe written in the last PROBE_FRESH_S seconds? */
static int probe_fresh(const char *path)
{
	struct stat st;

	return path && !stat(path, &st) && time(NULL) - st.st_mtime >= 0 &&
	       time(NULL) - st.st_mtime <= PROBE_FRESH_S;
}

/*
 * The GPU and its measured rates: o->probe_file when make grade has just
 * probed beside the build (under the same GPU lock a grading run takes:
 * the probe never overlaps another run's timing), else devinfo --probe
 * now. -1 when there is no usable GPU (said) or the probe failed.
 */
static int probe_device(const struct options *o, struct g_device *dev)
{
	char out[PATH_LEN], *text, *save = NULL;
	const char *path = out;

	snprintf(out, sizeof(out), "%s/devinfo.out", o->build_dir);
	if (probe_fresh(o->probe_file))
		path = o->probe_file;
	else if (run_probe(o, out))
		return -1;
	text = read_file(path, 1 << 16);
	if (!text)
		return -1;
	memset(dev, 0, sizeof(*dev));
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "name ", 5))
			snprintf(dev->name, sizeof(dev->name), "%s", l + 5);
		else if (!strncmp(l, "driver ", 7))
			snprintf(dev->driver, sizeof(dev->driver), "%s", l + 7);
		else if (sscanf(l, "cc %d", &dev->cc) != 1 &&
			 sscanf(l, "sms %d", &dev->sms) != 1 &&
			 sscanf(l, "l2_mb %lf", &dev->l2_mb) != 1 &&
			 sscanf(l, "mem_gb %lf", &dev->mem_gb) != 1 &&
			 sscanf(l, "read_gbps %lf", &dev->read_gbps) != 1 &&
			 sscanf(l, "write_gbps %lf", &dev->write_gbps) != 1 &&
			 sscanf(l, "clock_mhz %lf", &dev->clock_mhz) != 1 &&
			 sscanf(l, "fp32_tflops %lf", &dev->fp32_tflops) != 1 &&
			 sscanf(l, "launch_us %lf", &dev->launch_us) != 1 &&
			 sscanf(l, "launch_sync_us %lf",
				&dev->launch_sync_us) != 1)
			sscanf(l, "copy_gbps %lf", &dev->copy_gbps);
	}
	free(text);
	/* Used once: a later run probes again unless make grade did. */
	if (path != out)
		remove(path);
	return 0;
}

/* Read EXERCISES from a lab.mk, for when the lab's own code did not build. */
static int exercises_from_mk(const char *labs_dir, const char *lab,
			     struct g_spec *out, int max)
{
	char path[PATH_LEN], *text, *l, *save = NULL;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s/lab.mk", labs_dir, lab);
	text = read_file(path, 1 << 16);
	if (!text)
		return 0;
	/* The line that starts with EXERCISES (comments may name it too). */
	l = text;
	while (l && strncmp(l, "EXERCISES", 9)) {
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	if (l && (l = strchr(l, '='))) {
		char *end = strchr(l, '\n');

		if (end)
			*end = '\0';
		for (char *w = strtok_r(l + 1, " \t", &save); w && n < max;
		     w = strtok_r(NULL, " \t", &save)) {
			memset(&out[n], 0, sizeof(out[n]));
			snprintf(out[n].lab, G_NAME_LEN, "%s", lab);
			snprintf(out[n].name, G_NAME_LEN, "%s", w);
			snprintf(out[n].bench, G_NAME_LEN, "-");
			n++;
		}
	}
	free(text);
	return n;
}

/* Ask the lab's info binary for its table; -1 if it cannot say. In
 * build-only mode, make check's <lab>/table (the same table, without the
 * library peers that only a grade times) where there is one. */
static int lab_specs(const struct options *o, const char *lab,
		     struct g_spec *out, int max)
{
	char info[PATH_LEN], outp[PATH_LEN], *text;
	char *argv[] = { info, "--list", NULL };
	struct proc_result pr;
	int n;

	snprintf(info, sizeof(info), "%s/%s/table", o->build_dir, lab);
	if (o->mode != G_BUILD_ONLY || !exists(info))
		snprintf(info, sizeof(info), "%s/%s/info", o->build_dir, lab);
	snprintf(outp, sizeof(outp), "%s/%s/info.list", o->build_dir, lab);
	if (!exists(info) || proc_run(argv, outp, LIST_TIMEOUT_S, &pr) < 0 ||
	    !pr.exited || pr.code)
		return -1;
	text = read_file(outp, 1 << 20);
	n = text ? g_parse_list(text, lab, out, max) : -1;
	free(text);
	return n;
}

/* COMPILE ERROR: the first error lines of the compiler's log. */
static void compile_error(struct g_result *r, const char *log)
{
	char *text = read_file(log, 1 << 20), *save = NULL;
	int shown = 0, first_error = 0;

	r->verdict = WB_V_COMPILE_ERROR;
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
		r->verdict = WB_V_TIMEOUT;
		g_detail(r, "still running after %.0f s: killed (an endless loop, "
			    "a deadlock at a barrier, or far too slow)", timeout_s);
	} else if (r->complete && !r->garbled) {
		return; /* the runner finished and said what happened */
	} else if (pr->signaled) {
		r->verdict = WB_V_CRASH;
		g_detail(r, "the exercise process was killed by %s",
			 signal_name(pr->signo));
	} else {
		r->verdict = WB_V_CRASH;
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
	const struct options *o = job->o;
	char out[PATH_LEN + 32], res[PATH_LEN + 32], seed[32], code[8];
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
	r->verdict = t->verdict;
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
static void sanitize(const struct options *o, char *runner, struct g_row *row)
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
static void measure(const struct options *o, struct g_row *row,
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
static void host_check(const struct options *o, const char *runner,
		       struct g_row *row)
{
	char prog[PATH_LEN], out[PATH_LEN], seed[32], *text, *from;
	char *argv[] = { prog, row->spec.name, seed, NULL }, *save = NULL;
	struct g_result *r = &row->res;
	struct proc_result pr;
	int shown = 0, wrong;

	snprintf(prog, sizeof(prog), "%.1000s.host", runner);
	snprintf(out, sizeof(out), "%.1000s.host.out", runner);
	snprintf(seed, sizeof(seed), "%llu", o->seed);
	if (r->verdict != WB_V_BUILT || !exists(prog))
		return;
	if (proc_run(argv, out, row->spec.timeout_s, &pr) < 0 || !pr.exited ||
	    (pr.code != 0 && pr.code != 1)) {
		g_detail(r, "not checked on the CPU: %s ended %s (see %s)",
			 prog, pr.timed_out ? "at its time limit" :
			 "without a verdict", out);
		return;
	}
	wrong = pr.code == 1;
	r->verdict = wrong ? WB_V_WRONG : WB_V_PASS;
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

static void run_exercise(const struct options *o, const struct g_device *dev,
			 struct g_row *row)
{
	static struct g_samples smp; /* large: one exercise at a time */
	char base[PATH_LEN - 16], runner[PATH_LEN], log[PATH_LEN], res[PATH_LEN];
	char out[PATH_LEN], seed[32], why[160], tiers[256], peer[32];
	char *argv[16] = { runner, "--exercise", row->spec.name, "--seed", seed,
			   "--result-fd", PROC_RECORD_FD_ARG, "--mode",
			   o->mode == G_BENCH ? "bench" : "grade" };
	struct g_result *r = &row->res;
	struct proc_record rec;
	struct proc_result pr;
	int argc = 9, need_ref;

	memset(r, 0, sizeof(*r));
	snprintf(base, sizeof(base), "%.800s/%.63s/%.63s", o->build_dir,
		 row->spec.lab, row->spec.name);
	snprintf(runner, sizeof(runner), "%s", base);
	snprintf(log, sizeof(log), "%s.log", base);
	snprintf(res, sizeof(res), "%s.result", base);
	snprintf(out, sizeof(out), "%s.out", base);
	snprintf(seed, sizeof(seed), "%llu", o->seed);
	g_tiers_arg(tiers, sizeof(tiers), &row->spec);
	if (o->size) {
		argv[argc++] = "--size";
		argv[argc++] = (char *)o->size;
	}
	need_ref = row->spec.speed && !o->size && o->mode != G_BUILD_ONLY;

	if (o->timeout_cap > 0 && o->timeout_cap < row->spec.timeout_s)
		row->spec.timeout_s = o->timeout_cap;
	if (g_spec_validate(&row->spec, why, sizeof(why))) {
		r->verdict = WB_V_ERROR;
		g_detail(r, "the lab's table is inconsistent: %s", why);
	} else if (!exists(runner)) {
		if (exists(log))
			compile_error(r, log);
		else {
			r->verdict = WB_V_ERROR;
			g_detail(r, "%s was not built (grade through make)", runner);
		}
	} else if (o->mode != G_BENCH &&
		   g_inspect_runner(runner, &row->spec, r,
				    o->mode == G_BUILD_ONLY ||
				    g_spec_too_new(&row->spec, dev->cc,
						   NULL, 0)) < 0) {
		/* REJECTED (inspect.h): the file is never run. */
	} else if (o->mode == G_BUILD_ONLY) {
		/* SKELETON or BUILT: g_inspect_runner() decided it; a host
		 * exercise that BUILT is graded on the CPU. */
		host_check(o, runner, row);
		san_note_required(row->spec.sanitize, o->sanitizer_found, r);
	} else if (g_spec_too_new(&row->spec, dev->cc, why, sizeof(why))) {
		/* As make check: SKELETON or BUILT, and why it was not run. */
		if (o->mode == G_BENCH)
			r->verdict = WB_V_BUILT;
		g_detail(r, "not run: %s", why);
	} else if (need_ref && reference_run(o->build_dir, o->reference_dir,
					      o->seed, dev, row)) {
		r->verdict = WB_V_ERROR;
		g_detail(r, "the grader's reference run (the naive and the "
			    "speed of light, without your code) failed: see "
			    "%s/%s.%s.reference.out",
			 o->reference_dir ? o->reference_dir : o->build_dir,
			 row->spec.lab, row->spec.name);
	} else {
		if (row->spec.speed && row->spec.ntiers) {
			argv[argc++] = "--tiers";
			argv[argc++] = tiers;
		}
		if (!o->no_lockdown)
			argv[argc++] = "--lockdown";
		/* The peer's first quartile (reference.h says why). */
		if (!reference_peer_arg(&r->ref, peer, sizeof(peer))) {
			argv[argc++] = "--peer-us";
			argv[argc++] = peer;
		}
		argv[argc] = NULL;
		remove(res);
		/* The record through a pipe (proc.h), copied to res after. */
		if (proc_run_record(argv, out, res, row->spec.timeout_s, &pr,
				    &rec) < 0) {
			r->verdict = WB_V_ERROR;
			g_detail(r, "could not start %s: %s", runner, strerror(errno));
		} else {
			g_parse_record_samples(rec.text, r, &smp);
			if (rec.too_long) {
				r->garbled = 1;
				g_detail(r, "record too long: the runner wrote more "
					    "than %d bytes to its result",
					 PROC_RECORD_MAX);
			}
			free(rec.text);
			r->wall_s = pr.wall_s;
			judge_process(r, &pr, row->spec.timeout_s, out);
			measure(o, row, runner, &smp, peer, &pr);
			/* The library peer beside the result ("x% of
			 * cuBLAS"): timed in the reference run. */
			if (r->ref.peer.have)
				r->t[G_PEER] = r->ref.peer;
			reference_check(r);
			if (o->mode == G_GRADE && r->verdict == WB_V_PASS)
				sanitize(o, runner, row);
			/* After the timed grade, so it never disturbs it. */
			if (o->ncu && o->mode == G_GRADE && row->spec.speed &&
			    r->verdict == WB_V_PASS)
				ncu_attach(&prof, runner, &row->spec, r);
		}
	}
	g_score(&row->spec, r, dev->copy_gbps, dev->dram_gbps);
	/* Points a GPU cannot give are no part of its maximum (lab 08
	 * below sm_80): the same code earns the same share everywhere. */
	if (o->mode == G_GRADE &&
	    g_spec_too_new(&row->spec, dev->cc, NULL, 0)) {
		r->max_points = 0;
		g_detail(r, "left out of the maximum: this GPU cannot run it, "
			    "so its %g points count on a GPU that can",
			 row->spec.points_correct + row->spec.points_speed);
	}
	if (o->mode == G_GRADE && !g_plausible(&row->spec, r, dev))
		g_technique_apply(&row->spec, r);
}

/* Build the list of rows for the labs and exercises asked for (LAB=,
 * EX=, and what the course c grades; c NULL: no course). */
static int collect(const struct options *o, const struct course *c,
		   struct g_row *rows, int max)
{
	char *labs[MAX_LABS], choices[2048] = "";
	struct g_spec specs[MAX_PER_LAB];
	int nlabs = find_labs(o->labs_dir, o->lab, labs, MAX_LABS), n = 0;

	if (nlabs <= 0) {
		fprintf(stderr, "grader: no lab%s%s under %s\n", o->lab ? " named " : "",
			o->lab ? o->lab : "s", o->labs_dir);
		return -1;
	}
	if (lab_words_exist(o->lab, labs, nlabs)) {
		for (int l = 0; l < nlabs; l++)
			free(labs[l]);
		return -1;
	}
	for (int l = 0; l < nlabs; l++) {
		int k, broken;

		if (c && !course_grades_lab(c, labs[l])) {
			free(labs[l]);
			continue;
		}
		k = lab_specs(o, labs[l], specs, MAX_PER_LAB);
		broken = k < 0;

		if (broken)
			k = exercises_from_mk(o->labs_dir, labs[l], specs, MAX_PER_LAB);
		else
			g_rules_load(o->build_dir, labs[l], specs, k);
		for (int i = 0; i < k && n < max; i++) {
			size_t used = strlen(choices);

			snprintf(choices + used, sizeof(choices) - used, " %s",
				 specs[i].name);
			if ((o->ex && strcmp(o->ex, specs[i].name)) ||
			    (c && !course_grades(c, labs[l], specs[i].name)))
				continue;
			memset(&rows[n], 0, sizeof(rows[n]));
			rows[n].spec = specs[i];
			if (broken) {
				rows[n].res.verdict = WB_V_ERROR;
				g_detail(&rows[n].res, "the lab's own code (%s) did not "
						       "build or run: see %s/%s/",
					 labs[l], o->build_dir, labs[l]);
			}
			n++;
		}
		free(labs[l]);
	}
	if (n == 0)
		fprintf(stderr, "grader: no exercise %s in %s%s%s\n",
			o->ex ? o->ex : "", o->lab ? o->lab : "the labs",
			c && c->npicks ? " that the course file grades: " : "",
			c && c->npicks ? c->path : "");
	if (n == 0 && o->ex && choices[0])
		fprintf(stderr, "grader: the exercises there (EX=):%s\n", choices);
	return n ? n : -1;
}

/* "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3". */
static void model_slug(const char *name, char *out, size_t n)
{
	size_t k = 0;

	for (; *name && k + 1 < n; name++) {
		if (isalnum((unsigned char)*name))
			out[k++] = (char)tolower((unsigned char)*name);
		else if (k && out[k - 1] != '-')
			out[k++] = '-';
	}
	while (k && out[k - 1] == '-')
		k--;
	out[k] = '\0';
}

/*
 * With no COURSE=, the calibration make calibrate wrote for this GPU model
 * (CALIBRATIONS/<model>.conf), if there is one, is read as course settings
 * (the same format): the tiers it measured there. 0, or -1 (why in err)
 * when the file is there but wrong.
 */
static int calibration(struct options *o, const struct g_device *dev,
		       struct course *c, char *err, size_t n)
{
	char slug[128];

	if (o->course || !o->calibrations || o->mode == G_BUILD_ONLY ||
	    !dev->name[0])
		return 0;
	model_slug(dev->name, slug, sizeof(slug));
	snprintf(o->calib_path, sizeof(o->calib_path), "%s/%s.conf",
		 o->calibrations, slug);
	if (!exists(o->calib_path))
		return 0;
	if (course_load(o->calib_path, c, err, n) ||
	    course_check_names(c, o->labs_dir, err, n))
		return -1;
	o->course = o->calib_path;
	return 0;
}

/* --check-course labs (or exercises): the lab folders (lab/exercise
 * pairs) the course grades and LAB= allows, one a line, for make, the
 * batch and the Gradescope bundle. Read from lab.mk: nothing is built. */
static int course_labs(const struct options *o, const struct course *c)
{
	static struct g_spec ex[MAX_PER_LAB];
	char *labs[MAX_LABS];
	int n = find_labs(o->labs_dir, o->lab, labs, MAX_LABS), shown = 0;
	int bad = n <= 0 || lab_words_exist(o->lab, labs, n);

	for (int i = 0; i < n; i++) {
		int k = bad || !course_grades_lab(c, labs[i]) ? 0 :
			o->check_course == 2 ? 1 :
			exercises_from_mk(o->labs_dir, labs[i], ex, MAX_PER_LAB);

		for (int e = 0; e < k; e++) {
			if (o->check_course == 2)
				printf("%s\n", labs[i]);
			else if (course_grades(c, labs[i], ex[e].name))
				printf("%s/%s\n", labs[i], ex[e].name);
			else
				continue;
			shown++;
		}
		free(labs[i]);
	}
	if (!bad && !shown)
		fprintf(stderr, "grader: %s grades none of the labs %s\n",
			c->path, o->lab ? o->lab : "here");
	else if (n <= 0)
		fprintf(stderr, "grader: no lab%s%s under %s\n",
			o->lab ? " named " : "s", o->lab ? o->lab : "",
			o->labs_dir);
	return shown ? 0 : 2;
}

/* --check-course summary: what the course grades and what it changes. */
static int course_summary(const struct course *c, const struct g_run *run)
{
	/* Without a lab's table its tiers could not be checked. */
	for (int i = 0; i < run->nrows; i++) {
		const struct g_row *r = &run->rows[i];

		if (r->res.verdict == WB_V_ERROR && r->res.ndetails) {
			fprintf(stderr, "grader: %s/%s: %s: its settings could "
					"not be checked\n", r->spec.lab,
				r->spec.name, r->res.details[0]);
			return 2;
		}
	}
	printf("%s: valid%s%s%s\n", c->path, c->name[0] ? " (" : "", c->name,
	       c->name[0] ? ")" : "");
	printf("assignment: %s\n", c->assignment[0] ? c->assignment :
	       "(not named: its bundle is named after the file)");
	printf("grades %d exercise%s%s:", run->nrows, run->nrows == 1 ? "" : "s",
	       c->npicks ? "" : " (every lab: the file names none)");
	for (int i = 0; i < run->nrows; i++)
		printf(" %s/%s", run->rows[i].spec.lab, run->rows[i].spec.name);
	printf("\nchanges: %s\n", run->course_changes ? "" : "nothing");
	if (run->course_changes)
		printf("%s\n", run->course_changes);
	return 0;
}

static void on_interrupt(int sig)
{
	(void)sig;
	proc_kill_current();
	_exit(130);
}

static void header(const struct options *o, const struct g_run *run)
{
	if (o->mode == G_BUILD_ONLY) {
		printf("Checking %s without a GPU: each exercise built and "
		       "inspected, no kernel run\n", o->source);
		fflush(stdout); /* before any line of the progress */
		return;
	}
	printf("%s %s on %s (sm_%d, %d SMs, %.0f MB L2, driver %s)\n",
	       o->profile_only ? "Profiling" :
	       o->mode == G_BENCH ? "Benchmarking" : "Grading", o->source,
	       run->dev.name, run->dev.cc, run->dev.sms, run->dev.l2_mb,
	       run->dev.driver);
	printf("copy bandwidth %.0f GB/s", run->dev.copy_gbps);
	if (run->dev.launch_us > 0)
		printf(", a kernel launch %.1f us (%.1f us waited for)",
		       run->dev.launch_us, run->dev.launch_sync_us);
	printf(" (measured now); seed %llu\n", run->seed);
}

static int finish(const struct options *o, struct g_run *run)
{
	int all_ok = 1;

	if (o->mode == G_BENCH)
		report_bench(stdout, run);
	else
		report_table(stdout, run);
	/* A graded attempt joins its roots' histories before the report
	 * draws them; a single size (SIZE=) is not an attempt. */
	if (o->history && o->mode == G_GRADE && !o->size) {
		hist_locate(run, o->build_dir, o->history);
		hist_append(run, time(NULL));
	}
	if (o->solutions_run)
		html_load_solutions(o->solutions_run);
	report_outputs_write(&o->out, run, stdout);
	for (int i = 0; i < run->nrows; i++) {
		enum wb_verdict v = run->rows[i].res.verdict;

		all_ok &= v == WB_V_PASS || (o->mode == G_BUILD_ONLY &&
					     (v == WB_V_BUILT || v == WB_V_SKELETON));
	}
	return all_ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	static struct g_row rows[MAX_ROWS];
	static struct course course;
	static struct gpu_state gpu;
	struct options o;
	struct g_run run;
	char err[1024];

	if (parse_args(argc, argv, &o))
		return usage();
	/* The probe alone, under the GPU lock (make grade, beside the
	 * build): exit 2 and one line when there is no usable GPU. */
	if (o.probe_only) {
		gpu_begin(&gpu);
		return run_probe(&o, o.probe_only) ? 2 : 0;
	}
	/* Some exercises always run compute-sanitizer: find it once. */
	o.sanitizer_found = san_locate(o.sanitizer, getenv("CUDA_HOME") ?
				       getenv("CUDA_HOME") : "/usr/local/cuda",
				       getenv("PATH"), o.sanitizer_at,
				       sizeof(o.sanitizer_at));
	if (o.reference_dir)
		mkdir(o.reference_dir, 0755); /* one level: under the build */
	/* A mistake in the course settings stops everything, GPU or not. */
	if (o.course && (course_load(o.course, &course, err, sizeof(err)) ||
			 course_check_names(&course, o.labs_dir, err, sizeof(err)))) {
		fprintf(stderr, "grader: %s\n", err);
		return 2;
	}
	memset(&run, 0, sizeof(run));
	signal(SIGINT, on_interrupt);
	signal(SIGTERM, on_interrupt);
	run.source = o.source;
	run.mode = o.mode;
	run.seed = o.have_seed ? o.seed : fresh_seed();
	o.seed = run.seed;
	run.rows = rows;
	/* No results file may outlive the run it does not describe. */
	report_outputs_remove(&o.out);
	/* One grading run per GPU, from the bandwidth probe on (gpustate.h). */
	if (o.mode != G_BUILD_ONLY)
		gpu_begin(&gpu);
	if (o.mode != G_BUILD_ONLY && probe_device(&o, &run.dev))
		return 2;
	gpu_peaks(&gpu, &run.dev);
	if (calibration(&o, &run.dev, &course, err, sizeof(err))) {
		fprintf(stderr, "grader: %s\n", err);
		return 2;
	}
	run.calibration = o.course && o.course == o.calib_path;
	if (o.check_course >= 2)
		return course_labs(&o, &course);
	run.nrows = collect(&o, o.course ? &course : NULL, rows, MAX_ROWS);
	if (run.nrows < 0)
		return 2;
	if (o.course && course_apply_run(&course, &run, err, sizeof(err))) {
		fprintf(stderr, "grader: %s\n", err);
		return 2;
	}
	if (o.check_course)
		return course_summary(&course, &run);
	if (o.propose)
		return calib_run(o.propose, rows, run.nrows, stdout);
	if (o.score)
		return calib_score(o.score, rows, run.nrows, stdout);
	header(&o, &run);
	if (o.mode != G_BUILD_ONLY)
		gpu_report_start(&gpu, &run, stdout);
	if (o.ncu || o.profile_only) {
		ncu_init(&prof, o.ncu, run.seed, run.dev.copy_gbps);
		prof.shape = o.shape;
		prof.cc = run.dev.cc;
	}
	if (o.profile_only)
		return ncu_all(&prof, rows, run.nrows, o.build_dir, o.sol_build,
				o.with, o.profile_tsv);
	fflush(stdout); /* the heading before the progress (stderr) */
	for (int i = 0; i < run.nrows; i++) {
		struct g_row *row = &rows[i];
		/* build-only takes no time an exercise: no progress lines */
		int quiet = o.mode == G_BUILD_ONLY;

		if (!quiet)
			fprintf(stderr, "[%d/%d] %s/%s ...", i + 1, run.nrows,
				row->spec.lab, row->spec.name);
		if (row->res.verdict != WB_V_ERROR || !row->res.ndetails)
			run_exercise(&o, &run.dev, row);
		gpu_after_exercise(&gpu);
		if (!quiet)
			fprintf(stderr, " %s (%.1f s)\n",
				wb_verdict_label(row->res.verdict),
				row->res.wall_s);
	}
	if (o.mode != G_BUILD_ONLY)
		gpu_report_end(&gpu, &run, o.mode == G_BENCH ? stdout : NULL);
	return finish(&o, &run);
}
