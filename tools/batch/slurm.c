/* SPDX-License-Identifier: MIT */
/*
 * slurm.c - a batch as a Slurm job array (make slurm-script).
 *
 * Written into <out>/slurm/:
 *   manifest      the submissions, one entry name a line, in the order the
 *                 tasks share them out (chunk k: lines k*CHUNK...)
 *   grade.sbatch  the job array: task k runs this batch program on chunk k
 *                 of the manifest, with one GPU (--gres=gpu:1, or
 *                 gpu:TYPE:1; a --constraint, --mem, --exclusive as asked).
 *                 It first runs the prologue (module load ...), then
 *                 refuses a node whose GPU is not one of the architectures
 *                 the batch was built for (SM=), before grading anything
 *   merge.sbatch  one small job, with no GPU, on the merge partition (a CPU
 *                 one; without it, the cluster's default), that folds every
 *                 student's finished folder into the gradebook (batch
 *                 --merge)
 *   submit.sh     submits both, the merge after the whole array
 *                 (--dependency=afterany), and says where to look
 *
 * Every task writes only its own students' folders (atomically, as on one
 * machine), so tasks never touch each other's files and a task that
 * fails or is resubmitted only regrades what it did not finish.
 *
 * Floor 5 (batch.h): uses conf, sub, util and files.
 */
#include "slurm.h"
#include "files.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Array tasks: the most make slurm-script makes unless CHUNK= says
 * otherwise, and the most it makes at all. */
#define BT_SLURM_TASKS 100
#define BT_SLURM_MAX_TASKS 1000

/* " --name 'value'" into the command line being built. */
static void opt(FILE *f, const char *name, const char *value)
{
	char q[2 * BT_PATH];

	if (!value || !*value)
		return;
	bt_shell_quote(value, q, sizeof(q));
	fprintf(f, " \\\n\t%s %s", name, q);
}

/* The batch command every script runs, without its last options. The
 * toolkit is CUDA_HOME where the prologue set one (module load), else the
 * one make used here. */
static void command(FILE *f, const struct bt_conf *c, const char *self)
{
	char q[2 * BT_PATH], manifest[BT_PATH], chunk[16];

	bt_shell_quote(c->cuda, q, sizeof(q));
	fprintf(f, "wb_cuda=${CUDA_HOME:-%s}\n", q);
	bt_shell_quote(self, q, sizeof(q));
	fprintf(f, "exec %s", q);
	opt(f, "--repo", c->repo);
	opt(f, "--build", c->build);
	opt(f, "--objs", c->objs);
	opt(f, "--grader", c->grader);
	opt(f, "--devinfo", c->devinfo);
	fprintf(f, " \\\n\t--cuda \"$wb_cuda\"");
	opt(f, "--sm", c->sm);
	opt(f, "--submissions", c->subs);
	opt(f, "--out", c->out);
	opt(f, "--lab", c->lab);
	opt(f, "--seed", c->seed);
	opt(f, "--timeout-cap", c->timeout_cap);
	opt(f, "--course", c->course);
	opt(f, "--ids", c->ids);
	opt(f, "--times", c->times);
	/* A node without a sandbox grades nothing (unless SANDBOX=off was
	 * asked for here): each task stops with the reason in its log. */
	opt(f, "--sandbox", c->sandbox == BT_SB_OFF ? "off" : "require");
	opt(f, "--sandbox-user", c->sandbox_user);
	opt(f, "--nproc", c->nproc_opt);
	opt(f, "--mem", c->mem_opt);
	opt(f, "--cgroup", c->cgroup);
	for (int i = 0; i < c->ngrader_args; i++)
		opt(f, "--grader-arg", c->grader_args[i]);
	if (c->build_only)
		fprintf(f, " \\\n\t--build-only");
	bt_fmt(manifest, sizeof(manifest), "%s/slurm/manifest", c->out);
	bt_fmt(chunk, sizeof(chunk), "%d", c->chunk);
	opt(f, "--manifest", manifest);
	opt(f, "--chunk", chunk);
	if (c->build_timeout > 0) { /* BUILD_TIMEOUT, as given here */
		char bt[32];

		bt_fmt(bt, sizeof(bt), "%g", c->build_timeout);
		opt(f, "--build-timeout", bt);
	}
}

static void header(FILE *f, const struct bt_conf *c, const char *name,
		   const char *log, const char *time_limit, const char *cpus,
		   const char *partition)
{
	fprintf(f, "#SBATCH --job-name=%s\n", name);
	fprintf(f, "#SBATCH --output=%s/slurm/logs/%s\n", c->out, log);
	fprintf(f, "#SBATCH --time=%s\n", time_limit);
	fprintf(f, "#SBATCH --cpus-per-task=%s\n", cpus);
	if (partition && *partition)
		fprintf(f, "#SBATCH --partition=%s\n", partition);
	for (int i = 0; i < c->nslurm_args; i++)
		fprintf(f, "#SBATCH %s\n", c->slurm_args[i]);
}

