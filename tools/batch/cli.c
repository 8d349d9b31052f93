/* SPDX-License-Identifier: MIT */
/*
 * cli.c - the batch tool's command line (cli.h): its usage message, and
 * its options read into struct cli, each checked as it is read (main.c's
 * top comment lists the modes; docs/batch-grading.md the settings make
 * batch passes).
 *
 * Floor 6 (batch.h): uses conf and util.
 */
#include "cli.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_usage(void)
{
	fprintf(stderr,
"usage: batch --submissions DIR [--out DIR] [--lab LAB] [--build-only]\n"
"             [--jobs N] [--gpus 0,1,...] [--seed N] [--timeout-cap S]\n"
"             [--course FILE] [--grader-arg ARG]... [--sandbox require|off]\n"
"             [--sandbox-user NAME] [--nproc N] [--mem SIZE] [--cgroup DIR]\n"
"             [--repo DIR] [--build DIR] [--objs DIR] [--sm LIST] [--cuda DIR]\n"
"             [--grader PATH] [--devinfo PATH]\n"
"             [--build-timeout S] [--grade-timeout S]\n"
"             [--regrade all|ID,...] [--ids ids.csv] [--times times.csv]\n"
"             [--manifest FILE --chunk N --task K]   one Slurm array task\n"
"       batch ... --merge                           rebuild the gradebook\n"
"       batch ... --slurm-script [--chunk N] [--partition P] [--time T]\n"
"                 [--cpus N] [--slurm-arg '#SBATCH option']...\n"
"                 [--gpu-type T | --constraint C] [--slurm-mem M] [--exclusive]\n"
"                 [--merge-partition P] [--slurm-prologue 'module load cuda']\n"
"       batch ... --exec STUDENT -- COMMAND [ARGS]  run in STUDENT's sandbox\n"
"       batch --sandbox-exec --scratch DIR [--gpus G] [--build-only] [options]\n"
"             -- COMMAND [ARGS]   run in a sandbox whose writable folder is DIR\n"
"             (test hooks: --dev-dir DIR --nvidia-proc DIR, a fake GPU layout)\n"
"       batch --take-json FROM TO     copy a sandbox's results.json out, checked\n"
"       batch --leaderboard JSON TSV  add Gradescope's leaderboard to JSON\n"
"Run it through make batch / make slurm-script: docs/batch-grading.md.\n");
	return 2;
}

/* "16G", "512M", "64K" or bytes; -1 if it is none of these. */
static long long parse_size(const char *v)
{
	char *end;
	long long n = strtoll(v, &end, 10);

	if (end == v || n < 0)
		return -1;
	switch (*end) {
	case 'G': case 'g':
		n <<= 10;
		/* fall through */
	case 'M': case 'm':
		n <<= 10;
		/* fall through */
	case 'K': case 'k':
		n <<= 10;
		end++;
		break;
	}
	return *end ? -1 : n;
}

