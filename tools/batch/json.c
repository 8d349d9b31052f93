/* SPDX-License-Identifier: MIT */
/*
 * json.c - JSON (json.h): escaping, a note put in a results.json, and the
 * syntax check that a results.json sandboxed code wrote passes before it
 * is taken out of the sandbox's folder.
 *
 * Floor 0 (batch.h): uses util and files.
 */
#include "json.h"
#include "files.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
