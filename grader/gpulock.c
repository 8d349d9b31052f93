/* SPDX-License-Identifier: MIT */
/*
 * gpulock.c - the per-GPU lock file (see gpulock.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpulock.h"

void gpu_lock_path(char *buf, size_t n, const char *dir, const char *id)
{
	char key[128];

	snprintf(key, sizeof(key), "%s", id);
	key[strcspn(key, ",")] = '\0'; /* the first of a device list */
	for (char *p = key; *p; p++)
		if (!(*p >= '0' && *p <= '9') && !(*p >= 'a' && *p <= 'z') &&
		    !(*p >= 'A' && *p <= 'Z') && *p != '-')
			*p = '_';
	snprintf(buf, n, "%s/cuda-workbook-gpu-%s.lock",
		 dir && *dir ? dir : "/tmp", key);
}

/* Without O_CREAT first: a sticky /tmp may refuse to create-open another
 * user's file (fs.protected_regular); read-only locks all the same. */
int gpu_lock_open(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0 && errno == EACCES)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0)
			fchmod(fd, 0666); /* any user's grader may take it */
		else if (errno == EEXIST)
			fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	return fd;
}

int gpu_lock_try(int fd)
{
	return flock(fd, LOCK_EX | LOCK_NB) ? -1 : 0;
}

void gpu_lock_note_pid(int fd)
{
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());

	if (pwrite(fd, pid, (size_t)len, 0) == len)
		(void)!ftruncate(fd, len);
}
