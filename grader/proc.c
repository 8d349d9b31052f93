/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* syscall() */
#include "proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef __NR_close_range
#define __NR_close_range 436 /* the same on every architecture */
#endif

/* The most children of ours a scan of /proc keeps track of. */
#define MAX_KIDS 1024
/* Rounds of killing what a run left: each hands us the next generation. */
#define MAX_ROUNDS 1000

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

/*
 * Orphans of our children come to us rather than to init, even one that
 * left its process group with setsid, so that it can be found and killed.
 * Once, at the first run. Where the kernel refuses, they go to init as
 * before, and the group kill is all there is.
 */
static void become_subreaper(void)
{
	static int done;

	if (!done)
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	done = 1;
}

/* The parent of process pid (a /proc entry's name); -1 if unknown. */
static long parent_of(const char *pid)
{
	char path[300], buf[512], *p;
	long ppid = -1;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "pid (comm) state ppid ...": comm may hold spaces and ')'. */
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1)
		return -1;
	return ppid;
}

/* Our children now, zombies included: at most max into kids; how many. */
static int children(pid_t *kids, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	long us = (long)getpid();
	int n = 0;

	if (!d)
		return 0;
	while (n < max && (e = readdir(d))) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		if (parent_of(e->d_name) == us)
			kids[n++] = (pid_t)atol(e->d_name);
	}
	closedir(d);
	return n;
}

static int listed(pid_t pid, const pid_t *list, int n)
{
	for (int i = 0; i < n; i++)
		if (list[i] == pid)
			return 1;
	return 0;
}

/*
 * Kill and reap every child of ours that was not one before the run
 * (before[0..nbefore-1], which are the caller's business): what the run
 * left, in its group or out of it. A killed process hands its own
 * children to us, so again until there are none. A pid of the list
 * cannot have been reused: its process is ours, and only we reap it.
 */
static void kill_leftovers(const pid_t *before, int nbefore)
{
	pid_t kids[MAX_KIDS];

	for (int round = 0; round < MAX_ROUNDS; round++) {
		int n = children(kids, MAX_KIDS), left = 0;

		for (int i = 0; i < n; i++)
			if (!listed(kids[i], before, nbefore))
				kids[left++] = kids[i];
		if (!left)
			return;
		for (int i = 0; i < left; i++)
			kill(kids[i], SIGKILL);
		for (int i = 0; i < left; i++)
			while (waitpid(kids[i], NULL, 0) < 0 && errno == EINTR)
				;
	}
}

/* Close every descriptor from lo up: the child inherits only 0-2 and
 * the record's pipe, whatever the driver (or a library in it) opened. */
static void close_from(int lo)
{
	long max = sysconf(_SC_OPEN_MAX);

	if (syscall(__NR_close_range, lo, ~0U, 0) == 0)
		return;
	if (max < 0 || max > 65536)
		max = 65536;
	for (int fd = lo; fd < max; fd++)
		close(fd);
}

/*
 * In the child: own process group, output to the file, the record's pipe
 * (rec_fd, -1: none) as PROC_RECORD_FD, nothing else; then exec. The pipe
 * is first moved above PROC_RECORD_FD, out of the way of the dup2()s.
 */
