/* SPDX-License-Identifier: MIT */
/*
 * schedule.c - grading the submissions (schedule.h): builds on the CPUs,
 * gradings on the GPUs, one finished folder per student.
 *
 * Each submission goes through two commands (jobs.c): its build, then its
 * grading. Up to --jobs builds run at once. A grade needs a slot: one per
 * GPU in use, so two timing runs never share a GPU; with --build-only no
 * GPU is used and the slots are CPUs. Builds run ahead of the GPUs by at
 * most a few submissions. A student whose grading ended is finished
 * (finish.c): published whole, or kept in failed/ and graded again by the
 * next run.
 *
 * Floor 5 (batch.h): uses jobs, finish, conf, sub, row (the line each
 * student gets in the log), process, util, files, and the grader's
 * grader/gpulock.h (one grading per GPU, machine-wide).
 */
#include "schedule.h"
#include "files.h"
#include "finish.h"
#include "jobs.h"
#include "process.h"
#include "row.h"
#include "util.h"
#include "../../grader/gpulock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- progress ---------------------------------------------------------- */

struct progress {
	int total, done, failed;
	double t0;
};

/* One line per finished student, with the time left at the pace so far. */
static void show(const struct progress *p, const struct bt_sub *s,
		 const char *what, int running)
{
	int finished = p->done + p->failed, left = p->total - finished;
	double el = bt_now() - p->t0;
	char eta[32] = "";

	if (finished > 0 && left > 0) {
		bt_fmt_duration(eta, sizeof(eta), el / finished * left);
		fprintf(stderr, "[%*d/%d] %-16s %s  (%d running; about %s left)\n",
			p->total >= 100 ? 3 : 2, finished, p->total, s->id, what,
			running, eta);
	} else {
		bt_fmt_duration(eta, sizeof(eta), el);
		fprintf(stderr, "[%*d/%d] %-16s %s  (%s in all)\n",
			p->total >= 100 ? 3 : 2, finished, p->total, s->id, what,
			eta);
	}
}

/* "150/200: sum PASS argmax WRONG" (no points when building only) */
static void result_line(const struct bt_conf *c, const struct bt_sub *s,
			char *out, size_t n)
{
	char path[BT_PATH];
	struct bt_row row;
	size_t o;

	bt_fmt(path, sizeof(path), "%s/students/%s", c->out, s->id);
	if (bt_read_student(path, &c->labs, &row)) {
		bt_fmt(out, n, "graded");
		return;
	}
	o = c->build_only ? 0 : bt_fmt(out, n, "%g/%g:", row.total, row.max);
	for (int i = 0; i < c->labs.n && o < n; i++)
		if (row.have[i])
			o += bt_fmt(out + o, n - o, "%s%s %s", o ? " " : "",
				    c->labs.ex[i].name, row.cell[i].verdict);
}

/* ---- one grading per GPU, machine-wide --------------------------------- */

/*
 * grader/run/gpustate.c's lock, taken here for the sandboxed grader (whose own
 * lands in its scratch folder): so a make grade by someone else on this
 * machine, or another batch, never times on a GPU while we do. Opened as
 * the grader opens it (a sticky /tmp may refuse to create-open another
 * user's file). -1 when someone else holds it.
 */
static int lock_gpu(const char *path)
{
	int fd = gpu_lock_open(path);

	if (fd < 0)
		return -2; /* no lock to be had: grade anyway */
	if (gpu_lock_try(fd)) {
		close(fd);
		return -1;
	}
	gpu_lock_note_pid(fd);
	return fd;
}

/* ---- the loop ----------------------------------------------------------- */

static int count(const struct bt_sub *s, int n, int state)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += !s[i].skipped && s[i].state == state;
	return k;
}

static void ended(struct bt_conf *c, struct bt_sub *s, int code,
		  struct progress *p, int running)
{
	char why[256], line[512], w[BT_PATH];
	double took = bt_now() - s->t0;

	s->pid = 0;
	if (s->state == BT_BUILDING) {
		s->build_s = took;
		if (code == 0) {
			s->state = BT_BUILT;
			return;
		}
		if (code == 124)
			bt_fmt(why, sizeof(why), "the build ran past the "
				 "batch's limit (%.0f s)", c->build_timeout);
		else
			bt_fmt(why, sizeof(why), "the build failed (make exit "
				 "status %d; a student's compile error never does "
				 "this): see build.log", code);
	} else {
		s->grade_s = took;
		if (code == 124)
			bt_fmt(why, sizeof(why), "the grader ran past the "
				 "batch's limit (%.0f s)", c->grade_timeout);
		else if (bt_finish(c, s) == 0) {
			s->state = BT_DONE;
			p->done++;
			bt_fmt(line, sizeof(line), "%s/failed/%s", c->out, s->id);
			bt_rmtree(line);
			bt_work_dir(c, s, "", w, sizeof(w));
			bt_rmtree(w);
			result_line(c, s, line, sizeof(line));
			show(p, s, line, running);
			return;
		} else {
			bt_fmt(why, sizeof(why), "the grader ended without "
				 "results (exit status %d)", code);
		}
	}
	s->state = BT_FAILED;
	p->failed++;
	bt_keep_failure(c, s, why);
	bt_work_dir(c, s, "", w, sizeof(w));
	bt_rmtree(w);
	bt_fmt(line, sizeof(line), "NOT GRADED: %s (failed/%s/)", why, s->id);
	show(p, s, line, running);
}

