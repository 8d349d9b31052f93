/* SPDX-License-Identifier: MIT */
/*
 * main.c - the grader's driver: its options, and a table of commands.
 *
 * Each command is a file of cmd/ (cmd.h): the GPU probe alone, a course
 * file checked, a calibration's tiers proposed or scored, make profile,
 * and the grade itself (make grade, bench and check), which sends every
 * exercise on its trip (run/trip.c). The first command whose test the
 * options pass runs; the grade is the last, and takes what is left.
 *
 * The grader never touches the GPU itself: the device is probed by
 * devinfo and every exercise runs in a child (grade.h).
 *
 * Exit status: 0 every graded exercise passed, 1 some did not, 2 nothing
 * could be graded (no GPU, bad arguments, nothing built).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "formats.h"

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

/* ---- the commands ---- */

static int wants_probe(const struct options *o) { return !!o->probe_only; }
static int wants_course(const struct options *o) { return !!o->check_course; }
static int wants_propose(const struct options *o) { return !!o->propose; }
static int wants_score(const struct options *o) { return !!o->score; }
static int wants_profile(const struct options *o) { return o->profile_only; }

struct command {
	const char *name;
	int (*wanted)(const struct options *o); /* NULL: always */
	int (*run)(struct cmd_state *st);
};

/* In order: the first wanted runs. */
static const struct command commands[] = {
	{ "probe",   wants_probe,   cmd_probe },   /* --probe-only FILE */
	{ "course",  wants_course,  cmd_course },  /* --check-course WHAT */
	{ "propose", wants_propose, cmd_propose }, /* --propose-tiers TSV */
	{ "score",   wants_score,   cmd_score },   /* --score-recording TSV */
	{ "profile", wants_profile, cmd_profile }, /* --mode profile */
	{ "grade",   NULL,          cmd_grade },   /* grade, bench, build-only */
};

int main(int argc, char **argv)
{
	static struct cmd_state st; /* large: the rows */
	const struct command *c = commands;

	if (parse_args(argc, argv, &st.o))
		return usage();
	while (c->wanted && !c->wanted(&st.o))
		c++;
	return c->run(&st);
}
