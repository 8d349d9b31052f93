/* SPDX-License-Identifier: MIT */
/*
 * args.h - an argument vector whose strings it owns: every command the
 * batch runs is built in one. Floor 0 (batch.h): uses batch.h's limits.
 */
#ifndef BATCH_ARGS_H
#define BATCH_ARGS_H

#include "batch.h"

/* An argument vector whose strings it owns. */
struct bt_args {
	char *v[BT_MAX_ARGS + 1];
	int n;
	int overflow;        /* an add did not fit: never run it */
	const char *cgroup;  /* a sandbox's cgroups are made under this
			      * folder: removed when the command ends */
};

void bt_args_init(struct bt_args *a);
void bt_args_add(struct bt_args *a, const char *s);
void bt_args_addf(struct bt_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bt_args_free(struct bt_args *a);

#endif /* BATCH_ARGS_H */
