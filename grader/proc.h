/* SPDX-License-Identifier: MIT */
/*
 * proc.h - run a child in its own process group with a time limit.
 *
 * The child's standard output and error go to a file; on expiry the whole
 * process group is killed, so a hung kernel or a forked helper cannot
 * outlive its exercise.
 */
#ifndef GRADER_PROC_H
#define GRADER_PROC_H

#include <stddef.h>

struct proc_result {
	int exited;    /* ended by exit(); code holds the status */
	int code;
	int signaled;  /* ended by a signal; signo holds it */
	int signo;
	int timed_out; /* killed by us at the time limit */
	double wall_s;
};

/*
 * Run argv[0] (a path) with argv, output to out_path (NULL: discard),
 * at most timeout_s seconds. Returns 0, or -1 if it could not be started.
 */
int proc_run(char *const argv[], const char *out_path, double timeout_s,
	     struct proc_result *r);

/* Kill the child running now, if any (for a SIGINT handler). */
void proc_kill_current(void);

/* Read a whole file (at most max bytes) into a new string; NULL on error. */
char *read_file(const char *path, size_t max);

/* The last max bytes of a file, at a line start where possible. */
char *file_tail(const char *path, size_t max);

#endif /* GRADER_PROC_H */
