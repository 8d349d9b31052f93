/* SPDX-License-Identifier: MIT */
/*
 * fake_child.c - a stand-in exercise runner for the process-runner and
 * record tests: it misbehaves on request.
 *
 *   fake_child pass RESULT      a complete PASS record
 *   fake_child segv RESULT      half a record, then SIGSEGV
 *   fake_child hang RESULT      never ends (and forks a child that sleeps)
 *   fake_child exit3 RESULT     half a record, then exit(3)
 *   fake_child garbage RESULT   a closed record full of nonsense
 *   fake_child chatter RESULT   200 KB on stdout, then a PASS record
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
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
		record(res, "seed 1\nsize n=1 ok\n");
		puts("about to crash");
		fflush(stdout);
		raise(SIGSEGV);
	} else if (!strcmp(what, "hang")) {
		if (fork() == 0)
			for (;;)
				pause();
		for (;;)
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
	}
	return 0;
}
