/* SPDX-License-Identifier: MIT */
/*
 * technique.c - each exercise's technique rules (inspect.h; harness.h's
 * struct wb_rule): read from `info --rules`, checked against the file's
 * PTX, SASS or symbols (must or must not contain a pattern), and a failed
 * rule withholding the performance points.
 */
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "record.h"

/* Seconds allowed to `info --rules`. */
#define RULES_TIMEOUT_S 20.0

static struct g_spec *spec_named(struct g_spec *specs, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(specs[i].name, name))
			return &specs[i];
	return NULL;
}

/* "rule EX KIND WHERE PATTERN\tWHAT\tWHY": into s's rules; -1 if garbled. */
static int rule_line(char *l, struct g_spec *specs, int n)
{
	char ex[G_NAME_LEN], kind[16], where[8], pattern[160], *what, *why;
	struct g_spec *s;
	struct g_rule *r;
	int off = 0;

	if (sscanf(l, "rule %63s %15s %n", ex, kind, &off) != 2)
		return -1;
	s = spec_named(specs, n, ex);
	if (!s)
		return -1;
	if (!strcmp(kind, "invalid")) {
		s->bad_rules++;
		return 0;
	}
	l += off;
	what = strchr(l, '\t');
	why = what ? strchr(what + 1, '\t') : NULL;
	if (!why || sscanf(l, "%7s %159s", where, pattern) != 2 ||
	    (strcmp(kind, "must") && strcmp(kind, "must_not")) ||
	    (strcmp(where, "ptx") && strcmp(where, "sym") && strcmp(where, "sass")))
		return -1;
	if (s->nrules >= G_MAX_RULES) {
		s->bad_rules++;
		return 0;
	}
	*why++ = '\0';
	what++;
	r = &s->rules[s->nrules++];
	r->must = !strcmp(kind, "must");
	snprintf(r->where, sizeof(r->where), "%s", where);
	snprintf(r->pattern, sizeof(r->pattern), "%s", pattern);
	snprintf(r->what, sizeof(r->what), "%s", what);
	snprintf(r->why, sizeof(r->why), "%s", why);
	return 0;
}

int g_parse_rules(const char *text, struct g_spec *specs, int n)
{
	char *copy = strdup(text ? text : ""), *save = NULL;
	int bad = 0, count = 0;

	if (!copy)
		return -1;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (rule_line(l, specs, n))
			bad = 1;
		else
			count++;
	}
	free(copy);
	return bad ? -1 : count;
}

int g_rules_load(const char *build_dir, const char *lab, struct g_spec *specs,
		 int n)
{
	char info[1024], out[1024];
	char *argv[] = { info, "--rules", NULL };
	struct proc_result pr;
	char *text;
	int k;

	snprintf(info, sizeof(info), "%s/%s/info", build_dir, lab);
	snprintf(out, sizeof(out), "%s/%s/info.rules", build_dir, lab);
	/* An info built before rules existed says "usage": no rules. */
	if (proc_run(argv, out, RULES_TIMEOUT_S, &pr) < 0 || !pr.exited ||
	    pr.code)
		return 0;
	text = read_file(out, 1 << 20);
	k = g_parse_rules(text, specs, n);
	free(text);
	return k;
}

/* The text a rule looks at, or NULL (and why) when it is not there. */
static const char *rule_text(const struct g_rule *rule,
			     const struct g_objinfo *oi, const char **missing)
{
	if (!strcmp(rule->where, "ptx")) {
		*missing = "no PTX of the file (nvcc -ptx failed; see the "
			   "runner's .inspect.log)";
		return oi->ptx;
	}
	if (!strcmp(rule->where, "sass")) {
		*missing = "no SASS (cuobjdump is not installed)";
		return oi->sass;
	}
	*missing = "no symbol table of the file (nm failed)";
	return oi->syms;
}

/* Does the line [ls, le) contain one of the exclusions ("!word")? */
static int excluded(const char *pattern, const char *ls, const char *le)
{
	char alt[160], *save = NULL;

	snprintf(alt, sizeof(alt), "%s", pattern);
	for (char *a = strtok_r(alt, "|", &save); a; a = strtok_r(NULL, "|", &save)) {
		size_t n = strlen(a + 1);

		if (*a != '!' || !n)
			continue;
		for (const char *p = ls; p + n <= le; p++)
			if (!strncmp(p, a + 1, n))
				return 1;
	}
	return 0;
}

