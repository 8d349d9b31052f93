/* SPDX-License-Identifier: MIT */
/*
 * proc.h - run a child in its own process group with a time limit.
 *
 * The child's standard output and error go to a file; on expiry the whole
 * process group is killed. The driver is a child subreaper, so whatever
 * the child leaves behind comes to it when the child ends, even a process
 * that left the group with setsid: after every run each of those is
 * killed too, so that nothing outlives its exercise.
 *
 * A runner's result record comes back on a pipe (proc_run_record): the
 * child gets its write end as descriptor PROC_RECORD_FD. A pipe cannot be
 * rewound, so what was written cannot be rewritten, only added to.
 */
#ifndef GRADER_PROC_H
#define GRADER_PROC_H

#include <stddef.h>

/* The descriptor on which proc_run_record()'s child finds the pipe (give
 * it "--result-fd" PROC_RECORD_FD_ARG), and the most a record may hold. */
#define PROC_RECORD_FD 3
#define PROC_RECORD_FD_ARG "3"
#define PROC_RECORD_MAX (1 << 20)

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

/* What a child wrote on PROC_RECORD_FD. */
struct proc_record {
	char *text;     /* NUL-terminated, NUL bytes made spaces; free() it */
	size_t len;
	int too_long;   /* more than PROC_RECORD_MAX bytes: text holds the
			 * first ones, and the pipe was closed on the writer */
	int save_errno; /* copying it to rec_path failed so; 0 when copied */
};

/*
 * proc_run(), with a pipe for the record: read while the child runs,
 * then, once every process the run left is gone, copied to rec_path for
 * people (NULL: not copied). argv must tell the child where to write
 * (for a runner: "--result-fd", PROC_RECORD_FD_ARG). Returns 0, or -1 if
 * the child could not be started or was lost track of; rec->text is NULL
 * only then. A file already at rec_path is replaced, never written
 * through.
 */
int proc_run_record(char *const argv[], const char *out_path,
		    const char *rec_path, double timeout_s,
		    struct proc_result *r, struct proc_record *rec);

/* Kill the child running now, if any (for a SIGINT handler). */
void proc_kill_current(void);

/* Read a whole file (at most max bytes) into a new string; NULL on error. */
char *read_file(const char *path, size_t max);

/* The last max bytes of a file, at a line start where possible. */
char *file_tail(const char *path, size_t max);

/* Where the toolkit's program name is: <cuda_home>/bin, then every folder
 * of path_env, as san_locate() without a given path. */
const char *g_tool_locate(const char *name, const char *cuda_home,
			  const char *path_env, char *buf, size_t n);

/* Is there a file (or folder) at path? */
int file_exists(const char *path);

#endif /* GRADER_PROC_H */
