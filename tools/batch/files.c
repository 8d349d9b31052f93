/* SPDX-License-Identifier: MIT */
/*
 * files.c - files and folders (files.h): folders made and removed without
 * following links, files written whole or not at all, a student's results
 * published atomically and a crash in between recovered from.
 *
 * Floor 0 (batch.h): uses batch.h's limits and util.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "files.h"
#include "batch.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int bt_is_dir(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int bt_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int bt_mkdirs(const char *path)
{
	char buf[BT_PATH];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -1;
	return bt_is_dir(buf) ? 0 : -1;
}

/* rm -rf that never follows a link: a student may leave one to /. */
int bt_rmtree(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	chmod(path, 0700); /* a folder a student made read-only */
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char sub[BT_PATH];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (bt_fmt(sub, sizeof(sub), "%s/%s", path, e->d_name) >=
		    (int)sizeof(sub)) {
			rc = -1;
			continue;
		}
		rc |= bt_rmtree(sub);
	}
	closedir(d);
	return rmdir(path) ? -1 : rc;
}

long bt_copy_file(const char *from, const char *to, long max)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_NOFOLLOW), out = -1;
	long total = 0;
	ssize_t got;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
	if (out < 0)
		goto fail;
	while ((got = read(in, buf, sizeof(buf))) > 0) {
		total += got;
		if (max >= 0 && total > max)
			goto fail;
		if (write(out, buf, got) != got)
			goto fail;
	}
	if (got < 0 || close(out))
		goto fail_closed;
	close(in);
	return total;
fail:
	close(out);
fail_closed:
	close(in);
	unlink(to);
	return -1;
}

int bt_fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

int bt_write_atomic(const char *path, const char *text)
{
	char tmp[BT_PATH + 8];
	size_t len = strlen(text);
	int fd;

	bt_fmt(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -1;
	if (write(fd, text, len) != (ssize_t)len || fsync(fd) || close(fd)) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * A student's results appear whole: written to dir/.tmp-<id>, then the
 * old folder (a regrade) is renamed to dir/.old-<id>, the new one into
 * place, and the old one removed. A crash leaves the old result or the
 * new one, never a mix, and bt_recover() tidies what is left.
 */
int bt_publish(const char *dir, const char *id, const char *tmp)
{
	char final[BT_PATH], old[BT_PATH];

	bt_fmt(final, sizeof(final), "%s/%s", dir, id);
	bt_fmt(old, sizeof(old), "%s/.old-%s", dir, id);
	bt_rmtree(old);
	if (bt_exists(final) && rename(final, old))
		return -1;
	if (rename(tmp, final)) {
		rename(old, final);
		return -1;
	}
	bt_fsync_path(dir);
	bt_rmtree(old);
	return 0;
}

void bt_recover(const char *dir, const char *id)
{
	char final[BT_PATH], old[BT_PATH], tmp[BT_PATH];

	bt_fmt(final, sizeof(final), "%s/%s", dir, id);
	bt_fmt(old, sizeof(old), "%s/.old-%s", dir, id);
	bt_fmt(tmp, sizeof(tmp), "%s/.tmp-%s", dir, id);
	bt_rmtree(tmp);
	if (bt_exists(old) && !bt_exists(final))
		rename(old, final);
	bt_rmtree(old);
}

int bt_which(const char *name, char *out, size_t n)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/')) {
		bt_fmt(out, n, "%s", name);
		return access(out, X_OK);
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);

		if (len > 0 && (size_t)bt_fmt(out, n, "%.*s/%s", (int)len, path,
						name) < n &&
		    access(out, X_OK) == 0 && !bt_is_dir(out))
			return 0;
		path += len + (colon != NULL);
	}
	*out = '\0';
	return -1;
}

int bt_realpath(const char *path, char *out, size_t n)
{
	char buf[PATH_MAX];

	if (!realpath(path, buf) || strlen(buf) >= n)
		return -1;
	memcpy(out, buf, strlen(buf) + 1);
	return 0;
}

int bt_path_inside(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	if (len == 1 && dir[0] == '/')
		return path[0] == '/';
	return !strncmp(path, dir, len) && (path[len] == '\0' || path[len] == '/');
}

char *bt_read(const char *path, size_t max)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t got;

	if (!f)
		return NULL;
	buf = malloc(max + 1);
	if (!buf) {
		fclose(f);
		return NULL;
	}
	got = fread(buf, 1, max, f);
	buf[got] = '\0';
	fclose(f);
	return buf;
}

int bt_inside_regular(const char *path, const char *dir)
{
	char real[BT_PATH], base[BT_PATH];
	struct stat st;

	if (bt_realpath(path, real, sizeof(real)) ||
	    bt_realpath(dir, base, sizeof(base)))
		return 0;
	return bt_path_inside(real, base) && !lstat(real, &st) &&
	       S_ISREG(st.st_mode);
}