static int parse_sandbox(struct bt_conf *c, const char *a, const char *v)
{
	if (!strcmp(a, "--sandbox")) {
		/* auto was the old default, which fell back to no sandbox:
		 * now it means require, like everything but off. */
		if (!strcmp(v, "auto") || !strcmp(v, "require"))
			c->sandbox = BT_SB_REQUIRE;
		else if (!strcmp(v, "off"))
			c->sandbox = BT_SB_OFF;
		else
			return -1;
	} else if (!strcmp(a, "--sandbox-user")) {
		c->sandbox_user = *v ? v : NULL;
	} else if (!strcmp(a, "--nproc")) {
		c->nproc_opt = *v ? v : NULL;
		c->nproc = *v ? atol(v) : 0;
		if (*v && c->nproc <= 0)
			return -1;
	} else if (!strcmp(a, "--mem")) {
		c->mem_opt = *v ? v : NULL;
		c->mem = *v ? parse_size(v) : 0;
		if (c->mem < 0)
			return -1;
	} else if (!strcmp(a, "--cgroup")) {
		if (*v && *v != '/')
			return -1; /* an absolute path: Slurm's nodes too */
		bt_fmt(c->cgroup, sizeof(c->cgroup), "%s", v);
	} else if (!strcmp(a, "--dev-dir")) {
		c->devdir = v;
	} else if (!strcmp(a, "--nvidia-proc")) {
		c->nvproc = v;
	} else {
		return 1;
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *k)
{
	struct bt_conf *c = &k->c;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int flag = 1;

		if (!strcmp(a, "--build-only"))
			c->build_only = 1;
		else if (!strcmp(a, "--merge"))
			k->merge = 1;
		else if (!strcmp(a, "--slurm-script"))
			k->slurm = 1;
		else if (!strcmp(a, "--sandbox-exec"))
			k->sandbox_exec = 1;
		else if (!strcmp(a, "--exclusive"))
			c->exclusive = 1;
		else if (!strcmp(a, "--")) {
			k->exec_argv = argv + i + 1;
			break;
		} else
			flag = 0;
		if (flag)
			continue;
		if (!v)
			return -1;
		i++;
		flag = parse_sandbox(c, a, v);
		if (flag < 0)
			return -1;
		if (!flag)
			continue;
		if (!strcmp(a, "--submissions"))
			k->subs = v;
		else if (!strcmp(a, "--out"))
			k->out = v;
		else if (!strcmp(a, "--repo"))
			k->repo = v;
		else if (!strcmp(a, "--build"))
			k->build = v;
		else if (!strcmp(a, "--objs"))
			k->objs = v;
		else if (!strcmp(a, "--grader"))
			k->grader = v;
		else if (!strcmp(a, "--devinfo"))
			k->devinfo = v;
		else if (!strcmp(a, "--cuda"))
			k->cuda = v;
		else if (!strcmp(a, "--course"))
			k->course = *v ? v : NULL;
		else if (!strcmp(a, "--sm"))
			c->sm = *v ? v : NULL;
		else if (!strcmp(a, "--lab"))
			c->lab = *v ? v : NULL;
		else if (!strcmp(a, "--seed"))
			c->seed = *v ? v : NULL;
		else if (!strcmp(a, "--timeout-cap"))
			c->timeout_cap = *v ? v : NULL;
		else if (!strcmp(a, "--jobs"))
			c->jobs = atoi(v);
		else if (!strcmp(a, "--gpus"))
			bt_fmt(k->gpus_buf, sizeof(k->gpus_buf), "%s", v);
		else if (!strcmp(a, "--build-timeout"))
			c->build_timeout = atof(v);
		else if (!strcmp(a, "--grade-timeout"))
			c->grade_timeout = atof(v);
		else if (!strcmp(a, "--manifest"))
			k->manifest = v;
		else if (!strcmp(a, "--regrade"))
			c->regrade = *v ? v : NULL;
		else if (!strcmp(a, "--ids"))
			c->ids = *v ? v : NULL;
		else if (!strcmp(a, "--times"))
			c->times = *v ? v : NULL;
		else if (!strcmp(a, "--chunk"))
			c->chunk = atoi(v);
		else if (!strcmp(a, "--task")) {
			c->task = atoi(v);
			k->task_given = 1;
		} else if (!strcmp(a, "--partition"))
			c->partition = v;
		else if (!strcmp(a, "--time"))
			c->time_limit = v;
		else if (!strcmp(a, "--cpus"))
			c->cpus = v;
		else if (!strcmp(a, "--gpu-type"))
			c->gpu_type = *v ? v : NULL;
		else if (!strcmp(a, "--constraint"))
			c->constraint = *v ? v : NULL;
		else if (!strcmp(a, "--slurm-mem"))
			c->slurm_mem = *v ? v : NULL;
		else if (!strcmp(a, "--merge-partition"))
			c->merge_partition = *v ? v : NULL;
		else if (!strcmp(a, "--slurm-prologue"))
			c->prologue = *v ? v : NULL;
		else if (!strcmp(a, "--exec"))
			k->exec_id = v;
		else if (!strcmp(a, "--scratch"))
			k->scratch = v;
		else if (!strcmp(a, "--grader-arg") && c->ngrader_args < BT_MAX_EXTRA)
			c->grader_args[c->ngrader_args++] = v;
		else if (!strcmp(a, "--slurm-arg") && c->nslurm_args < BT_MAX_EXTRA)
			c->slurm_args[c->nslurm_args++] = v;
		else
			return -1;
	}
	if (k->sandbox_exec)
		return k->scratch && k->exec_argv && *k->exec_argv ? 0 : -1;
	if (!k->subs || (k->exec_id && !k->exec_argv) || c->chunk < 0 ||
	    c->jobs < 0 || (k->task_given && (!k->manifest || c->task < 0)))
		return -1;
	return 0;
}