static void child(char *const argv[], const char *out_path, int rec_fd)
{
	int rec = rec_fd >= 0 ? fcntl(rec_fd, F_DUPFD, PROC_RECORD_FD + 1) : -1;
	int in = open("/dev/null", O_RDONLY);
	int out = open(out_path ? out_path : "/dev/null",
		       O_WRONLY | O_CREAT | O_TRUNC, 0644);

	setpgid(0, 0);
	if (in < 0 || out < 0 || (rec_fd >= 0 && rec < 0))
		_exit(127);
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	if (rec >= 0)
		dup2(rec, PROC_RECORD_FD);
	close_from(rec >= 0 ? PROC_RECORD_FD + 1 : 3);
	execv(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* The read end of the record's pipe, and what came through it. */
struct reader {
	int fd;       /* -1: closed (end of file, or past the cap) */
	char *buf;    /* PROC_RECORD_MAX + 2 bytes */
	size_t len;
	int too_long;
};

/* Take what the pipe holds now, without waiting. */
static void drain(struct reader *rd)
{
	while (rd->fd >= 0) {
		ssize_t got = read(rd->fd, rd->buf + rd->len,
				   PROC_RECORD_MAX + 1 - rd->len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return;
		if (got > 0)
			rd->len += (size_t)got;
		if (got > 0 && rd->len <= PROC_RECORD_MAX)
			continue;
		/*
		 * End of file, an error, or a byte past the cap: closing
		 * the pipe makes the writer's next write fail (SIGPIPE), so
		 * a flood ends now rather than at the time limit.
		 */
		if (rd->len > PROC_RECORD_MAX) {
			rd->too_long = 1;
			rd->len = PROC_RECORD_MAX;
		}
		close(rd->fd);
		rd->fd = -1;
	}
}

/* Wait up to ms for the pipe to have something (or just wait). */
static void nap(struct reader *rd, int ms)
{
	struct pollfd pfd = { .fd = rd ? rd->fd : -1, .events = POLLIN };
	struct timespec ts = { 0, ms * 1000L * 1000L };

	if (pfd.fd < 0) {
		nanosleep(&ts, NULL);
		return;
	}
	if (poll(&pfd, 1, ms) > 0)
		drain(rd);
}

/*
 * Wait for pid, reading the record's pipe meanwhile; kill its group at
 * the time limit. 0, or -1 if the child was lost track of.
 */
static int wait_child(pid_t pid, double t0, double timeout_s,
		      struct reader *rd, int *status, struct proc_result *r)
{
	int ms = 2;

	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR) {
			/* Lost track of the child: never report that as success. */
			kill(-pid, SIGKILL);
			return -1;
		}
		if (now_s() - t0 > timeout_s) {
			kill(-pid, SIGKILL);
			waitpid(pid, status, 0);
			r->timed_out = 1;
			return 0;
		}
		nap(rd, ms);
		if (ms < 50)
			ms++;
	}
}

/*
 * Write text to path, a new file: an old one, or a link the run put
 * there, is removed first, never followed. 0, or an errno.
 */
static int save(const char *path, const char *text, size_t len)
{
	int fd, err = 0;

	if (unlink(path) && errno != ENOENT)
		return errno;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return errno;
	while (len && !err) {
		ssize_t n = write(fd, text, len);

		if (n > 0) {
			text += n;
			len -= (size_t)n;
		} else if (n < 0 && errno != EINTR) {
			err = errno;
		}
	}
	if (close(fd) && !err)
		err = errno;
	return err;
}

/* The record's text, handed to the caller, and copied to rec_path. */
static void take_record(struct reader *rd, const char *rec_path,
			struct proc_record *rec)
{
	for (size_t i = 0; i < rd->len; i++)
		if (!rd->buf[i])
			rd->buf[i] = ' '; /* a NUL must not hide what follows */
	rd->buf[rd->len] = '\0';
	rec->text = rd->buf;
	rec->len = rd->len;
	rec->too_long = rd->too_long;
	if (rec_path)
		rec->save_errno = save(rec_path, rd->buf, rd->len);
}

/* proc_run() and proc_run_record(): rec NULL for no record pipe. */
static int run(char *const argv[], const char *out_path, const char *rec_path,
	       double timeout_s, struct proc_result *r, struct proc_record *rec)
{
	struct reader rd = { .fd = -1 };
	pid_t before[MAX_KIDS], pid;
	int pipefd[2] = { -1, -1 }, status = 0, nbefore, lost;
	double t0 = now_s();

	memset(r, 0, sizeof(*r));
	become_subreaper();
	if (rec) {
		memset(rec, 0, sizeof(*rec));
		rd.buf = malloc(PROC_RECORD_MAX + 2);
		if (!rd.buf || pipe2(pipefd, O_CLOEXEC)) {
			free(rd.buf);
			return -1;
		}
		rd.fd = pipefd[0];
		/* Only our end: the child's writes must block, not fail. */
		fcntl(rd.fd, F_SETFL, fcntl(rd.fd, F_GETFL) | O_NONBLOCK);
	}
	nbefore = children(before, MAX_KIDS);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(argv, out_path, pipefd[1]);
	if (pipefd[1] >= 0)
		close(pipefd[1]); /* end of file once the child's copies close */
	if (pid < 0) {
		if (rd.fd >= 0)
			close(rd.fd);
		free(rd.buf);
		return -1;
	}
	setpgid(pid, pid); /* also here: no race with the child's own call */
	current = pid;
	lost = wait_child(pid, t0, timeout_s, rec ? &rd : NULL, &status, r);
	/* Whatever the child left behind goes with it, in its group or not. */
	kill(-pid, SIGKILL);
	current = 0;
	kill_leftovers(before, nbefore);
	if (rec) {
		drain(&rd); /* every writer is gone: all of it, at once */
		if (rd.fd >= 0)
			close(rd.fd);
		if (lost)
			free(rd.buf);
		else
			take_record(&rd, rec_path, rec);
	}
	if (lost)
		return -1;
	r->wall_s = now_s() - t0;
	if (!r->timed_out) {
		r->exited = WIFEXITED(status);
		r->code = r->exited ? WEXITSTATUS(status) : 0;
		r->signaled = WIFSIGNALED(status);
		r->signo = r->signaled ? WTERMSIG(status) : 0;
	}
	return 0;
}

int proc_run(char *const argv[], const char *out_path, double timeout_s,
	     struct proc_result *r)
{
	return run(argv, out_path, NULL, timeout_s, r, NULL);
}

int proc_run_record(char *const argv[], const char *out_path,
		    const char *rec_path, double timeout_s,
		    struct proc_result *r, struct proc_record *rec)
{
	return run(argv, out_path, rec_path, timeout_s, r, rec);
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

/* Is dir/name an executable file? Then it is copied to buf. */
static int try_path(const char *dir, size_t len, const char *name, char *buf,
		    size_t n)
{
	struct stat st;

	if (!len)
		return 0;
	snprintf(buf, n, "%.*s/%s", (int)len, dir, name);
	return !stat(buf, &st) && S_ISREG(st.st_mode) && !access(buf, X_OK);
}

const char *g_tool_locate(const char *name, const char *cuda_home,
			  const char *path_env, char *buf, size_t n)
{
	if (cuda_home && *cuda_home) {
		char bin[1024];

		snprintf(bin, sizeof(bin), "%s/bin", cuda_home);
		if (try_path(bin, strlen(bin), name, buf, n))
			return buf;
	}
	for (const char *p = path_env; p && *p; p += strcspn(p, ":"),
	     p += *p == ':')
		if (try_path(p, strcspn(p, ":"), name, buf, n))
			return buf;
	return NULL;
}

int file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}
