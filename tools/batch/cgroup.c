/* SPDX-License-Identifier: MIT */
/*
 * cgroup.c - a sandbox's cgroup (cgroup.h): with a delegated cgroup v2
 * folder, each sandbox gets a cgroup of its own under it, wb-<pid>, with
 * memory.max and pids.max (sandbox.c's top comment says what else limits
 * it); --box-enter joins it, and the process runner removes it, with
 * whatever is left in it, when the sandbox's command has ended.
 *
 * Floor 2 (batch.h): uses util and files.
 */
#include "cgroup.h"
#include "batch.h"
#include "files.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#define CGROUP2_MAGIC 0x63677270

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[BT_PATH];
	int fd, rc;

	bt_fmt(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	return close(fd) || rc ? -1 : 0;
}

int bt_cgroup_join(const char *cgroup, long long nproc, long long mem)
{
	char dir[BT_PATH], num[32];

	bt_fmt(dir, sizeof(dir), "%s/wb-%ld", cgroup, (long)getpid());
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -1;
	bt_fmt(num, sizeof(num), "%lld\n", nproc);
	if (write_file(dir, "pids.max", num))
		return -1;
	if (mem > 0) {
		bt_fmt(num, sizeof(num), "%lld\n", mem);
		if (write_file(dir, "memory.max", num))
			return -1;
		/* Swap would only slow a hog down: none (where there is
		 * a knob for it). */
		write_file(dir, "memory.swap.max", "0\n");
	}
	return write_file(dir, "cgroup.procs", "0\n");
}

void bt_box_cleanup(const char *cgroup, long pid)
{
	char dir[BT_PATH];
	struct timespec nap = { 0, 20 * 1000 * 1000 };

	if (!cgroup || pid <= 0)
		return;
	bt_fmt(dir, sizeof(dir), "%s/wb-%ld", cgroup, pid);
	if (!bt_is_dir(dir))
		return;
	/* Whatever is left in it dies now (Linux >= 5.14; before that the
	 * sandbox's pid namespace has already ended it). */
	write_file(dir, "cgroup.kill", "1\n");
	for (int i = 0; i < 250 && rmdir(dir) && errno == EBUSY; i++)
		nanosleep(&nap, NULL);
}

int bt_cgroup_usable(const char *dir, char *why, size_t n)
{
	char path[BT_PATH], *ctl;
	struct statfs fs;
	int ok;

	if (statfs(dir, &fs) || fs.f_type != CGROUP2_MAGIC) {
		bt_fmt(why, n, "%s is not a cgroup v2 folder", dir);
		return 0;
	}
	bt_fmt(path, sizeof(path), "%s/cgroup.subtree_control", dir);
	ctl = bt_read(path, 4096);
	ok = ctl && strstr(ctl, "pids") && strstr(ctl, "memory");
	free(ctl);
	if (!ok && write_file(dir, "cgroup.subtree_control", "+pids +memory\n")) {
		bt_fmt(why, n, "%s does not give its children the pids and "
		       "memory controllers, and cannot be made to (echo "
		       "'+pids +memory' > %s: %s; the folder must hold no "
		       "process)", dir, path, strerror(errno));
		return 0;
	}
	bt_fmt(path, sizeof(path), "%s/cgroup.procs", dir);
	if (access(dir, W_OK) || access(path, W_OK)) {
		bt_fmt(why, n, "%s is not writable by this user", dir);
		return 0;
	}
	return 1;
}
