/* SPDX-License-Identifier: MIT */
/*
 * cgroup.h - a sandbox's cgroup, under a delegated cgroup v2 folder
 * (SANDBOX_CGROUP): made and joined with its limits, removed when the
 * sandbox has ended, and the folder checked first.
 * Floor 2 (batch.h): uses util and files.
 */
#ifndef BATCH_CGROUP_H
#define BATCH_CGROUP_H

#include <stddef.h>

/* Make <cgroup>/wb-<pid> for this process, set its limits (pids.max; with
 * mem > 0 memory.max, and no swap) and move this process into it: 0, or
 * -1. */
int bt_cgroup_join(const char *cgroup, long long nproc, long long mem);

/* After a sandbox whose first process was pid has ended: remove its
 * cgroup (under cgroup; nothing when NULL). */
void bt_box_cleanup(const char *cgroup, long pid);
/* Is dir a cgroup v2 folder a sandbox's cgroup can be made in? 1 yes;
 * 0 with the reason in why. */
int bt_cgroup_usable(const char *dir, char *why, size_t n);

#endif /* BATCH_CGROUP_H */