/*
 * The first line of text with an alternative of pattern in it and none of
 * its exclusions: that line (a symbol's demangled name, for the symbol
 * table) into found; 1 if any.
 */
static int find_pattern(const char *pattern, const char *text, int syms,
			char *found, size_t n)
{
	char alt[160], *save = NULL;

	snprintf(alt, sizeof(alt), "%s", pattern);
	for (char *a = strtok_r(alt, "|", &save); a; a = strtok_r(NULL, "|", &save)) {
		const char *p, *ls, *le;

		if (*a == '!')
			continue;
		for (p = strstr(text, a); p; p = strstr(le, a)) {
			for (ls = p; ls > text && ls[-1] != '\n'; ls--)
				;
			le = strchr(p, '\n');
			if (!le)
				le = p + strlen(p);
			if (!excluded(pattern, ls, le))
				break;
		}
		if (!p)
			continue;
		if (syms && memchr(ls, '\t', (size_t)(le - ls)))
			ls = (const char *)memchr(ls, '\t', (size_t)(le - ls)) + 1;
		while (*ls == ' ' || *ls == '\t')
			ls++;
		snprintf(found, n, "%.*s", (int)(le - ls > 120 ? 120 : le - ls), ls);
		return 1;
	}
	return 0;
}

static const char *where_name(const char *where)
{
	return !strcmp(where, "ptx") ? "PTX" : !strcmp(where, "sass") ? "SASS" :
	       "symbols";
}

void g_check_technique(const struct g_spec *s, const struct g_objinfo *oi,
		       struct g_result *r)
{
	char line[G_DETAIL_LEN], found[128];
	int failed = 0, unchecked = 0;
	size_t used = 0;

	r->technique = G_TECH_NONE;
	if (!s->nrules && !s->bad_rules)
		return;
	for (int i = 0; i < s->nrules; i++) {
		const struct g_rule *rule = &s->rules[i];
		const char *missing, *text = rule_text(rule, oi, &missing);
		int hit;

		if (!text) {
			unchecked++;
			g_detail(r, "technique: not checked (%s): %s %s", missing,
				 rule->must ? "must use" : "must not use", rule->what);
			continue;
		}
		hit = find_pattern(rule->pattern, text, !strcmp(rule->where, "sym"),
				   found, sizeof(found));
		if (hit != rule->must) {
			failed++;
			if (rule->must)
				g_detail(r, "technique: FAILED: the file must use %s, "
					    "and its %s show none. %s",
					 rule->what, where_name(rule->where), rule->why);
			else
				g_detail(r, "technique: FAILED: the file must not use "
					    "%s, and its %s show `%s`. %s", rule->what,
					 where_name(rule->where), found, rule->why);
			continue;
		}
		used += snprintf(line + used, used < sizeof(line) ? sizeof(line) - used : 0,
				 "%s%s %s", used ? "; " : "",
				 rule->must ? "uses" : "does not use", rule->what);
	}
	if (s->bad_rules) {
		unchecked++;
		g_detail(r, "technique: %d of the lab's rules could not be read "
			    "(a lab bug; not held against the file)", s->bad_rules);
	}
	if (failed)
		r->technique = G_TECH_FAILED;
	else if (unchecked)
		r->technique = G_TECH_UNCHECKED;
	else
		r->technique = G_TECH_OK;
	if (used && !failed)
		g_detail(r, "technique: ok (%s)", line);
}

void g_technique_apply(const struct g_spec *s, struct g_result *r)
{
	if (r->technique != G_TECH_FAILED || r->verdict != WB_V_PASS ||
	    !s->speed || r->points <= s->points_correct)
		return;
	r->points = s->points_correct;
	r->tier = 0;
	r->next_target = 0;
	g_detail(r, "performance points withheld: a technique rule failed "
		    "(correctness points kept)");
}

const char *g_technique_word(int technique)
{
	switch (technique) {
	case G_TECH_OK: return "ok";
	case G_TECH_FAILED: return "failed";
	case G_TECH_UNCHECKED: return "unchecked";
	default: return "-";
	}
}
