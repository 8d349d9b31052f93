/* SPDX-License-Identifier: MIT */
/*
 * ncu.c - the code under Nsight Compute, for make profile and make grade
 * PROFILE=1 (ncu.h). One run per implementation:
 *
 *   ncu --profile-from-start off --clock-control none --csv --page raw
 *       --print-units base --print-kernel-base function --log-file LOG
 *       --metrics LIST  RUNNER --exercise E --seed S --result RES
 *       --mode profile --impl I --shape K
 *
 * --profile-from-start off: only the call the runner brackets with
 * cudaProfilerStart/Stop is profiled (common/profile_mode.c).
 * --clock-control none: the grader never changes clocks, and ncu would
 * otherwise lock them to base. ncu's default --cache-control all flushes
 * the caches before every replay pass, like the grader's timing.
 *
 * ncu's output goes to LOG (kept next to the runner as
 * <runner>.<impl>.ncu.csv: tests/gpu/record-ncu.sh records the unit tests'
 * fixtures from it), the program's to <runner>.<impl>.ncu.out. A metric
 * this ncu does not know is dropped and the run repeated. When ncu is
 * missing or may not read the counters, one line says so, once, and the
 * rest goes on without profiles.
 */
#include "ncu.h"
#include "metrics.h"
#include "ncu_csv.h"
#include "proc.h"
#include "profile_derive.h"
#include "profile_render.h"
#include "record.h"
#include "report.h"
#include "score.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Seconds for one profiled run: ncu starts slowly and replays every kernel
 * once per pass (a dozen or more passes for the metrics asked). */
#define PROF_TIMEOUT_S 300.0

/* Runs allowed to find the metrics this ncu does not know (it may name
 * only the first each time). */
#define MAX_TRIES 8

/* A call of at most this many kernels gets a column per kernel. */
#define KERNEL_COLUMNS 4

#define PATH_LEN 1024

int ncu_init(struct ncu_ctx *pc, const char *ncu, unsigned long long seed,
	     double copy_gbps)
{
	memset(pc, 0, sizeof(*pc));
	pc->ncu = ncu;
	pc->seed = seed;
	pc->copy_gbps = copy_gbps;
	pc->timeout_s = PROF_TIMEOUT_S;
	if (!ncu || !*ncu) {
		snprintf(pc->why, sizeof(pc->why), "no Nsight Compute (ncu) on "
			 "PATH or in the CUDA Toolkit: profiles skipped (install "
			 "it, or give its path: NCU=/path/to/ncu)");
	} else if (access(ncu, X_OK)) {
		snprintf(pc->why, sizeof(pc->why), "no Nsight Compute at %.200s: "
			 "profiles skipped (NCU=/path/to/ncu)", ncu);
	} else {
		return 0;
	}
	pc->disabled = 1;
	return -1;
}

/* Print why profiles are off, once per run of the grader. */
static void say_once(struct ncu_ctx *pc)
{
	if (pc->said)
		return;
	pc->said = 1;
	printf("profile: %s\n", pc->why);
	fflush(stdout);
}

static int is_dropped(const struct ncu_ctx *pc, const char *name)
{
	for (int i = 0; i < pc->ndropped; i++) {
		size_t n = strlen(pc->dropped[i]);

		if (!strncmp(name, pc->dropped[i], n) &&
		    (name[n] == '\0' || name[n] == '.'))
			return 1;
	}
	return 0;
}

/* Remember the metrics ncu did not know; 1 if that drops one more. */
static int drop_unknown(struct ncu_ctx *pc, const struct prof_run *r)
{
	int more = 0;

	for (int i = 0; i < r->nunknown && pc->ndropped < PROF_MAX_UNKNOWN; i++) {
		int before = 0, after = 0;

		for (int m = 0; m < PROF_NMETRICS; m++)
			before += is_dropped(pc, metric_name(m));
		snprintf(pc->dropped[pc->ndropped++], PROF_NAME_LEN, "%s",
			 r->unknown[i]);
		for (int m = 0; m < PROF_NMETRICS; m++)
			after += is_dropped(pc, metric_name(m));
		more |= after > before;
	}
	return more;
}

