/* SPDX-License-Identifier: MIT */
/*
 * process.c - the process runner (process.h): each command the batch runs
 * (a build, a grading, listing or extracting an archive, a check) is a
 * process group of its own, inside its sandbox's command line when it has
 * one, with a time limit. Its output goes to files the batch opens without
 * following a link; each file it writes is limited (RLIMIT_FSIZE), so a
 * kernel that printf()s forever fills that, not the disk; make batch's
 * own make flags and jobserver are not handed on.
 *
 * Floor 2 (batch.h): uses args, util and cgroup.
 */
#include "process.h"
#include "cgroup.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

void bt_catch_stop(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int bt_stopped(void)
{
	return stop;
}

/* A log the batch writes, in a folder sandboxed code may write too: a
 * link left there is never followed. */
static int open_log(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
}

static void child(struct bt_args *a, const char *out, const char *err,
		  long fsize, const char *cuda_visible, const char *lock_dir)
{
	setpgid(0, 0);
	if (!out || *out) { /* BT_STDIO: keep this process's own */
		int in = open("/dev/null", O_RDONLY), fo, fe;

		fo = out ? open_log(out) : open("/dev/null", O_WRONLY);
		fe = err ? open_log(err) : fo;
		if (in < 0 || fo < 0 || fe < 0)
			_exit(127);
		dup2(in, 0);
		dup2(fo, 1);
		dup2(fe, 2);
	}
	if (fsize > 0) {
		struct rlimit rl = { (rlim_t)fsize, (rlim_t)fsize };

		setrlimit(RLIMIT_FSIZE, &rl);
		signal(SIGXFSZ, SIG_IGN); /* a write fails; nothing dies */
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* make batch's own make must not hand its flags and jobserver on. */
	unsetenv("MAKEFLAGS");
	unsetenv("MAKELEVEL");
	unsetenv("MFLAGS");
	if (cuda_visible) {
		setenv("CUDA_VISIBLE_DEVICES", cuda_visible, 1);
		setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
	}
	/* An unsandboxed grader's own GPU lock goes where it locks nothing:
	 * the batch holds the real one for it (lock_gpu()), and a grader
	 * waiting on it would wait on its own parent. */
	if (lock_dir)
		setenv("WB_LOCK_DIR", lock_dir, 1);
	/* A bare name is looked up on PATH (--sandbox-exec's command,
	 * run as it is with SANDBOX=off). */
	execvp(a->v[0], a->v);
	dprintf(2, "cannot run %s: %s\n", a->v[0], strerror(errno));
	_exit(127);
}

pid_t bt_spawn(struct bt_args *a, const char *out, const char *err,
	       long fsize, const char *cuda_visible, const char *lock_dir)
{
	pid_t pid;

	if (a->overflow || a->n == 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(a, out, err, fsize, cuda_visible, lock_dir);
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

void bt_end_group(pid_t pid, const char *cgroup, int reap)
{
	kill(-pid, SIGKILL);
	if (reap)
		waitpid(pid, NULL, 0);
	bt_box_cleanup(cgroup, pid);
}

int bt_exit_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
}

int bt_run(struct bt_args *a, const char *out_path, const char *err_path,
	   double timeout_s, long fsize, const char *cuda_visible, int *status)
{
	double t0 = bt_now();
	pid_t pid = bt_spawn(a, out_path, err_path, fsize, cuda_visible, NULL);
	int st = 0;

	if (pid < 0)
		return -1;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		struct timespec nap = { 0, 20 * 1000 * 1000 };

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			bt_end_group(pid, a->cgroup, 0);
			return -1;
		}
		if (bt_now() - t0 > timeout_s || stop) {
			bt_end_group(pid, a->cgroup, 1);
			*status = 124;
			return 0;
		}
		nanosleep(&nap, NULL);
	}
	bt_end_group(pid, a->cgroup, 0); /* whatever it left behind in its group */
	*status = bt_exit_code(st);
	return 0;
}
