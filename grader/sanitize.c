/* SPDX-License-Identifier: MIT */
#include "sanitize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct san_tool san_tools[3] = {
	{ "memcheck", WB_V_MEMCHECK },
	{ "racecheck", WB_V_RACE },
	{ "synccheck", WB_V_SYNC },
};

/* Lines that are not part of a report's own words. */
static int skip_line(const char *l)
{
	static const char *const noise[] = {
		"COMPUTE-SANITIZER", "ERROR SUMMARY", "RACECHECK SUMMARY",
		"Program hit", "Target application returned",
	};

	for (size_t i = 0; i < sizeof(noise) / sizeof(noise[0]); i++)
		if (strstr(l, noise[i]))
			return 1;
	return *l == '\0';
}

int san_condense(const char *text, char out[][G_DETAIL_LEN], int max)
{
	static const char prefix[] = "=========";
	const char *p = text;
	int n = 0;

	while (p && *p && n < max) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char line[G_DETAIL_LEN];
		const char *body;

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ?
						     len : sizeof(line) - 1), p);
		p = end ? end + 1 : NULL;
		if (strncmp(line, prefix, sizeof(prefix) - 1))
			continue; /* the program's own output */
		body = line + sizeof(prefix) - 1;
		while (*body == ' ')
			body++;
		/* A blank line or the host backtrace ends a report. */
		if (!*body || strstr(body, "Saved host backtrace") ||
		    strstr(body, "Host Frame")) {
			if (n)
				break;
			continue;
		}
		if (skip_line(body))
			continue;
		snprintf(out[n++], G_DETAIL_LEN, "%s", body);
	}
	return n;
}