static void release(int *slot_busy, int *lock_fd, int k)
{
	slot_busy[k] = 0;
	if (lock_fd[k] >= 0)
		close(lock_fd[k]);
	lock_fd[k] = -1;
}

/* A free slot (for a GPU: one whose lock we now hold), or -1. */
static int free_slot(struct bt_conf *c, int *slot_busy, int *lock_fd,
		     int nslots)
{
	static int said[BT_MAX_GPUS];

	for (int k = 0; k < nslots; k++) {
		if (slot_busy[k])
			continue;
		if (c->build_only || !c->gpu_lock[k][0])
			return k;
		lock_fd[k] = lock_gpu(c->gpu_lock[k]);
		if (lock_fd[k] != -1) {
			said[k] = 0;
			return k;
		}
		if (!said[k]++)
			fprintf(stderr, "batch: GPU %s is grading for someone else "
					"(%s): waiting for it\n", c->gpus[k],
				c->gpu_lock[k]);
	}
	return -1;
}

static void start_what_we_can(struct bt_conf *c, struct bt_sub *s, int n,
			      int *slot_busy, int *lock_fd, int nslots)
{
	int building = count(s, n, BT_BUILDING), built = count(s, n, BT_BUILT);

	for (int i = 0; i < n; i++) {
		int k;

		if (s[i].skipped || s[i].state != BT_BUILT)
			continue;
		k = free_slot(c, slot_busy, lock_fd, nslots);
		if (k < 0)
			break;
		slot_busy[k] = 1;
		if (bt_start_grade(c, &s[i], k)) {
			release(slot_busy, lock_fd, k);
			break;
		}
	}
	built = count(s, n, BT_BUILT);
	for (int i = 0; i < n && building < c->jobs &&
			building + built < c->jobs + nslots; i++) {
		if (s[i].skipped || s[i].state != BT_QUEUED)
			continue;
		if (bt_start_build(c, &s[i]) == 0)
			building++;
	}
}

int bt_sub_done(const struct bt_sub *s)
{
	return s->state == BT_DONE;
}

static int running(const struct bt_sub *s, int n)
{
	return count(s, n, BT_BUILDING) + count(s, n, BT_GRADING);
}

/* Where the sandboxes' cgroups are, if anywhere. */
static const char *cgroup(const struct bt_conf *c)
{
	return c->sandboxed && c->cgroup[0] ? c->cgroup : NULL;
}

/* Stop everything now: kill the groups, forget unfinished work. */
static void abandon(struct bt_conf *c, struct bt_sub *s, int n)
{
	for (int i = 0; i < n; i++) {
		char w[BT_PATH];

		if (s[i].skipped || s[i].state == BT_DONE || s[i].state == BT_FAILED)
			continue;
		if (s[i].pid > 0)
			bt_end_group(s[i].pid, cgroup(c), 1);
		bt_work_dir(c, &s[i], "", w, sizeof(w));
		bt_rmtree(w);
	}
}

int bt_schedule(struct bt_conf *c, struct bt_sub *s, int n)
{
	int nslots = c->build_only ? c->jobs : c->ngpus;
	int slot_busy[BT_MAX_GPUS + 256] = { 0 };
	int lock_fd[BT_MAX_GPUS + 256];
	struct progress p = { 0 };

	if (nslots > (int)(sizeof(slot_busy) / sizeof(slot_busy[0])))
		nslots = sizeof(slot_busy) / sizeof(slot_busy[0]);
	bt_catch_stop();
	/* Orphans of unsandboxed runs come to us, and are reaped below. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	for (int k = 0; k < (int)(sizeof(lock_fd) / sizeof(lock_fd[0])); k++)
		lock_fd[k] = -1;
	for (int i = 0; i < n; i++)
		p.total += !s[i].skipped;
	p.t0 = bt_now();
	while (!bt_stopped()) {
		int st;
		pid_t w;

		start_what_we_can(c, s, n, slot_busy, lock_fd, nslots);
		if (running(s, n) == 0 &&
		    count(s, n, BT_QUEUED) + count(s, n, BT_BUILT) == 0)
			break;
		while ((w = waitpid(-1, &st, WNOHANG)) > 0) {
			for (int i = 0; i < n; i++) {
				if (s[i].pid != w)
					continue;
				bt_end_group(w, cgroup(c), 0); /* its leftovers */
				if (s[i].state == BT_GRADING)
					release(slot_busy, lock_fd, s[i].slot);
				ended(c, &s[i], bt_exit_code(st), &p,
				      running(s, n) - 1);
				break;
			}
		}
		for (int i = 0; i < n; i++) {
			double limit = s[i].state == BT_BUILDING ? c->build_timeout :
				       c->grade_timeout;

			if (s[i].pid <= 0 || bt_now() - s[i].t0 <= limit)
				continue;
			bt_end_group(s[i].pid, cgroup(c), 1);
			if (s[i].state == BT_GRADING)
				release(slot_busy, lock_fd, s[i].slot);
			ended(c, &s[i], 124, &p, running(s, n) - 1);
		}
		{
			struct timespec nap = { 0, 50 * 1000 * 1000 };

			nanosleep(&nap, NULL);
		}
	}
	if (bt_stopped()) {
		abandon(c, s, n);
		fprintf(stderr, "\nbatch: interrupted: %d of %d graded in this "
				"run; run the same command again to grade the "
				"rest (finished students are not graded again)\n",
			p.done, p.total);
		return 130;
	}
	return p.failed ? 1 : 0;
}
