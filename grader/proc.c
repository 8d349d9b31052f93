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
		if (w < 0 && errno != EINTR) {
			/* Lost track of the child: never report that as success. */
			kill(-pid, SIGKILL);
			current = 0;
			return -1;
		}
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

/* Read at most max bytes of path from offset from_end before its end
 * (or from its start when from_end is 0) into a new string. */
static char *read_part(const char *path, size_t max, int from_end,
		       long *size)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	*size = ftell(f);
	if (from_end && *size > (long)max)
		fseek(f, *size - (long)max, SEEK_SET);
	else
		rewind(f);
	buf = malloc(max + 1);
	if (buf) {
		n = fread(buf, 1, max, f);
		buf[n] = '\0';
		/* A NUL a program printed must not hide what followed it. */
		for (size_t i = 0; i < n; i++)
			if (!buf[i])
				buf[i] = ' ';
	}
	fclose(f);
	return buf;
}

char *read_file(const char *path, size_t max)
{
	long size;

	return read_part(path, max, 0, &size);
}

char *file_tail(const char *path, size_t max)
{
	long size;
	/* One byte more than asked: it says whether the window starts a line. */
	char *buf = read_part(path, max + 1, 1, &size), *start, *nl;

	if (!buf)
		return NULL;
	start = buf;
	if (size > (long)max) {
		/* Drop the partial first line, unless it is the only line. */
		nl = strchr(buf, '\n');
		if (nl && nl[1])
			start = nl + 1;
		else if (size > (long)max + 1 || buf[0] != '\n')
			start = buf + 1;
	}
	memmove(buf, start, strlen(start) + 1);
	return buf;
}
