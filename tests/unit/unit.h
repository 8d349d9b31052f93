/* SPDX-License-Identifier: MIT */
/*
 * unit.h - what every unit test file needs: cmocka (with the headers it
 * wants first), a double comparison that keeps double precision (cmocka's
 * assert_float_equal rounds to float), scratch directories and files.
 */
#ifndef UNIT_H
#define UNIT_H

#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

/* |a - b| <= eps in double precision; NaN never passes. */
#define assert_near(a, b, eps)                                              \
	do {                                                                \
		double a_ = (a), b_ = (b), e_ = (eps);                      \
		if (!(fabs(a_ - b_) <= e_))                                 \
			fail_msg("%s = %.17g, expected %.17g (within %g)",  \
				 #a, a_, b_, e_);                           \
	} while (0)

/* haystack contains needle, with both shown when it does not. */
#define assert_contains(haystack, needle)                                   \
	do {                                                                \
		const char *h_ = (haystack), *n_ = (needle);                \
		if (!h_ || !strstr(h_, n_))                                 \
			fail_msg("\"%s\" does not contain \"%s\"",          \
				 h_ ? h_ : "(null)", n_);                   \
	} while (0)

/* A fresh scratch directory under $TMPDIR (or /tmp); NULL on failure. */
static inline char *unit_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char path[512];

	snprintf(path, sizeof(path), "%s/wb-unit-XXXXXX",
		 base && *base ? base : "/tmp");
	return mkdtemp(path) ? strdup(path) : NULL;
}

/* Number of entries in dir, "." and ".." aside; -1 if it cannot be read. */
static inline int unit_dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* Remove a scratch directory and what the tests left in it (one level). */
static inline void unit_rmdir(char *dir)
{
	DIR *d;
	struct dirent *e;
	char path[1024];

	if (!dir)
		return;
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (remove(path) != 0)
			rmdir(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	free(dir);
}

/* A whole file as a string (free it); NULL when it cannot be read. */
static inline char *unit_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = n >= 0 ? calloc(1, (size_t)n + 1) : NULL;
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Write text to path, replacing it; fails the test when it cannot. */
static inline void unit_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* dir/name into buf. */
static inline const char *unit_path(char *buf, size_t n, const char *dir,
				    const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
	return buf;
}

#endif /* UNIT_H */
