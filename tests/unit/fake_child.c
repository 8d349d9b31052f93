/* SPDX-License-Identifier: MIT */
/*
 * fake_child.c - a stand-in exercise runner for the process-runner and
 * record tests: it misbehaves on request.
 *
 *   fake_child MODE RESULT             the record goes to the file RESULT
 *   fake_child MODE --result-fd N      to descriptor N (the driver's pipe)
 *
 *   pass       a complete PASS record
 *   segv       half a record, then SIGSEGV
 *   hang       never ends (and forks a child that sleeps); the record gets
 *              "pid P", "pgid G" and "grandchild C" first, so a test can
 *              check that the whole group was killed
 *   orphan     forks a child that sleeps, writes the same ids as hang, and
 *              exits 0 at once
 *   setsid     forks a child that leaves the group with setsid and forks
 *              one of its own, both sleeping; writes the ids, then "great
 *              D" and "sid S" (the child's session: C if it left), exits 0
 *   exit3      half a record, then exit(3)
 *   garbage    a closed record full of nonsense
 *   chatter    200 KB on stdout, then a PASS record
 *   stderr     a line on stdout and one on stderr
 *   rewrite    a WRONG record, then seeks to its start and writes a PASS
 *              one over it: what a file allows and a pipe does not
 *   flood      2 MiB of detail lines, then a PASS record (--result-fd)
 *   nul        a PASS record, then a NUL byte and a WRONG verdict
 *   fds        "fds 0 1 2 ...": the descriptors it was started with
 *
 * Anything else: a usage line and exit status 2.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

static int rec_fd = -1; /* --result-fd N */

static void write_all(int fd, const char *text, size_t n)
{
	while (n) {
		ssize_t w = write(fd, text, n);

		if (w <= 0)
			return;
		text += w;
		n -= (size_t)w;
	}
}

/* Write n bytes as the record: to the descriptor, or the file (replaced). */
static void record_n(const char *path, const char *text, size_t n)
{
	FILE *f;

	if (rec_fd >= 0) {
		write_all(rec_fd, text, n);
		return;
	}
	f = fopen(path, "w");
	if (!f)
		return;
	fwrite(text, 1, n, f);
	fclose(f);
}

static void record(const char *path, const char *text)
{
	record_n(path, text, strlen(text));
}

/* The rewrite attack: a verdict, then back to the start and another. */
static void rewrite(const char *path)
{
	static const char wrong[] = "seed 1\nsize n=1 fail\nverdict WRONG\nend\n";
	/* As long as wrong or longer, blank lines making up the difference. */
	static const char pass[] = "seed 1\nsize n=1 ok\nverdict PASS\nend\n\n\n\n";
	FILE *f;

	if (rec_fd >= 0) {
		write_all(rec_fd, wrong, strlen(wrong));
		if (lseek(rec_fd, 0, SEEK_SET) < 0)
			perror("lseek on the record"); /* a pipe: ESPIPE */
		write_all(rec_fd, pass, strlen(pass));
		return;
	}
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(wrong, f);
	fflush(f);
	rewind(f);
	fputs(pass, f);
	fclose(f);
}

/* 2 MiB of detail lines, then a verdict (through a descriptor only). */
static void flood(const char *path)
{
	char line[1024];

	memset(line, 'x', sizeof(line));
	memcpy(line, "detail ", 7);
	line[sizeof(line) - 1] = '\n';
	for (int i = 0; i < 2048 && rec_fd >= 0; i++)
		write_all(rec_fd, line, sizeof(line));
	record(path, "verdict PASS\nend\n");
}

static void list_fds(const char *path)
{
	char text[512] = "fds";
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	size_t n = 3;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.' || atoi(e->d_name) == dirfd(d))
			continue;
		n += (size_t)snprintf(text + n, sizeof(text) - n - 2, " %s",
				      e->d_name);
		if (n > sizeof(text) - 16)
			break;
	}
	if (d)
		closedir(d);
	strcat(text, "\n");
	record(path, text);
}

/*
 * setsid: the child leaves our group and session, and forks a child of
 * its own; it tells us both once it has, so that we exit only after.
 */
static void escape(const char *path)
{
	char ids[160];
	long got[2] = { -1, -1 };
	int pipefd[2];
	pid_t kid;

	if (pipe(pipefd))
		return;
	kid = fork();
	if (kid == 0) {
		long said[2];

		said[0] = (long)setsid();
		said[1] = (long)fork();
		if (said[1] == 0)
			for (;;)
				pause();
		write_all(pipefd[1], (const char *)said, sizeof(said));
		for (;;)
			pause();
	}
	close(pipefd[1]);
	if (read(pipefd[0], got, sizeof(got)) != (ssize_t)sizeof(got))
		got[0] = got[1] = -1;
	snprintf(ids, sizeof(ids),
		 "pid %ld\npgid %ld\ngrandchild %ld\ngreat %ld\nsid %ld\n",
		 (long)getpid(), (long)getpgrp(), (long)kid, got[1], got[0]);
	record(path, ids);
}

static void leave_child(const char *path, int stay)
{
	pid_t kid = fork();
	char ids[96];

	if (kid == 0)
		for (;;)
			pause();
	snprintf(ids, sizeof(ids), "pid %ld\npgid %ld\ngrandchild %ld\n",
		 (long)getpid(), (long)getpgrp(), (long)kid);
	record(path, ids);
	while (stay)
		pause();
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	const char *res = argc > 2 ? argv[2] : "/dev/null";

	if (argc > 3 && !strcmp(res, "--result-fd"))
		rec_fd = atoi(argv[3]);
	if (!strcmp(what, "pass")) {
		record(res, "seed 1\nsize n=1 ok\ntime naive 100 99 101 20\n"
			    "time student 25 24.5 25.5 20\nbytes 1e6\n"
			    "verdict PASS\nend\n");
	} else if (!strcmp(what, "segv")) {
		struct rlimit no_core = { 0, 0 };

		setrlimit(RLIMIT_CORE, &no_core); /* no core files in tests */
		record(res, "seed 1\nsize n=1 ok\n");
		puts("about to crash");
		fflush(stdout);
		raise(SIGSEGV);
	} else if (!strcmp(what, "hang") || !strcmp(what, "orphan")) {
		leave_child(res, !strcmp(what, "hang"));
	} else if (!strcmp(what, "setsid")) {
		escape(res);
	} else if (!strcmp(what, "exit3")) {
		record(res, "seed 1\n");
		return 3;
	} else if (!strcmp(what, "garbage")) {
		record(res, "\x01\x02 nonsense\nverdict MAYBE\nend\n");
	} else if (!strcmp(what, "chatter")) {
		for (int i = 0; i < 4000; i++)
			printf("line %d of chatter that nobody reads .......\n", i);
		record(res, "verdict PASS\nend\n");
	} else if (!strcmp(what, "stderr")) {
		fputs("to stdout\n", stdout);
		fflush(stdout);
		fputs("to stderr\n", stderr);
	} else if (!strcmp(what, "rewrite")) {
		rewrite(res);
	} else if (!strcmp(what, "flood")) {
		flood(res);
	} else if (!strcmp(what, "nul")) {
		static const char nul[] = "verdict PASS\nend\n\0verdict WRONG\n";

		record_n(res, nul, sizeof(nul) - 1);
	} else if (!strcmp(what, "fds")) {
		list_fds(res);
	} else {
		fprintf(stderr, "usage: fake_child pass|segv|hang|orphan|setsid|"
				"exit3|garbage|chatter|stderr|rewrite|flood|nul|"
				"fds RESULT | --result-fd N\n");
		return 2;
	}
	return 0;
}