/*
 * The shell: bash, as a login shell (#!/bin/bash -l), so that the
 * cluster's /etc/profile.d defines module (Lmod and Environment Modules
 * define it as a bash function; under dash "module: not found"). The
 * prologue, as given: shell lines every job runs first (module load
 * cuda/12.4...), under set -e (a module that does not load stops the
 * job) but not set -u, which module's own functions do not survive.
 */
static void shell_start(FILE *f)
{
	fprintf(f, "#!/bin/bash -l\n");
}

static void prologue(FILE *f, const struct bt_conf *c)
{
	fprintf(f, "set -e\n");
	if (c->prologue)
		fprintf(f, "# The prologue (SLURM_PROLOGUE):\n%s\n", c->prologue);
	fprintf(f, "set -u\n");
}

/* The CUDA release of the toolkit at cuda ("12.4"), or "" . */
static void cuda_release(const char *cuda, char *out, size_t n)
{
	char q[2 * BT_PATH], cmd[3 * BT_PATH];
	FILE *p;

	out[0] = '\0';
	bt_fmt(cmd, sizeof(cmd), "%s/bin/nvcc", cuda);
	bt_shell_quote(cmd, q, sizeof(q));
	bt_fmt(cmd, sizeof(cmd), "%s --version 2> /dev/null | sed -n "
	       "'s/.*release \\([0-9][0-9.]*\\),.*/\\1/p'", q);
	p = popen(cmd, "r");
	if (!p)
		return;
	if (fgets(out, (int)n, p))
		out[strcspn(out, "\n")] = '\0';
	pclose(p);
}

/*
 * Before anything else on a node: its toolkit must be the release the
 * shared objects were built with (a job compiles each submission and
 * links it against them), and its driver must run that release's major
 * version (an older minor one runs it through CUDA's minor version
 * compatibility: a note); each with its own message, and the task stops
 * grading nothing.
 */
static void toolkit_check(FILE *f, const struct bt_conf *c)
{
	char rel[32];

	cuda_release(c->cuda, rel, sizeof(rel));
	if (!rel[0])
		return;
	fprintf(f, "wb_built=%s\n"
		   "wb_rel=$(\"$wb_cuda/bin/nvcc\" --version 2> /dev/null | "
		   "sed -n 's/.*release \\([0-9][0-9.]*\\),.*/\\1/p')\n"
		   "if [ -z \"$wb_rel\" ]; then\n"
		   "\techo \"wb: $(hostname): no CUDA toolkit at $wb_cuda (no "
		   "$wb_cuda/bin/nvcc): load CUDA $wb_built in SLURM_PROLOGUE "
		   "(module load cuda/$wb_built) or install it there\" >&2\n"
		   "\texit 1\n"
		   "fi\n"
		   "if [ \"$wb_rel\" != \"$wb_built\" ]; then\n"
		   "\techo \"wb: $(hostname): the toolkit here ($wb_cuda) is "
		   "CUDA $wb_rel; the shared objects were built with CUDA "
		   "$wb_built: load that one (SLURM_PROLOGUE='module load "
		   "cuda/$wb_built'), or run make slurm-script with this one\" "
		   ">&2\n"
		   "\texit 1\n"
		   "fi\n", rel);
	if (c->build_only)
		return;
	/* nvidia-smi's header: the newest CUDA the driver runs. */
	fprintf(f, "wb_drv=$(nvidia-smi 2> /dev/null | sed -n "
		   "'s/.*CUDA Version: *\\([0-9][0-9.]*\\).*/\\1/p' | head -n 1)\n"
		   "if [ -z \"$wb_drv\" ]; then\n"
		   "\techo \"wb: $(hostname): nvidia-smi does not answer: no "
		   "NVIDIA driver, or no GPU given to this job (--gres)\" >&2\n"
		   "\texit 1\n"
		   "fi\n"
		   "wb_drvver=$(nvidia-smi --query-gpu=driver_version "
		   "--format=csv,noheader 2> /dev/null | head -n 1)\n"
		   "if [ \"${wb_drv%%%%.*}\" -lt \"${wb_built%%%%.*}\" ]; then\n"
		   "\techo \"wb: $(hostname): its driver ($wb_drvver) runs CUDA "
		   "up to $wb_drv; this batch was built with CUDA $wb_built, "
		   "which needs a driver of CUDA ${wb_built%%%%.*}: grade on nodes "
		   "with a newer driver, or build with CUDA ${wb_drv%%%%.*}\" >&2\n"
		   "\texit 1\n"
		   "fi\n"
		   "if [ \"$(printf '%%s\\n%%s\\n' \"$wb_built\" \"$wb_drv\" | "
		   "sort -t. -k1,1n -k2,2n | head -n 1)\" != \"$wb_built\" ]; then\n"
		   "\techo \"wb: $(hostname): note: its driver ($wb_drvver) runs "
		   "CUDA up to $wb_drv, older than the build's $wb_built: it grades "
		   "through CUDA's minor version compatibility (the code is built "
		   "for this GPU's SM; nothing is JIT-compiled)\" >&2\n"
		   "fi\n");
}

