/* SPDX-License-Identifier: MIT */
/*
 * util.c - the batch's small helpers on strings and time (util.h).
 *
 * Floor 0 (batch.h): uses the C library alone.
 */
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int bt_fmt(char *out, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(out, n, fmt, ap);
	va_end(ap);
	return len;
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