/* The metrics to ask for, comma-separated, in a new string. */
static char *metric_list(const struct ncu_ctx *pc)
{
	size_t len = 1;
	char *list;

	for (int m = 0; m < PROF_NMETRICS; m++)
		len += strlen(metric_name(m)) + 1;
	list = malloc(len);
	if (!list)
		return NULL;
	list[0] = '\0';
	for (int m = 0; m < PROF_NMETRICS; m++) {
		if (is_dropped(pc, metric_name(m)))
			continue;
		if (*list)
			strcat(list, ",");
		strcat(list, metric_name(m));
	}
	return list;
}

/* Two files' contents, one after the other (either may be missing). */
static char *read_both(const char *a, const char *b)
{
	char *x = read_file(a, 1 << 24), *y = read_file(b, 1 << 24), *both;
	size_t nx = x ? strlen(x) : 0, ny = y ? strlen(y) : 0;

	both = malloc(nx + ny + 2);
	if (both) {
		memcpy(both, x ? x : "", nx);
		both[nx] = '\n';
		memcpy(both + nx + 1, y ? y : "", ny);
		both[nx + ny + 1] = '\0';
	}
	free(x);
	free(y);
	return both;
}

/* One run under ncu; the status in out. */
static enum prof_status run_once(struct ncu_ctx *pc, const char *runner,
				 const char *exercise, const char *impl,
				 struct prof_run *out)
{
	char log[PATH_LEN], outp[PATH_LEN], res[PATH_LEN], seed[32], shape[16];
	char *list = metric_list(pc), *text, *record;
	char *argv[] = { (char *)pc->ncu, "--profile-from-start", "off",
			 "--clock-control", "none", "--csv", "--page", "raw",
			 "--print-units", "base", "--print-kernel-base",
			 "function", "--log-file", log, "--metrics", list,
			 (char *)runner, "--exercise", (char *)exercise, "--seed",
			 seed, "--result", res, "--mode", "profile", "--impl",
			 (char *)impl, "--shape", shape, NULL };
	struct proc_result pr;

	memset(out, 0, sizeof(*out));
	snprintf(log, sizeof(log), "%s.%s.ncu.csv", runner, impl);
	snprintf(outp, sizeof(outp), "%s.%s.ncu.out", runner, impl);
	snprintf(res, sizeof(res), "%s.%s.ncu.result", runner, impl);
	snprintf(seed, sizeof(seed), "%llu", pc->seed);
	snprintf(shape, sizeof(shape), "%d", pc->shape);
	remove(log);
	remove(res);
	if (!list || proc_run(argv, outp, pc->timeout_s, &pr) < 0) {
		out->status = PROF_ERROR;
		snprintf(out->why, sizeof(out->why), "could not start %.200s",
			 pc->ncu);
		free(list);
		return out->status;
	}
	free(list);
	if (pr.timed_out) {
		out->status = PROF_ERROR;
		snprintf(out->why, sizeof(out->why), "ncu did not finish in %.0f "
			 "s: killed", pc->timeout_s);
		return out->status;
	}
	text = read_both(log, outp);
	record = read_file(res, 1 << 20);
	ncsv_read(text, record, out);
	free(text);
	free(record);
	return out->status;
}

