/* SPDX-License-Identifier: MIT */
/*
 * slurm.h - a batch as a Slurm job array (make slurm-script), and the
 * manifest its tasks share out. Floor 5 (batch.h): uses conf, sub, util
 * and files.
 */
#ifndef BATCH_SLURM_H
#define BATCH_SLURM_H

#include "conf.h"
#include "sub.h"

/* Write out/slurm/{manifest,grade.sbatch,merge.sbatch,submit.sh}. */
int bt_slurm_script(const struct bt_conf *c, const struct bt_sub *subs,
		    int n, const char *self);
/* Read a manifest: one submission entry name per line. */
int bt_read_manifest(const char *path, char ***names);

#endif /* BATCH_SLURM_H */
