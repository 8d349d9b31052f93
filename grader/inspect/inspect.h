/* SPDX-License-Identifier: MIT */
/*
 * inspect.h - checks on a student's compiled file, before and apart from
 * running it (docs/grading.md, "Integrity").
 *
 * grader/inspect/inspect.sh, run by make after each runner is linked, leaves text
 * files next to the runner: the object's symbols (.syms), its constructor
 * tables (.ctors), who refers to what (.calls), the lab's entry points
 * (.entries), what the lab's objects define (.labsyms), the system-call
 * instructions of its host code (.hostsys), its PTX (.ptx) and, where
 * cuobjdump is installed, its SASS (.sass). From them:
 *
 *   - symbols: the file may define only the exercise's entry points, its
 *     own kernels and device functions, and what nvcc and the headers
 *     generate; no static constructor or destructor of its own; it may
 *     refer only to the families of an allowlist (the CUDA runtime but
 *     its device-wide settings, memory, strings, printing, math, C++
 *     runtime support), never to the grader's or the lab's own symbols;
 *     and its host code may make no system call itself. A violation is
 *     the verdict REJECTED, and the file is never run.
 *   - audit: words for what is allowed but unusual, for instructors.
 *   - technique: each exercise's rules (harness.h, struct wb_rule), read
 *     from `info --rules`: must or must not contain a pattern. A failed
 *     rule withholds the performance points.
 *
 * The checks parse text only, so they are unit-tested on recorded files.
 * They are in these files, one job each:
 *
 *   inspect.c    reading inspect.sh's files; all the checks on one runner
 *   symbols.c    the symbol checks (g_check_symbols)
 *   allowlist.c  what a file may refer to, by family (allowlist.h)
 *   symname.c    reading names in nm's and PTX's text (symname.h)
 *   technique.c  the technique rules: read, checked, applied
 *   audit.c      the audit line
 */
#ifndef GRADER_INSPECT_H
#define GRADER_INSPECT_H

#include "grade.h"

/* What inspect.sh left for one runner (NULL: that file is missing). */
struct g_objinfo {
	char *syms;    /* "TYPE NAME\tDEMANGLED" lines */
	char *ctors;   /* "SECTION FUNCTION REFS...\tDEMANGLED" lines */
	char *calls;   /* "CALLEE CALLER" lines */
	char *entries; /* one entry point a line */
	char *labsyms; /* what the lab's objects define, one a line */
	char *hostsys; /* "INSTRUCTION FUNCTION\tDEMANGLED": system calls */
	char *ptx;
	char *sass;
	char *resources; /* "FUNCTION ARCH REGS SHARED STACK STORES LOADS\t
			  * DEMANGLED": each kernel, from ptxas */
};

/* Read RUNNER.syms etc., skipping any older than the runner itself. */
void g_objinfo_load(const char *runner, struct g_objinfo *oi);
void g_objinfo_free(struct g_objinfo *oi);

/* resources.c: what a build alone can say (the no-GPU report). Whether
 * the file still calls WB_TODO, and from which function (fn); a detail
 * per kernel with its registers, static shared memory and spills. */
int g_is_skeleton(const struct g_objinfo *oi, char *fn, size_t n);
void g_resources_details(const struct g_objinfo *oi, struct g_result *r);
/* Build-only mode's verdict for a runner that built and was not rejected:
 * SKELETON or BUILT, with the kernels' details (g_inspect_runner()). */
void g_build_only(const struct g_objinfo *oi, struct g_result *r);

/*
 * The symbol checks: 0 when the file may run, -1 with the reasons added to
 * r as details (at most a few) when it may not. Partial information (no
 * PTX) is checked as far as it goes.
 */
int g_check_symbols(const struct g_objinfo *oi, struct g_result *r);

/* Parse `info --rules` output into the specs it names; returns the rules
 * read, -1 when text has a line it cannot read. */
int g_parse_rules(const char *text, struct g_spec *specs, int n);

/* Run BUILD/LAB/info --rules (kept in info.rules) and parse it into
 * specs; returns the rules read (0 when info predates rules). */
int g_rules_load(const char *build_dir, const char *lab, struct g_spec *specs,
		 int n);

/* Evaluate s's rules on oi: sets r->technique, adds the technique line. */
void g_check_technique(const struct g_spec *s, const struct g_objinfo *oi,
		       struct g_result *r);

/*
 * The instructors' audit line: comma-separated words for what the file
 * may do but seldom does (inline-ptx, streams, graphs, events,
 * cooperative, host-alloc, device-malloc, func-attr, printf); "" when
 * there is nothing unusual. Never shown to students.
 */
void g_audit(const struct g_objinfo *oi, char *buf, size_t n);

/*
 * Both checks on a built runner, before it runs: -1 when it is REJECTED
 * (verdict and reasons in r), else 0 with r->technique and its line set;
 * r->audit is filled either way. build_only: a runner that is not
 * rejected also gets build-only mode's verdict (g_build_only()).
 */
int g_inspect_runner(const char *runner, const struct g_spec *s,
		     struct g_result *r, int build_only);

/* After g_score(): a failed rule withholds the performance points. */
void g_technique_apply(const struct g_spec *s, struct g_result *r);

/* "ok", "failed", "unchecked" or "-" (no rules), for results.tsv. */
const char *g_technique_word(int technique);

#endif /* GRADER_INSPECT_H */
