/* SPDX-License-Identifier: MIT */
/*
 * sandbox.h - the bubblewrap sandbox a command runs in (sandbox.c's top
 * comment says what it shows and what it keeps out): struct bt_box, its
 * command line, whether one can be made here, and which /dev/nvidia node
 * is which GPU. Floor 2 (batch.h): uses args, util, files and process.
 */
#ifndef BATCH_SANDBOX_H
#define BATCH_SANDBOX_H

#include <stddef.h>

#include "args.h"

/* The uid and gid student code has inside a user namespace. */
#define BT_BOX_ID 65534
/* Processes and threads one sandbox may have at once (RLIMIT_NPROC, and
 * pids.max in a cgroup): a build or a grading uses a few dozen. */
#define BT_BOX_NPROC 256
/* Memory, at most: half the machine's, at most this much. */
#define BT_BOX_MEM_MAX (16LL << 30)

enum bt_box_kind {
	/* bwrap --unshare-user: uid 65534 inside; outside, the batch's own
	 * user, or when the batch runs as root the sandbox account, which
	 * --box-enter becomes before bwrap starts. RLIMIT_NPROC, set inside
	 * the new namespace, counts that sandbox's processes alone. */
	BT_BOX_USERNS,
	/* No user namespace (the batch runs as root): bwrap runs as root and
	 * --box-init becomes the sandbox account inside, before the command.
	 * RLIMIT_NPROC then counts that account's processes machine-wide. */
	BT_BOX_SETUID,
};

struct bt_box {
	const char *bwrap;         /* NULL: no sandbox */
	enum bt_box_kind kind;
	const char *self;          /* this program: --box-enter, --box-init */
	long uid, gid;             /* the sandbox account (-1: the batch's) */
	long nproc;                /* RLIMIT_NPROC, and pids.max */
	long long mem;             /* memory.max, else RLIMIT_DATA (0: none) */
	const char *cgroup;        /* a delegated cgroup v2 folder, or NULL */
	const char *repo;          /* where commands start (--chdir); not
				    * bound itself: of it, input[] alone */
	const char *input[8];      /* read-only, bound first: the repository's
				    * build inputs (bt_conf_box's allowlist) */
	int ninput;
	const char *hide[12];      /* folders covered by an empty tmpfs, where
				    * they lie inside an input[] */
	int nhide;
	const char *ro[12];        /* read-only paths bound after the hiding
				    * (the objects and tools in the build) */
	int nro;
	const char *scratch;       /* the one writable folder */
	int gpu;                   /* /dev/nvidia* and /sys */
	int gpu_minor;             /* only /dev/nvidia<N> of the GPUs; -1:
				    * every node (which one is not known) */
	const char *devdir;        /* where the nodes are (NULL: /dev) */
	const char *cuda_visible;  /* CUDA_VISIBLE_DEVICES, or NULL */
	const char *path_env;      /* PATH inside */
};

/*
 * Append the sandbox's command line for b to a: "[self --box-enter ...
 * --] bwrap ... -- self --box-init ... --"; the command follows. Nothing
 * when b->bwrap is NULL.
 */
int bt_box_argv(const struct bt_box *b, struct bt_args *a);
/* Can a sandbox be made here (b from bt_conf_box())? 1 yes; 0 with the
 * reason in why. */
int bt_box_probe(const struct bt_box *b, char *why, size_t n);

/* The /dev/nvidia<N> minor of the GPU with this UUID, from the driver's
 * procdir (/proc/driver/nvidia/gpus/<bus>/information); -1 if not found. */
int bt_gpu_minor(const char *procdir, const char *uuid);

#endif /* BATCH_SANDBOX_H */
