/* SPDX-License-Identifier: MIT */
/*
 * modes.h - what the batch tool does once set up. Floor 6 (batch.h): uses
 * cli, setup, settings, schedule, book, slurm, collect, conf, sandbox,
 * process, args, json, util and files.
 */
#ifndef BATCH_MODES_H
#define BATCH_MODES_H

#include "cli.h"
#include "sub.h"

/*
 * --exec and --sandbox-exec: one command in the sandbox whose writable
 * folder is scratch, on the first GPU (none with --build-only), with
 * this process's input and output; its exit status, 124 past
 * --grade-timeout.
 */
int mode_exec_boxed(struct cli *k, const char *scratch);
/* --take-json FROM TO: 0, or 1 said. */
int mode_take_json(const char *from, const char *to);
/* The mode the command line asked for over subs[0..n-1]: the Slurm
 * scripts, the gradebook alone (--merge), a command in a student's
 * sandbox (--exec), or grade (a Slurm task: its share) and then the
 * gradebook. The batch's exit status. */
int mode_run(struct cli *k, struct bt_sub *subs, int n, const char *argv0);

#endif /* BATCH_MODES_H */
