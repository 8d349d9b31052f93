/* SPDX-License-Identifier: MIT */
/*
 * conf.h - one run's settings (struct bt_conf: the command line, as
 * setup.c completed it), the box each of the run's commands gets, and
 * where a submission's scratch folder is.
 * Floor 3 (batch.h): uses lablist, sub, late, sandbox, util and files.
 */
#ifndef BATCH_CONF_H
#define BATCH_CONF_H

#include <stddef.h>

#include "batch.h"
#include "lablist.h"
#include "late.h"
#include "sandbox.h"
#include "sub.h"

/* SANDBOX=require (the default; "auto" is another name for it) or off:
 * without a sandbox nothing is graded unless it was turned off. */
enum bt_sandbox_mode { BT_SB_REQUIRE, BT_SB_OFF };

struct bt_conf {
	char repo[BT_PATH], build[BT_PATH], objs[BT_PATH];
	char grader[BT_PATH], devinfo[BT_PATH], cuda[BT_PATH];
	char subs[BT_PATH], out[BT_PATH], course[BT_PATH];
	char manifest[BT_PATH];
	/* The rules the grades are made under: a fingerprint of the grader,
	 * the graded labs' own files, the calibrations and the course file
	 * (batch.conf; each student's meta) */
	char rules[20];
	const char *regrade;       /* REGRADE=: "all" or ids, comma-separated */
	const char *ids, *times;   /* IDS=ids.csv, TIMES=times.csv */
	struct bt_late late;
	int chunk_auto;            /* no --chunk: make slurm-script picks one */
	const char *sm, *lab, *seed, *timeout_cap;
	int build_only;
	int jobs;
	enum bt_sandbox_mode sandbox;
	const char *gpus[BT_MAX_GPUS];
	int ngpus;
	char gpu_lock[BT_MAX_GPUS][160]; /* grader/run/gpustate.c's lock file */
	char gpu_uuid[BT_MAX_GPUS][96];  /* "" when not known */
	int gpu_minor[BT_MAX_GPUS];      /* its /dev/nvidia<N>; -1 unknown */
	const char *grader_args[BT_MAX_EXTRA];
	int ngrader_args;
	double build_timeout, grade_timeout;

	/* a Slurm array task grades chunk number task of the manifest */
	int chunk, task;
	/* make slurm-script: the grading array's partition, time, CPUs; its
	 * GPU's type (--gres=gpu:TYPE:1) or a node constraint, memory and
	 * exclusive nodes; the merge job's partition (a CPU one; none: the
	 * cluster's default); shell lines every job runs first (module load) */
	const char *partition, *time_limit, *cpus;
	const char *gpu_type, *constraint, *slurm_mem, *merge_partition;
	const char *prologue;
	int exclusive;
	const char *slurm_args[BT_MAX_EXTRA];
	int nslurm_args;

	/* the sandbox's settings (SANDBOX_USER, SANDBOX_NPROC, SANDBOX_MEM,
	 * SANDBOX_CGROUP) and, for tests, where the GPU nodes are */
	const char *sandbox_user;
	const char *nproc_opt, *mem_opt; /* as given (for Slurm's nodes) */
	long nproc;
	long long mem;
	char cgroup[BT_PATH];
	const char *devdir, *nvproc;

	/* resolved at start */
	char make[BT_PATH], bwrap[BT_PATH], self[BT_PATH];
	char work[BT_PATH];        /* where the batch's scratch folders go */
	/* The prebuilt objects every submission links: make is told they are
	 * up to date (-o), so a source touched since never sends a
	 * submission's build into the read-only build folder. */
	char **prebuilt;
	int nprebuilt;
	int sandboxed;
	char unsandboxed_why[256];
	enum bt_box_kind box_kind;
	long box_uid, box_gid;     /* the sandbox account; -1: the batch's */
	char box_desc[768];        /* what the sandbox is, in words */
	struct bt_labs labs;
};

/* The sandbox a submission's commands run in (scratch: its folder, made
 * here with its tmp/ and given to the sandbox account); gpu: the index in
 * c->gpus of the GPU it may use, -1 for none. -1 when scratch/tmp cannot
 * be made. */
int bt_conf_box(const struct bt_conf *c, const char *scratch, int gpu,
		struct bt_box *b);

/* Where submission s's commands work: <work>/<id>, or the file sub in it
 * (sub "": the folder itself). */
void bt_work_dir(const struct bt_conf *c, const struct bt_sub *s,
		 const char *sub, char *out, size_t n);

#endif /* BATCH_CONF_H */
