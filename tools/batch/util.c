/* SPDX-License-Identifier: MIT */
/*
 * util.c - the batch's small helpers: argument vectors, folders made and
 * removed without following links, files written whole or not at all,
 * quoting for sh and JSON.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "batch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int bt_fmt(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(out, n, fmt, ap);
	va_end(ap);
	return len;
}

void bt_args_init(struct bt_args *a)
{
	memset(a, 0, sizeof(*a));
}

void bt_args_add(struct bt_args *a, const char *s)
{
	char *copy = strdup(s);

	if (!copy || a->n >= BT_MAX_ARGS) {
		free(copy);
		a->overflow = 1;
		return;
	}
	a->v[a->n++] = copy;
	a->v[a->n] = NULL;
}

void bt_args_addf(struct bt_args *a, const char *fmt, ...)
{
	char buf[BT_PATH + 256];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(buf)) {
		a->overflow = 1;
		return;
	}
	bt_args_add(a, buf);
}

void bt_args_free(struct bt_args *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	bt_args_init(a);
}

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

unsigned long long bt_fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void bt_shell_quote(const char *s, char *out, size_t n)
{
	size_t o = 0;

	if (n < 3) {
		if (n)
			*out = '\0';
		return;
	}
	out[o++] = '\'';
	for (; *s && o + 5 < n; s++) {
		if (*s == '\'') {
			memcpy(out + o, "'\\''", 4);
			o += 4;
		} else {
			out[o++] = *s;
		}
	}
	out[o++] = '\'';
	out[o] = '\0';
}

char *bt_json_escape(const char *s)
{
	size_t len = strlen(s), o = 0;
	char *out = malloc(6 * len + 1);

	if (!out)
		return NULL;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			out[o++] = '\\';
			out[o++] = c;
		} else if (c == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else if (c == '\t') {
			out[o++] = '\\';
			out[o++] = 't';
		} else if (c < 0x20 || c >= 0x7f) {
			/* Names come from students' archives: any bytes. */
			o += sprintf(out + o, "\\u%04x", c < 0x20 ? c : 0xfffd);
		} else {
			out[o++] = c;
		}
	}
	out[o] = '\0';
	return out;
}

/*
 * The grader writes {"score": ..., "output": "<text>", ..., "tests": [...]}
 * with the top-level "output" before "tests"; the note goes at the start
 * of that text. A file without it is left as it is.
 */
int bt_json_add_note(const char *json_path, const char *note)
{
	static const char key[] = "\"output\": \"";
	char *text = bt_read(json_path, 64 << 20), *at, *esc, *out;
	size_t head;
	int rc = -1;

	if (!text)
		return -1;
	at = strstr(text, key);
	if (!at || (strstr(text, "\"tests\"") && strstr(text, "\"tests\"") < at)) {
		free(text);
		return -1;
	}
	esc = bt_json_escape(note);
	head = (size_t)(at - text) + strlen(key);
	out = esc ? malloc(strlen(text) + strlen(esc) + 1) : NULL;
	if (out) {
		memcpy(out, text, head);
		strcpy(out + head, esc);
		strcat(out, text + head);
		rc = bt_write_atomic(json_path, out);
	}
	free(out);
	free(esc);
	free(text);
	return rc;
}

