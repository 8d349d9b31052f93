/* SPDX-License-Identifier: MIT */
/*
 * inspect.c - the checks on a student's compiled file, put together
 * (inspect.h): read what inspect.sh left next to the runner, then the
 * symbol checks (symbols.c), the technique rules (technique.c) and the
 * audit line (audit.c).
 */
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "proc.h"
#include "record.h"

/* Seconds allowed to cuobjdump. */
#define SASS_TIMEOUT_S 60.0

static char *load_fresh(const char *runner, const char *ext, time_t since)
{
	char path[1024];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", runner, ext);
	if (stat(path, &st) || st.st_mtime < since)
		return NULL; /* missing, or left from an older build */
	return read_file(path, 64u << 20);
}

void g_objinfo_load(const char *runner, struct g_objinfo *oi)
{
	struct stat st;
	time_t since = stat(runner, &st) ? 0 : st.st_mtime;

	memset(oi, 0, sizeof(*oi));
	oi->syms = load_fresh(runner, ".syms", since);
	oi->ctors = load_fresh(runner, ".ctors", since);
	oi->calls = load_fresh(runner, ".calls", since);
	oi->entries = load_fresh(runner, ".entries", since);
	oi->labsyms = load_fresh(runner, ".labsyms", since);
	oi->hostsys = load_fresh(runner, ".hostsys", since);
	oi->ptx = load_fresh(runner, ".ptx", since);
	oi->sass = load_fresh(runner, ".sass", since);
	oi->resources = load_fresh(runner, ".resources", since);
}

void g_objinfo_free(struct g_objinfo *oi)
{
	free(oi->syms);
	free(oi->ctors);
	free(oi->calls);
	free(oi->entries);
	free(oi->labsyms);
	free(oi->hostsys);
	free(oi->ptx);
	free(oi->sass);
	free(oi->resources);
	memset(oi, 0, sizeof(*oi));
}

/* Does one of s's technique rules read the SASS? */
static int reads_sass(const struct g_spec *s)
{
	for (int i = 0; i < s->nrules; i++)
		if (!strcmp(s->rules[i].where, "sass"))
			return 1;
	return 0;
}

/*
 * RUNNER.sass, made now from RUNNER.o by cuobjdump (CUDA_HOME's, or
 * /usr/local/cuda's, as for compute-sanitizer; else the first on PATH);
 * NULL when there is no cuobjdump or it failed (the rule is then "not
 * checked"). The build does not make it: cuobjdump takes most
 * of a second (0.67 s on an H100 machine), the one-exercise loop's largest
 * step after nvcc, and only an exercise with a rule on the SASS reads it.
 */
static char *sass_extract(const char *runner)
{
	char tool[1024], obj[1024], out[1024];
	char *argv[] = { tool, (char *)"-sass", obj, NULL };
	const char *home = getenv("CUDA_HOME");
	struct proc_result pr;

	if (!g_tool_locate("cuobjdump", home ? home : "/usr/local/cuda",
			   getenv("PATH"), tool, sizeof(tool)))
		return NULL;
	snprintf(obj, sizeof(obj), "%s.o", runner);
	snprintf(out, sizeof(out), "%s.sass", runner);
	if (proc_run(argv, out, SASS_TIMEOUT_S, &pr) < 0 || !pr.exited ||
	    pr.code != 0) {
		remove(out);
		return NULL;
	}
	return read_file(out, 64u << 20);
}

int g_inspect_runner(const char *runner, const struct g_spec *s,
		     struct g_result *r, int build_only)
{
	struct g_objinfo oi;
	char fn[128];
	int rejected;

	g_objinfo_load(runner, &oi);
	if (!oi.sass && reads_sass(s))
		oi.sass = sass_extract(runner);
	rejected = g_check_symbols(&oi, r) < 0;
	/* A skeleton's code is not written yet: its rules wait for it. */
	if (!rejected && g_is_skeleton(&oi, fn, sizeof(fn)) &&
	    (s->nrules || s->bad_rules))
		g_detail(r, "rules: checked once you write it");
	else if (!rejected)
		g_check_technique(s, &oi, r);
	if (!oi.syms && !rejected)
		g_detail(r, "symbols: not checked (no %s.syms: rebuild with make "
			    "to inspect the file)", runner);
	else if (!oi.hostsys && !rejected)
		g_detail(r, "system calls: not checked (no %s.hostsys: objdump "
			    "failed, see %s.inspect.log)", runner, runner);
	if (build_only && !rejected)
		g_build_only(&oi, r);
	g_audit(&oi, r->audit, sizeof(r->audit));
	g_objinfo_free(&oi);
	return rejected ? -1 : 0;
}
