/* SPDX-License-Identifier: MIT */
/*
 * cli.h - what the batch tool's command line set (cli.c) and the steps
 * before grading (setup.c) complete. Floor 6 (batch.h): uses conf.
 */
#ifndef BATCH_CLI_H
#define BATCH_CLI_H

#include "batch.h"
#include "conf.h"

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

/* The usage message, on stderr: returns 2, the status to exit with. */
int cli_usage(void);
/* argv into k (its c: the settings given): 0, or -1 when the command line
 * is not one the usage message allows. */
int cli_parse(int argc, char **argv, struct cli *k);

#endif /* BATCH_CLI_H */
