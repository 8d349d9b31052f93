/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the batch tool's command line set (main.c) and the steps
 * before grading (setup.c) that complete it.
 */
#ifndef BATCH_CLI_H
#define BATCH_CLI_H

#include "batch.h"

struct cli {
	struct bt_conf c;
	const char *repo, *build, *objs, *grader, *devinfo, *cuda, *subs;
	const char *out, *course, *manifest, *exec_id, *scratch;
	char scratch_abs[BT_PATH];
	char **exec_argv;
	int merge, slurm, task_given, sandbox_exec;
	char gpus_buf[1024];
	char *smi; /* nvidia-smi's "index, uuid" lines (smi_uuids()) */
};

/* The grader, devinfo and the prebuilt objects, needed to grade: 0, or
 * -1 said. */
int setup_tools(struct cli *k);
/* The paths made absolute (repository, build, output or scratch folder,
 * course file) and the defaults filled in (jobs, limits, the sandbox's
 * limits, make and bwrap found): 0, or -1 said. */
int setup_paths(struct cli *k);
/* Make sure a sandbox can be made for boxes at once (or say how to run
 * without one): 0, or -1 said. */
int setup_sandbox(struct bt_conf *c, int boxes);
/* The GPUs to use: --gpus, else CUDA_VISIBLE_DEVICES, else nvidia-smi's;
 * how many. */
int setup_gpus(struct cli *k);
/* Each GPU's UUID, lock file and /dev node (the log says what it found). */
void setup_gpu_info(struct cli *k);
/* devinfo --check on each GPU, outside the sandbox and then inside:
 * 0 all work, -1 said. */
int setup_check_gpus(struct bt_conf *c);

#endif
