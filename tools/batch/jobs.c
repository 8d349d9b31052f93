/* SPDX-License-Identifier: MIT */
/*
 * jobs.c - a submission's two commands (jobs.h), each a process group of
 * its own, inside its own sandbox, with a time limit:
 *
 *   build   make runners SRC=<its files> T=<its build folder>   (CPU)
 *   grade   grader --build <its build folder> ...               (one GPU)
 *
 * Floor 5 (batch.h): uses conf, sub, sandbox, process, args and util.
 */
#include "jobs.h"
#include "args.h"
#include "process.h"
#include "sandbox.h"
#include "util.h"

#include <stddef.h>

/* A file a submission's command writes may be at most this big: a
 * kernel that printf()s forever fills this, not the disk. */
#define BT_FSIZE_LIMIT (512L << 20)

int bt_start_build(const struct bt_conf *c, struct bt_sub *s)
{
	char scratch[BT_PATH], log[BT_PATH];
	struct bt_box box;
	struct bt_args a;
	pid_t pid;

	bt_work_dir(c, s, "", scratch, sizeof(scratch));
	bt_work_dir(c, s, "build.log", log, sizeof(log));
	bt_conf_box(c, scratch, -1, &box);
	bt_args_init(&a);
	bt_box_argv(&box, &a);
	bt_args_add(&a, c->make);
	bt_args_add(&a, "-C");
	bt_args_add(&a, c->repo);
	bt_args_add(&a, "--no-print-directory");
	for (int i = 0; i < c->nprebuilt; i++) {
		bt_args_add(&a, "-o");
		bt_args_add(&a, c->prebuilt[i]);
	}
	bt_args_add(&a, "runners");
	bt_args_addf(&a, "BUILD=%s", c->build);
	if (c->sm)
		bt_args_addf(&a, "SM=%s", c->sm);
	if (c->cuda[0])
		bt_args_addf(&a, "CUDA_HOME=%s", c->cuda);
	bt_args_addf(&a, "T=%s/build", scratch);
	bt_args_addf(&a, "SRC=%s/src", scratch);
	if (c->lab)
		bt_args_addf(&a, "LAB=%s", c->lab);
	pid = bt_spawn(&a, log, NULL, BT_FSIZE_LIMIT, NULL, NULL);
	bt_args_free(&a);
	if (pid < 0)
		return -1;
	s->pid = pid;
	s->state = BT_BUILDING;
	s->t0 = bt_now();
	return 0;
}

int bt_start_grade(const struct bt_conf *c, struct bt_sub *s, int slot)
{
	char scratch[BT_PATH], out[BT_PATH], err[BT_PATH], lock_dir[BT_PATH];
	const char *gpu = c->build_only ? NULL : c->gpus[slot];
	struct bt_box box;
	struct bt_args a;
	pid_t pid;

	bt_work_dir(c, s, "", scratch, sizeof(scratch));
	bt_work_dir(c, s, "table.txt", out, sizeof(out));
	bt_work_dir(c, s, "grade.log", err, sizeof(err));
	bt_conf_box(c, scratch, c->build_only ? -1 : slot, &box);
	bt_args_init(&a);
	bt_box_argv(&box, &a);
	bt_args_add(&a, c->grader);
	bt_args_add(&a, "--labs");
	bt_args_addf(&a, "%s/labs", c->repo);
	bt_args_add(&a, "--build");
	bt_args_addf(&a, "%s/build", scratch);
	bt_args_add(&a, "--source");
	bt_args_add(&a, s->id);
	bt_args_add(&a, "--json");
	bt_args_addf(&a, "%s/results.json", scratch);
	bt_args_add(&a, "--tsv");
	bt_args_addf(&a, "%s/results.tsv", scratch);
	if (c->build_only) {
		bt_args_add(&a, "--mode");
		bt_args_add(&a, "build-only");
	} else {
		bt_args_add(&a, "--devinfo");
		bt_args_add(&a, c->devinfo);
	}
	if (c->lab) {
		bt_args_add(&a, "--lab");
		bt_args_add(&a, c->lab);
	}
	if (c->seed) {
		bt_args_add(&a, "--seed");
		bt_args_add(&a, c->seed);
	}
	if (c->timeout_cap) {
		bt_args_add(&a, "--timeout-cap");
		bt_args_add(&a, c->timeout_cap);
	}
	if (c->course[0]) {
		bt_args_add(&a, "--course");
		bt_args_add(&a, c->course);
	}
	/* The calibration of the grading GPU's model, if the course has one
	 * (make calibrate; the repository is read-only in the sandbox). */
	bt_args_add(&a, "--calibrations");
	bt_args_addf(&a, "%s/calibrations", c->repo);
	for (int i = 0; i < c->ngrader_args; i++)
		bt_args_add(&a, c->grader_args[i]);
	/* Sandboxed, the box sets WB_LOCK_DIR (sandbox.c); unsandboxed, the
	 * same folder is given here: SANDBOX=off must not deadlock. */
	bt_work_dir(c, s, "tmp", lock_dir, sizeof(lock_dir));
	pid = bt_spawn(&a, out, err, BT_FSIZE_LIMIT, gpu,
		    c->sandboxed ? NULL : lock_dir);
	bt_args_free(&a);
	if (pid < 0)
		return -1;
	s->pid = pid;
	s->slot = slot;
	s->state = BT_GRADING;
	s->t0 = bt_now();
	return 0;
}
