/* SPDX-License-Identifier: MIT */
#include "sanitize.h"
#include "proc.h"
#include "record.h"
#include "settle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

unsigned san_plan(int all, unsigned required)
{
	return (all ? SAN_ALL : 0) | required;
}

/* "racecheck and synccheck": the tools of mask, for the details. */
static void tool_names(unsigned mask, char *out, size_t n)
{
	int count = 0, total = 0;
	size_t k = 0;

	*out = '\0';
	for (int i = 0; i < 3; i++)
		total += !!(mask & (1u << i));
	for (int i = 0; i < 3 && k < n; i++) {
		if (!(mask & (1u << i)))
			continue;
		count++;
		k += snprintf(out + k, n - k, "%s%s",
			      count == 1 ? "" : count == total ? " and " : ", ",
			      san_tools[i].name);
	}
}

/* A required tool could not run: no points, and what to do about it. */
static enum wb_verdict unchecked(struct g_result *r, unsigned required,
				 const char *why)
{
	char names[64];

	tool_names(required, names, sizeof(names));
	g_settle(r, WB_V_ERROR);
	g_detail(r, "sanitizers: this exercise is graded only under "
		    "compute-sanitizer %s (a race here usually gives the right "
		    "answer): no points until they run", names);
	g_detail(r, "  %s", why);
	return r->verdict;
}

enum wb_verdict san_run_plan(unsigned plan, unsigned required,
			     const char *path, const char *shown_path,
			     san_run_fn *run, void *arg, struct g_result *r)
{
	char names[64], why[G_DETAIL_LEN - 8];

	if (!plan)
		return r->verdict;
	if (!path) {
		snprintf(why, sizeof(why), "there is no compute-sanitizer at %s "
			 "(SANITIZER= names it; it comes with the CUDA Toolkit)",
			 shown_path ? shown_path : "its usual places");
		if (required)
			return unchecked(r, required, why);
		g_detail(r, "sanitizers: not run (no compute-sanitizer at %s)",
			 shown_path ? shown_path : "its usual places");
		return r->verdict;
	}
	for (int i = 0; i < 3; i++) {
		int found;

		if (!(plan & (1u << i)))
			continue;
		found = run(&san_tools[i], r, arg);
		if (found > 0)
			return r->verdict;
		if (found < 0 && (required & (1u << i))) {
			snprintf(why, sizeof(why), "%s could not check it "
				 "(above: why)", san_tools[i].name);
			return unchecked(r, required, why);
		}
		if (found < 0)
			plan &= ~(1u << i);
	}
	tool_names(plan, names, sizeof(names));
	if (*names)
		g_detail(r, "sanitizers: %s found nothing at the small sizes%s",
			 names, required ? " (this exercise always runs "
					   "compute-sanitizer)" : "");
	return r->verdict;
}

void san_note_required(unsigned required, const char *path,
		       struct g_result *r)
{
	char names[64];

	if (!required)
		return;
	tool_names(required, names, sizeof(names));
	if (path)
		g_detail(r, "sanitizers: a grade runs compute-sanitizer %s on "
			    "it every time (%s)", names, path);
	else
		g_detail(r, "sanitizers: a grade runs compute-sanitizer %s on "
			    "it every time, and compute-sanitizer is not "
			    "installed here: graded here, it would earn nothing "
			    "(make doctor says how to install it)", names);
}

/*
 * The tool found nothing: did the exercise pass under it (its record in
 * res)? 0 if so; -1, said, if it ended otherwise (WRONG, CRASH, ... at
 * the small sizes, or no record): the tool could not vouch for it.
 */
int san_record_passed(const struct san_tool *t, const char *res,
		      struct g_result *r)
{
	static struct g_result under; /* large: not on the stack */
	char *text = read_file(res, 1 << 20);

	memset(&under, 0, sizeof(under));
	if (text)
		g_parse_record(text, &under);
	free(text);
	if (under.complete && under.verdict == WB_V_PASS)
		return 0;
	g_detail(r, "sanitizers: under %s the exercise %s%s (its record: %s): "
		    "not checked", t->name,
		 under.complete ? "was " : "left no complete result",
		 under.complete ? wb_verdict_label(under.verdict) : "", res);
	if (under.complete && under.ndetails)
		g_detail(r, "  %s", under.details[0]);
	return -1;
}

const char *san_locate(const char *given, const char *cuda_home,
		       const char *path_env, char *buf, size_t n)
{
	struct stat st;

	if (given && *given && strchr(given, '/')) {
		snprintf(buf, n, "%s", given);
		return !stat(buf, &st) && S_ISREG(st.st_mode) ? buf : NULL;
	}
	return g_tool_locate("compute-sanitizer", cuda_home, path_env, buf, n);
}
