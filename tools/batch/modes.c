/* SPDX-License-Identifier: MIT */
/*
 * modes.c - what the batch tool does once set up (modes.h): grade, each
 * submission collected (or found graded before) and then scheduled, and
 * rebuild the gradebook, one batch at a time into an output folder; or
 * the gradebook alone, the Slurm scripts, a command in a sandbox, a
 * results.json taken out of one.
 *
 * Floor 6 (batch.h): uses cli, setup, settings, schedule, book, slurm,
 * collect, conf, sandbox, process, args, json, util and files.
 */
#include "modes.h"
#include "args.h"
#include "book.h"
#include "collect.h"
#include "files.h"
#include "json.h"
#include "process.h"
#include "sandbox.h"
#include "schedule.h"
#include "settings.h"
#include "setup.h"
#include "slurm.h"
#include "util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

/* What a crash may have left of this student: tidy it (bt_recover). */
static void recover(const struct bt_conf *c, const struct bt_sub *s)
{
	char dir[BT_PATH], w[BT_PATH];

	bt_fmt(dir, sizeof(dir), "%s/students", c->out);
	bt_fmt(w, sizeof(w), "%s/%s", c->work, s->id);
	bt_recover(dir, s->id);
	bt_rmtree(w);
}

/*
 * One batch at a time grades into an output folder (Slurm tasks aside:
 * each writes only its own students). The lock goes with the process;
 * batch.pid says who holds it, for people and for tests that interrupt.
 */
static int lock_out(const struct bt_conf *c)
{
	char path[BT_PATH], pid[32];
	int fd;

	bt_fmt(path, sizeof(path), "%s/.lock", c->out);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
		char *who;

		bt_fmt(path, sizeof(path), "%s/batch.pid", c->out);
		who = bt_read(path, 32);
		fprintf(stderr, "batch: another batch (pid %s) is grading into "
				"%s\n", who ? strtok(who, "\n") : "?", c->out);
		free(who);
		return -1;
	}
	bt_fmt(path, sizeof(path), "%s/batch.pid", c->out);
	bt_fmt(pid, sizeof(pid), "%ld\n", (long)getpid());
	return bt_write_atomic(path, pid);
}

int mode_exec_boxed(struct cli *k, const char *scratch)
{
	struct bt_conf *c = &k->c;
	int g = -1, status = 2;
	struct bt_args a;
	struct bt_box b;

	if (!c->build_only && !setup_gpus(k))
		fprintf(stderr, "batch: no GPU found (nvidia-smi): the command "
				"runs without one\n");
	if (setup_sandbox(c, 1))
		return 2;
	if (!c->build_only && c->ngpus) {
		setup_gpu_info(k);
		g = 0;
	}
	bt_args_init(&a);
	if (c->sandboxed) {
		bt_conf_box(c, scratch, g, &b);
		bt_box_argv(&b, &a);
	} else if (bt_mkdirs(scratch)) {
		return 2;
	}
	for (char **p = k->exec_argv; *p; p++)
		bt_args_add(&a, *p);
	if (bt_run(&a, BT_STDIO, NULL, c->grade_timeout, -1,
		   g >= 0 ? c->gpus[g] : NULL, &status)) {
		fprintf(stderr, "batch: cannot run %s\n", a.n ? a.v[0] : "?");
		status = 2;
	}
	bt_args_free(&a);
	return status;
}

/* --take-json FROM TO */
int mode_take_json(const char *from, const char *to)
{
	char why[512];

	if (!bt_take_json(from, to, 16 << 20, why, sizeof(why)))
		return 0;
	fprintf(stderr, "batch: %s: %s\n", from, why);
	return 1;
}