/*
 * Before grading: the node's GPU must be one the labs' code was built for
 * (SM=, every one of them built by make slurm-script). Otherwise the task
 * stops here, its students left for a resubmission, rather than grade
 * them on a GPU that runs the code through the driver's JIT or not at all.
 */
static void gpu_check(FILE *f, const struct bt_conf *c)
{
	char q[2 * BT_PATH];

	bt_shell_quote(c->devinfo, q, sizeof(q));
	fprintf(f, "wb_cc=$(%s --probe 2> /dev/null | sed -n 's/^cc //p')\n"
		   "if [ -z \"$wb_cc\" ]; then\n"
		   "\techo \"wb-grade: $(hostname): devinfo could not ask the GPU "
		   "its compute capability: $(%s --probe 2>&1 | tail -n 3)\" >&2\n"
		   "\texit 1\n"
		   "fi\n"
		   "case ' %s ' in\n"
		   "*\" $wb_cc \"*) ;;\n"
		   "*)\n"
		   "\techo \"wb-grade: $(hostname): its GPU is sm_${wb_cc:-?}, not "
		   "one this batch was built for (SM='%s'): nothing graded here. "
		   "Ask for those GPUs (GPU_TYPE= or SLURM_CONSTRAINT=), or build "
		   "for this one too (SM='%s ${wb_cc:-NN}').\" >&2\n"
		   "\texit 1 ;;\n"
		   "esac\n", q, q, c->sm, c->sm, c->sm);
}

static int write_grade(const struct bt_conf *c, int n, int ntasks,
		       const char *self, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	shell_start(f);
	fprintf(f, "# Grades %d submission%s of %s as a Slurm job array: %d "
		   "task%s of\n# up to %d submission%s each%s. Written by make "
		   "slurm-script; submit with\n# sh %s/slurm/submit.sh "
		   "(docs/batch-grading.md).\n",
		n, n == 1 ? "" : "s", c->subs, ntasks, ntasks == 1 ? "" : "s",
		c->chunk, c->chunk == 1 ? "" : "s",
		c->build_only ? ", built and checked only (no GPU)" :
				", each task with one GPU", c->out);
	if (c->sandbox == BT_SB_OFF)
		fprintf(f, "#\n# WARNING: SANDBOX=off: student code runs "
			   "UNSANDBOXED, with this account's\n# permissions, "
			   "on every node. Only for code you trust.\n");
	fprintf(f, "#SBATCH --array=0-%d\n", ntasks - 1);
	if (!c->build_only && c->gpu_type)
		fprintf(f, "#SBATCH --gres=gpu:%s:1\n", c->gpu_type);
	else if (!c->build_only)
		fprintf(f, "#SBATCH --gres=gpu:1\n");
	if (c->constraint)
		fprintf(f, "#SBATCH --constraint=%s\n", c->constraint);
	if (c->slurm_mem)
		fprintf(f, "#SBATCH --mem=%s\n", c->slurm_mem);
	if (c->exclusive)
		fprintf(f, "#SBATCH --exclusive\n");
	header(f, c, "wb-grade", "grade-%A_%a.log", c->time_limit,
	       c->cpus, c->partition);
	prologue(f, c);
	{
		char q[2 * BT_PATH];

		bt_shell_quote(c->cuda, q, sizeof(q));
		fprintf(f, "wb_cuda=${CUDA_HOME:-%s}\n", q);
	}
	toolkit_check(f, c);
	if (c->sandbox == BT_SB_OFF)
		fprintf(f, "echo 'wb-grade: SANDBOX=off: grading UNSANDBOXED' >&2\n");
	if (!c->build_only && c->sm)
		gpu_check(f, c);
	command(f, c, self);
	fprintf(f, " \\\n\t--task \"$SLURM_ARRAY_TASK_ID\" --jobs "
		   "\"${SLURM_CPUS_PER_TASK:-1}\"\n");
	return fclose(f);
}

