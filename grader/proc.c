/* SPDX-License-Identifier: MIT */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile pid_t current;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void proc_kill_current(void)
{
	pid_t pid = current;

	if (pid > 0)
		kill(-pid, SIGKILL);
}

/* In the child: own process group, output to the file, then exec. */
static void child(char *const argv[], const char *out_path)
{
	int in = open("/dev/null", O_RDONLY);
	int out = open(out_path ? out_path : "/dev/null",
		       O_WRONLY | O_CREAT | O_TRUNC, 0644);

	setpgid(0, 0);
	if (in < 0 || out < 0)
		_exit(127);
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	execv(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

int proc_run(char *const argv[], const char *out_path, double timeout_s,
	     struct proc_result *r)
{
	struct timespec nap = { 0, 2 * 1000 * 1000 };
	double t0 = now_s();
	int status = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child(argv, out_path);
	setpgid(pid, pid); /* also here: no race with the child's own call */
	current = pid;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		if (now_s() - t0 > timeout_s) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			r->timed_out = 1;
			break;
		}
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 50 * 1000 * 1000)
			nap.tv_nsec += 1000 * 1000;
	}
	/* Whatever the child left behind in its group goes with it. */
	kill(-pid, SIGKILL);
	current = 0;
	r->wall_s = now_s() - t0;
	if (!r->timed_out) {
		r->exited = WIFEXITED(status);
		r->code = r->exited ? WEXITSTATUS(status) : 0;
		r->signaled = WIFSIGNALED(status);
		r->signo = r->signaled ? WTERMSIG(status) : 0;
	}
	return 0;
}

char *read_file(const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, max, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

char *file_tail(const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	char *buf, *start;
	long size;
	size_t n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	if (size > (long)max)
		fseek(f, size - (long)max, SEEK_SET);
	else
		rewind(f);
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, max, f);
	buf[n] = '\0';
	fclose(f);
	start = buf;
	if (size > (long)max) {
		char *nl = strchr(buf, '\n');

		if (nl)
			start = nl + 1;
	}
	memmove(buf, start, strlen(start) + 1);
	return buf;
}