static int collect_all(struct bt_conf *c, struct bt_sub *s, int n)
{
	int skipped = 0;

	for (int i = 0; i < n; i++) {
		char w[BT_PATH], dest[BT_PATH], stage[BT_PATH];
		struct bt_box b;

		recover(c, &s[i]);
		bt_fmt(w, sizeof(w), "%s/%s", c->work, s[i].id);
		bt_fmt(dest, sizeof(dest), "%s/src", w);
		bt_fmt(stage, sizeof(stage), "%s/stage", w);
		if (bt_conf_box(c, w, -1, &b)) /* makes w and w/tmp */
			return -1;
		bt_collect(&s[i], &c->labs, dest, stage, &b);
		if (bt_done_before(c, &s[i])) {
			s[i].skipped = 1;
			skipped++;
			bt_rmtree(w);
		}
	}
	return skipped;
}

static int grade(struct cli *k, struct bt_sub *subs, int n)
{
	struct bt_conf *c = &k->c;
	char fmt[64];
	int skipped, rc;
	double t0 = bt_now();

	if (!c->build_only && setup_gpus(k) == 0) {
		fprintf(stderr, "batch: no GPU found (nvidia-smi): grading "
				"needs one; BUILD_ONLY=1 builds and checks "
				"without running anything\n");
		return 2;
	}
	/* Sandboxes at once: the builds, and a grading on each slot. */
	if (setup_sandbox(c, c->jobs + (c->build_only ? c->jobs : c->ngpus)))
		return 2;
	if (!c->build_only) {
		setup_gpu_info(k);
		if (setup_check_gpus(c))
			return 2;
	}
	skipped = collect_all(c, subs, n);
	if (skipped < 0)
		return 2;
	fprintf(stderr, "batch: %d submission%s; %d graded before (not graded "
			"again), %d to %s\n", n, n == 1 ? "" : "s", skipped,
		n - skipped, c->build_only ? "build and check" : "grade");
	if (c->build_only)
		fprintf(stderr, "       %d at a time; no GPU code is run\n", c->jobs);
	else
		fprintf(stderr, "       on %d GPU%s (one grading on each at a time), "
				"%d build%s at a time\n", c->ngpus,
			c->ngpus == 1 ? "" : "s", c->jobs, c->jobs == 1 ? "" : "s");
	rc = bt_schedule(c, subs, n);
	bt_fmt_duration(fmt, sizeof(fmt), bt_now() - t0);
	if (k->task_given) {
		int done = 0;

		for (int i = 0; i < n; i++)
			done += subs[i].skipped || bt_sub_done(&subs[i]);
		fprintf(stderr, "batch: task %d: %d of %d graded in %s%s\n",
			c->task, done, n, fmt, c->sandboxed ? "" :
			" (UNSANDBOXED: WITHOUT a sandbox)");
		return rc;
	}
	if (rc != 130)
		fprintf(stderr, "batch: done in %s\n", fmt);
	return rc;
}

/* Grade (or one Slurm task's share), then the gradebook. */
static int grade_and_merge(struct cli *k, struct bt_sub *subs, int n)
{
	struct bt_conf *c = &k->c;
	char pid[BT_PATH];
	int rc;

	if (k->task_given)
		return grade(k, subs, n);
	if (lock_out(c))
		return 2;
	rc = grade(k, subs, n);
	if (rc != 2 && bt_merge(c, subs, n, 0) && rc == 0)
		rc = 1;
	bt_fmt(pid, sizeof(pid), "%s/batch.pid", c->out);
	remove(pid);
	return rc;
}

int mode_run(struct cli *k, struct bt_sub *subs, int n, const char *argv0)
{
	struct bt_conf *c = &k->c;
	char self[BT_PATH];
	int rc;

	if (k->slurm) {
		if (bt_realpath(argv0, self, sizeof(self)) &&
		    bt_which(argv0, self, sizeof(self)))
			return 2;
		return bt_slurm_script(c, subs, n, self) ? 2 : 0;
	}
	if (k->merge) {
		rc = bt_merge(c, subs, n, 0);
		return rc < 0 ? 2 : rc;
	}
	if (k->exec_id) {
		char scratch[BT_PATH];

		bt_fmt(scratch, sizeof(scratch), "%s/%s", c->work, k->exec_id);
		return mode_exec_boxed(k, scratch);
	}
	return grade_and_merge(k, subs, n);
}
