/* SPDX-License-Identifier: MIT */
/*
 * tsv.c - a grader results.tsv's columns (tsv.h), as the gradebook, the
 * class page and the leaderboard read them.
 *
 * Floor 1 (batch.h): uses util.
 */
#include "tsv.h"
#include "util.h"

#include <string.h>

int bt_tsv_col(const char *header, const char *name)
{
	size_t len = strlen(name);
	const char *p = header;

	for (int i = 0; p; i++) {
		if (!strncmp(p, name, len) && (p[len] == '\t' || p[len] == '\n' ||
					       !p[len]))
			return i;
		p = strchr(p, '\t');
		p = p ? p + 1 : NULL;
	}
	return -1;
}

void bt_tsv_field(const char *line, int k, char *out, size_t n)
{
	const char *p = line;

	out[0] = '\0';
	for (int i = 0; i < k && p; i++) {
		p = strchr(p, '\t');
		p = p ? p + 1 : NULL;
	}
	if (p)
		bt_fmt(out, n, "%.*s", (int)strcspn(p, "\t\n"), p);
}