enum prof_status ncu_collect(struct ncu_ctx *pc, const char *runner,
			     const char *exercise, const char *impl,
			     struct prof_run *out)
{
	memset(out, 0, sizeof(*out));
	if (pc->disabled) {
		out->status = PROF_NO_NCU;
		snprintf(out->why, sizeof(out->why), "%s", pc->why);
		return out->status;
	}
	for (int tries = 1; run_once(pc, runner, exercise, impl, out) ==
	     PROF_BAD_METRICS; tries++) {
		if (tries == MAX_TRIES || !drop_unknown(pc, out)) {
			out->status = PROF_ERROR;
			break;
		}
	}
	/* Counters refused, or profiling not supported on this GPU (a
	 * virtual GPU): every later run would say the same. */
	if (out->status == PROF_NO_PERMISSION ||
	    (out->status == PROF_ERROR && strstr(out->why, "not supported"))) {
		pc->disabled = 1;
		snprintf(pc->why, sizeof(pc->why), "%.*s; profiles skipped",
			 G_DETAIL_LEN - 32, out->why);
	}
	return out->status;
}

/* The columns for one run: its kernels (when few) and all combined. */
static int run_views(const struct ncu_ctx *pc, const struct prof_run *r,
		     const char *label, struct prof_view *v, int max)
{
	int n = 0;

	if (r->nk > 1 && r->nk <= KERNEL_COLUMNS && r->nk < max)
		for (int k = 0; k < r->nk; k++)
			prof_view_kernel(r, k, &v[n++]);
	prof_view_all(r, label, &v[n]);
	n++;
	for (int i = 0; i < n; i++)
		v[i].copy_gbps = pc->copy_gbps;
	return n;
}

/* "lts__t_sectors_srcunit_tex_op_write, ...": what this ncu did not know. */
static int dropped_note(const struct ncu_ctx *pc, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < pc->ndropped && len < n; i++)
		len += snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
				pc->dropped[i]);
	return pc->ndropped;
}

/* "sum_kernel 77.9 us, key_to_index 2.0 us" */
static void kernel_list(const struct prof_run *r, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < r->nk && len < n; k++) {
		double t = r->k[k].m[M_TIME_NS];

		len += snprintf(buf + len, n - len, "%s%s", k ? ", " : "",
				r->k[k].name);
		/* No duration: this ncu did not know the metric. */
		if (!isnan(t) && len < n)
			len += snprintf(buf + len, n - len, " %.1f us", t / 1e3);
	}
	if (r->dropped_kernels && len < n)
		snprintf(buf + len, n - len, " and %d more kernels",
			 r->dropped_kernels);
}

void ncu_attach(struct ncu_ctx *pc, const char *runner,
		const struct g_spec *s, struct g_result *r)
{
	static struct prof_run run;
	struct prof_view v[KERNEL_COLUMNS + 1];
	char lines[PROF_MAX_LINES][G_DETAIL_LEN], kernels[G_DETAIL_LEN];
	int nv, n;

	if (ncu_collect(pc, runner, s->name, "student", &run) != PROF_OK) {
		if (pc->disabled)
			say_once(pc);
		else
			g_detail(r, "profile: %s", run.why);
		return;
	}
	nv = run_views(pc, &run, "yours", v, KERNEL_COLUMNS + 1);
	kernel_list(&run, kernels, sizeof(kernels));
	g_detail(r, "profile at %s (Nsight Compute, one call): %s", run.shape,
		 kernels);
	n = render_table(v, nv, nv - 1, run.groups, lines, PROF_MAX_LINES);
	for (int i = 0; i < n; i++)
		g_detail(r, "  %s", lines[i]);
	if (dropped_note(pc, kernels, sizeof(kernels)))
		g_detail(r, "  (this ncu does not know %s: rows that need them "
			 "show -)", kernels);
}

/* ---- make profile ---- */

#define MAX_COLUMNS 4

struct column {
	const char *label;
	char runner[PATH_LEN];
	const char *impl;
	struct prof_run run;
};

