/* SPDX-License-Identifier: MIT */
/*
 * setup.h - the batch tool before it grades anything: paths, tools, the
 * sandbox, the GPUs. Floor 6 (batch.h): uses cli, conf, sandbox, cgroup,
 * process, args, util, files and grader/gpulock.h.
 */
#ifndef BATCH_SETUP_H
#define BATCH_SETUP_H

#include "cli.h"

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

#endif /* BATCH_SETUP_H */
