/* SPDX-License-Identifier: MIT */
/*
 * process.h - the process runner: a command as a process group of its
 * own, its output in files, a limit on the size of each file it writes,
 * a time limit, and whatever it left in its group killed when it ends
 * (its sandbox's cgroup removed). SIGINT, SIGTERM or SIGHUP stops the
 * batch once bt_catch_stop() has run: a command that bt_run() waits for
 * is then killed.
 * Floor 2 (batch.h): uses args, util and cgroup.
 */
#ifndef BATCH_PROCESS_H
#define BATCH_PROCESS_H

#include <sys/types.h>

#include "args.h"

/* Run a command to its end: its exit code (128 + signal; 124 when it ran
 * past timeout_s and was killed) in *status; -1 if it could not start.
 * Output to out_path, errors to err_path (NULL: to out_path too; out_path
 * BT_STDIO: this process's own). fsize: RLIMIT_FSIZE for it (-1: none). */
#define BT_STDIO ""
int bt_run(struct bt_args *a, const char *out_path, const char *err_path,
	   double timeout_s, long fsize, const char *cuda_visible, int *status);

/* Start a command as bt_run() does, lock_dir its WB_LOCK_DIR (NULL: as
 * it is), and return at once: its pid, which leads its process group, or
 * -1 if it could not start. */
pid_t bt_spawn(struct bt_args *a, const char *out, const char *err,
	       long fsize, const char *cuda_visible, const char *lock_dir);
/*
 * A command has ended, or must: kill what is left of the process group
 * pid leads, reap pid first when it was not yet (reap), and remove its
 * sandbox's cgroup (under cgroup; NULL: it has none).
 */
void bt_end_group(pid_t pid, const char *cgroup, int reap);
/* The exit status as one number: the code, 128 + a signal. */
int bt_exit_code(int st);
/* From now on SIGINT, SIGTERM and SIGHUP stop the batch (bt_stopped()). */
void bt_catch_stop(void);
/* Has one of them come? */
int bt_stopped(void);

#endif /* BATCH_PROCESS_H */