/* The columns asked for: the submission, then WITH's names in order. */
static int columns(const char *build_dir, const char *sol_dir,
		   const char *with, const struct g_spec *s, struct column *c,
		   FILE *out)
{
	char names[256], *save = NULL;
	int n = 0;

	c[n].label = "yours";
	c[n].impl = "student";
	snprintf(c[n++].runner, PATH_LEN, "%s/%s/%s", build_dir, s->lab, s->name);
	snprintf(names, sizeof(names), "%s", with ? with : "");
	for (char *w = strtok_r(names, ", ", &save); w && n < MAX_COLUMNS;
	     w = strtok_r(NULL, ", ", &save)) {
		if (!strcmp(w, "naive")) {
			c[n].label = "naive";
			c[n].impl = c[n].label;
			memcpy(c[n++].runner, c[0].runner, PATH_LEN);
		} else if (!strcmp(w, "peer")) {
			/* Only the lab's info binary links the peers. */
			c[n].label = "peer";
			c[n].impl = c[n].label;
			snprintf(c[n++].runner, PATH_LEN, "%s/%s/info", build_dir,
				 s->lab);
		} else if (!strcmp(w, "solution") && sol_dir) {
			c[n].label = "solution";
			c[n].impl = "student";
			snprintf(c[n++].runner, PATH_LEN, "%s/%s/%s", sol_dir,
				 s->lab, s->name);
		} else {
			fprintf(out, "profile: WITH=%s: not a column (naive, "
				"peer, solution)\n", w);
		}
	}
	return n;
}

static void tsv_view(FILE *tsv, const struct g_spec *s, const char *col,
		     const struct prof_run *r, const struct prof_view *v)
{
	int ids[PROF_NHINTS], k;
	double x;

	if (!tsv)
		return;
	for (int i = 0; i < r->nk; i++)
		for (int m = 0; m < PROF_NMETRICS; m++)
			if (!isnan(r->k[i].m[m]))
				fprintf(tsv, "%s\t%s\t%s\t%s\t%s\t%.6g\n", s->lab,
					s->name, col, r->k[i].name,
					metric_name(m), r->k[i].m[m]);
	if (prof_ld_sectors_per_request(v, &x))
		fprintf(tsv, "%s\t%s\t%s\tall\tld_sectors_per_request\t%.6g\n",
			s->lab, s->name, col, x);
	if (prof_ld_ideal(v, &x))
		fprintf(tsv, "%s\t%s\t%s\tall\tld_ideal\t%.6g\n", s->lab,
			s->name, col, x);
	if (prof_ld_excess(v, &x))
		fprintf(tsv, "%s\t%s\t%s\tall\tld_excess\t%.6g\n", s->lab,
			s->name, col, x);
	if (prof_st_excess(v, &x))
		fprintf(tsv, "%s\t%s\t%s\tall\tst_excess\t%.6g\n", s->lab,
			s->name, col, x);
	if (prof_traffic_ratio(v, &x))
		fprintf(tsv, "%s\t%s\t%s\tall\ttraffic_ratio\t%.6g\n", s->lab,
			s->name, col, x);
	k = prof_hints(v, r->groups, ids, NULL, PROF_NHINTS);
	for (int i = 0; i < k; i++)
		fprintf(tsv, "%s\t%s\t%s\tall\thint\t%s\n", s->lab, s->name, col,
			prof_hint_names[ids[i]]);
}