char *bt_replace(char *text, const char *from, const char *to)
{
	size_t nf = strlen(from), nt = strlen(to), count = 0, o = 0;
	char *out;

	if (!nf)
		return text;
	for (char *p = text; (p = strstr(p, from)); p += nf)
		count++;
	if (!count)
		return text;
	out = malloc(strlen(text) + count * nt + 1);
	if (!out) {
		free(text);
		return NULL;
	}
	for (char *p = text, *hit; ; p = hit + nf) {
		hit = strstr(p, from);
		if (!hit) {
			strcpy(out + o, p);
			break;
		}
		memcpy(out + o, p, hit - p);
		o += hit - p;
		memcpy(out + o, to, nt);
		o += nt;
	}
	free(text);
	return out;
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

double bt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void bt_fmt_duration(char *buf, size_t n, double s)
{
	long t = (long)(s + 0.5), min = (t + 30) / 60;

	if (t < 90)
		bt_fmt(buf, n, "%ld s", t);
	else if (t < 5400)
		bt_fmt(buf, n, "%ld min", min);
	else
		bt_fmt(buf, n, "%ld h %02ld min", min / 60, min % 60);
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

/* ---- JSON syntax (RFC 8259), to check what a sandbox wrote ---------- */

#define JSON_DEPTH 64

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* One UTF-8 character starting with a byte >= 0x80; NULL if invalid. */
static const char *json_utf8(const char *p)
{
	unsigned char c = (unsigned char)*p;
	int more = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? 2 :
		   c >= 0xc2 && c <= 0xdf ? 1 : -1;

	if (more < 0 || c > 0xf4)
		return NULL;
	while (more--)
		if (((unsigned char)*++p & 0xc0) != 0x80)
			return NULL;
	return p + 1;
}

static const char *json_string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	for (;;) {
		unsigned char c = (unsigned char)*p;

		if (c == '"')
			return p + 1;
		if (c < 0x20)
			return NULL; /* control characters, and the end */
		if (c >= 0x80) {
			if (!(p = json_utf8(p)))
				return NULL;
			continue;
		}
		if (c == '\\') {
			c = (unsigned char)*++p;
			if (c == 'u') {
				for (int i = 0; i < 4; i++) {
					c = (unsigned char)*++p;
					if (!c || !strchr("0123456789abcdefABCDEF", c))
						return NULL;
				}
			} else if (!c || !strchr("\"\\/bfnrt", c)) {
				return NULL;
			}
		}
		p++;
	}
}

static const char *json_digits(const char *p)
{
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return p;
}

static const char *json_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (!(p = json_digits(p)))
		return NULL;
	if (*p == '.' && !(p = json_digits(p + 1)))
		return NULL;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		p = json_digits(p);
	}
	return p;
}

/* [ ... ] or { ... } (members: "key": value), after the bracket. */
static const char *json_list(const char *p, int depth, char close)
{
	p = json_ws(p);
	if (*p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			p = json_string(json_ws(p));
			if (!p || *(p = json_ws(p)) != ':')
				return NULL;
			p++;
		}
		p = json_value(p, depth + 1);
		if (!p)
			return NULL;
		p = json_ws(p);
		if (*p == close)
			return p + 1;
		if (*p++ != ',')
			return NULL;
	}
}

static const char *json_value(const char *p, int depth)
{
	if (depth > JSON_DEPTH)
		return NULL;
	p = json_ws(p);
	switch (*p) {
	case '{':
		return json_list(p + 1, depth, '}');
	case '[':
		return json_list(p + 1, depth, ']');
	case '"':
		return json_string(p);
	case 't':
		return strncmp(p, "true", 4) ? NULL : p + 4;
	case 'f':
		return strncmp(p, "false", 5) ? NULL : p + 5;
	case 'n':
		return strncmp(p, "null", 4) ? NULL : p + 4;
	default:
		return json_number(p);
	}
}

int bt_json_valid(const char *text)
{
	const char *end;

	text = json_ws(text);
	if (*text != '{')
		return 0;
	end = json_value(text, 0);
	return end && !*json_ws(end);
}

int bt_take_json(const char *from, const char *to, long max, char *why,
		 size_t n)
{
	int fd = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char *text = NULL;
	struct stat st;
	ssize_t got = 0;
	int rc = -1;

	if (fd < 0 || fstat(fd, &st)) {
		bt_fmt(why, n, "cannot open it (%s; a link is never followed)",
		       strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > max) {
		bt_fmt(why, n, "not a regular file of at most %ld bytes", max);
		goto out;
	}
	text = malloc(st.st_size + 1);
	if (!text || (got = read(fd, text, st.st_size)) != st.st_size) {
		bt_fmt(why, n, "cannot read it");
		goto out;
	}
	text[got] = '\0';
	if (strlen(text) != (size_t)got || !bt_json_valid(text)) {
		bt_fmt(why, n, "not one JSON object");
		goto out;
	}
	rc = bt_write_atomic(to, text);
	if (rc)
		bt_fmt(why, n, "cannot write %s: %s", to, strerror(errno));
out:
	if (fd >= 0)
		close(fd);
	free(text);
	return rc;
}