static int write_merge(const struct bt_conf *c, const char *self,
		       const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	shell_start(f);
	fprintf(f, "# Folds the array's results into %s/gradebook.csv and\n"
		   "# summary.txt. submit.sh runs it after the whole array. It "
		   "needs no GPU:\n# it asks for none, on %s.\n", c->out,
		c->merge_partition ? c->merge_partition :
		"the cluster's default partition (MERGE_PARTITION= names a CPU one)");
	header(f, c, "wb-merge", "merge-%j.log", "00:15:00", "1",
	       c->merge_partition);
	prologue(f, c);
	command(f, c, self);
	fprintf(f, " \\\n\t--merge\n");
	return fclose(f);
}

static int write_submit(const struct bt_conf *c, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "#!/bin/sh\n"
		   "# Submits the grading array, then the merge job, which "
		   "waits for every\n# task of the array to end, however it "
		   "ended (afterany).\n"
		   "set -eu\n"
		   "cd \"$(dirname \"$0\")\"\n"
		   "job=$(sbatch --parsable grade.sbatch)\n"
		   "job=${job%%%%;*}\n"
		   "merge=$(sbatch --parsable --dependency=afterany:$job "
		   "merge.sbatch)\n"
		   "merge=${merge%%%%;*}\n"
		   "echo \"$job $merge\" > jobs\n"
		   "echo \"grading: job array $job; merge: job $merge\"\n"
		   "echo \"when job $merge ends: %s/gradebook.csv and "
		   "summary.txt\"\n", c->out);
	if (fclose(f))
		return -1;
	return chmod(path, 0755);
}

int bt_slurm_script(const struct bt_conf *c, const struct bt_sub *subs,
		    int n, const char *self)
{
	char dir[BT_PATH], path[BT_PATH];
	struct bt_conf cc = *c;
	int ntasks;
	FILE *f;

	if (n == 0) {
		fprintf(stderr, "batch: no submissions in %s\n", c->subs);
		return -1;
	}
	/* Without CHUNK=: at most BT_SLURM_TASKS tasks, well inside common
	 * limits (MaxArraySize 1001, MaxSubmitJobs often a few hundred). */
	if (c->chunk_auto)
		cc.chunk = (n + BT_SLURM_TASKS - 1) / BT_SLURM_TASKS;
	c = &cc;
	ntasks = (n + c->chunk - 1) / c->chunk;
	if (ntasks > BT_SLURM_MAX_TASKS) {
		fprintf(stderr, "batch: CHUNK=%d makes %d array tasks: more "
				"than most clusters take at once (MaxArraySize "
				"is 1001 by default). CHUNK=%d makes %d; without "
				"CHUNK= the script makes at most %d\n",
			c->chunk, ntasks, (n + BT_SLURM_TASKS - 1) / BT_SLURM_TASKS,
			(n + (n + BT_SLURM_TASKS - 1) / BT_SLURM_TASKS - 1) /
			((n + BT_SLURM_TASKS - 1) / BT_SLURM_TASKS), BT_SLURM_TASKS);
		return -1;
	}
	bt_fmt(dir, sizeof(dir), "%s/slurm/logs", c->out);
	if (bt_mkdirs(dir))
		return -1;
	bt_fmt(path, sizeof(path), "%s/slurm/manifest", c->out);
	f = fopen(path, "w");
	if (!f)
		return -1;
	for (int i = 0; i < n; i++)
		fprintf(f, "%s\n", subs[i].name);
	if (fclose(f))
		return -1;
	bt_fmt(path, sizeof(path), "%s/slurm/grade.sbatch", c->out);
	if (write_grade(c, n, ntasks, self, path))
		return -1;
	bt_fmt(path, sizeof(path), "%s/slurm/merge.sbatch", c->out);
	if (write_merge(c, self, path))
		return -1;
	bt_fmt(path, sizeof(path), "%s/slurm/submit.sh", c->out);
	if (write_submit(c, path))
		return -1;
	printf("Slurm: %d submission%s in %d array task%s of up to %d; "
	       "scripts in %s/slurm/\n", n, n == 1 ? "" : "s", ntasks,
	       ntasks == 1 ? "" : "s", c->chunk, c->out);
	printf("submit with:  sh %s/slurm/submit.sh\n", c->out);
	return 0;
}

int bt_read_manifest(const char *path, char ***names)
{
	char *text = bt_read(path, 16 << 20), *save = NULL;
	int n = 0, cap = 0;

	*names = NULL;
	if (!text)
		return -1;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!*l)
			continue;
		if (n == cap) {
			char **t = realloc(*names, (cap = cap ? 2 * cap : 64) *
						   sizeof(char *));

			if (!t)
				break;
			*names = t;
		}
		(*names)[n++] = strdup(l);
	}
	free(text);
	return n;
}