int ncu_exercise(struct ncu_ctx *pc, const char *build_dir,
		 const char *sol_dir, const char *with,
		 const struct g_spec *s, FILE *out, FILE *tsv)
{
	static struct column c[MAX_COLUMNS];
	struct prof_view v[MAX_COLUMNS + KERNEL_COLUMNS];
	char lines[PROF_MAX_LINES][G_DETAIL_LEN], kernels[G_DETAIL_LEN];
	const char *shape = NULL;
	unsigned groups = 0;
	int n, nv = 0, ok = 0;

	if (pc->disabled) {
		say_once(pc);
		return 0;
	}
	fprintf(out, "\n%s/%s: ", s->lab, s->name);
	if (!s->speed) {
		fprintf(out, "correctness only: nothing is timed, nothing to "
			"profile\n");
		return 0;
	}
	n = columns(build_dir, sol_dir, with, s, c, out);
	fprintf(out, "Nsight Compute, one call each at the benchmark size "
		"(clocks as they are, caches flushed before each pass)\n");
	fflush(out);
	for (int i = 0; i < n; i++) {
		struct prof_run *r = &c[i].run;

		if (!file_exists(c[i].runner)) {
			memset(r, 0, sizeof(*r));
			r->status = PROF_RUN_FAILED;
			snprintf(r->why, sizeof(r->why), "not built (a compile "
				 "error? see %.200s.log)", c[i].runner);
		} else if (ncu_collect(pc, c[i].runner, s->name, c[i].impl, r) !=
			   PROF_OK && pc->disabled) {
			say_once(pc);
			return 0;
		}
		if (r->status != PROF_OK) {
			fprintf(out, "  %-9s %s\n", c[i].label, r->why);
			continue;
		}
		kernel_list(r, kernels, sizeof(kernels));
		fprintf(out, "  %-9s %s\n", c[i].label, kernels);
		if (!ok++) {
			groups = r->groups;
			shape = r->shape;
		}
	}
	if (!ok) /* each column said why; only ncu's own failures count */
		for (int i = 0; i < n; i++)
			if (c[i].run.status == PROF_ERROR)
				return 1;
	if (!ok)
		return 0;
	/* One column per run; a single run with a few kernels shows each. */
	for (int i = 0; i < n; i++) {
		struct prof_run *r = &c[i].run;

		if (r->status != PROF_OK)
			continue;
		if (ok == 1) {
			nv = run_views(pc, r, c[i].label, v, KERNEL_COLUMNS + 1);
		} else {
			prof_view_all(r, c[i].label, &v[nv]);
			v[nv++].copy_gbps = pc->copy_gbps;
		}
		tsv_view(tsv, s, c[i].label, r, &v[nv - 1]);
	}
	fprintf(out, "  at %s; the ideal and the meaning are for %s\n\n", shape,
		v[ok == 1 ? nv - 1 : 0].label);
	n = render_table(v, nv, ok == 1 ? nv - 1 : 0, groups, lines,
			 PROF_MAX_LINES);
	for (int i = 0; i < n; i++)
		fprintf(out, "  %s\n", lines[i]);
	if (dropped_note(pc, kernels, sizeof(kernels)))
		fprintf(out, "  (this ncu does not know %s: rows that need them "
			"show -)\n", kernels);
	return 0;
}

int ncu_all(struct ncu_ctx *pc, const struct g_row *rows, int n,
	    const char *build_dir, const char *sol_dir, const char *with,
	    const char *tsv_path)
{
	FILE *tsv = tsv_path ? fopen(tsv_path, "w") : NULL;
	char why[160];
	int bad = 0;

	if (tsv)
		fprintf(tsv, "lab\texercise\tcolumn\tkernel\tmetric\tvalue\n");
	for (int i = 0; i < n; i++) {
		const struct g_row *row = &rows[i];

		/* A lab whose own code did not build says so in its details. */
		if (row->res.verdict == WB_V_ERROR && row->res.ndetails) {
			printf("\n%s/%s: %s\n", row->spec.lab, row->spec.name,
			       row->res.details[0]);
			bad = 1;
			continue;
		}
		/* Nothing of it runs on this GPU: said, not a failure. */
		if (g_spec_too_new(&row->spec, pc->cc, why, sizeof(why))) {
			printf("\n%s/%s: not profiled: %s\n", row->spec.lab,
			       row->spec.name, why);
			continue;
		}
		bad |= ncu_exercise(pc, build_dir, sol_dir, with, &row->spec,
				    stdout, tsv);
	}
	if (tsv && fclose(tsv))
		fprintf(stderr, "grader: cannot write %s\n", tsv_path);
	return bad;
}
