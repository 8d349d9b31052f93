/* SPDX-License-Identifier: MIT */
/*
 * fake_child.c - a stand-in exercise runner for the process-runner and
 * record tests: it misbehaves on request.
 *
 *   fake_child pass RESULT      a complete PASS record
 *   fake_child segv RESULT      half a record, then SIGSEGV
 *   fake_child hang RESULT      never ends (and forks a child that sleeps);
 *                               RESULT gets "pid P", "pgid G" and
 *                               "grandchild C" first, so a test can check
 *                               that the whole group was killed
 *   fake_child orphan RESULT    forks a child that sleeps, writes the same
 *                               ids as hang, and exits 0 at once
 *   fake_child exit3 RESULT     half a record, then exit(3)
 *   fake_child garbage RESULT   a closed record full of nonsense
 *   fake_child chatter RESULT   200 KB on stdout, then a PASS record
 *   fake_child stderr RESULT    a line on stdout and one on stderr
 *
 * Anything else: a usage line and exit status 2.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>

static void record(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	fputs(text, f);
	fclose(f);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	const char *res = argc > 2 ? argv[2] : "/dev/null";

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
		pid_t kid = fork();
		char ids[96];

		if (kid == 0)
			for (;;)
				pause();
		snprintf(ids, sizeof(ids),
			 "pid %ld\npgid %ld\ngrandchild %ld\n",
			 (long)getpid(), (long)getpgrp(), (long)kid);
		record(res, ids);
		while (!strcmp(what, "hang"))
			pause();
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
	} else {
		fprintf(stderr, "usage: fake_child pass|segv|hang|orphan|exit3|"
				"garbage|chatter|stderr RESULT\n");
		return 2;
	}
	return 0;
}
