/* SPDX-License-Identifier: MIT */
/*
 * rules.c - `runner --rules`: the technique rules of a lab's table, for the
 * grader's driver (grader/inspect/technique.c), which checks them on each student's
 * compiled file. One line per rule, fields separated by tabs (patterns and
 * names have none; the two sentences may have spaces):
 *
 *   rule <exercise> <must|must_not> <ptx|sym|sass> <pattern> TAB <what> TAB <why>
 *
 * Kept apart from `--list`, whose format older drivers parse strictly.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const char *kind_word(enum wb_rule_kind k)
{
	return k == WB_MUST ? "must" : "must_not";
}

static const char *where_word(enum wb_rule_where w)
{
	return w == WB_PTX ? "ptx" : w == WB_SASS ? "sass" : "sym";
}

/* Tabs and newlines would break the line format: print them as spaces. */
static void text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

void wb_rules_list(FILE *f)
{
	for (int i = 0; i < wb_lab.count; i++) {
		const struct wb_exercise *ex = &wb_lab.exercises[i];

		for (int r = 0; r < WB_MAX_RULES && ex->rules[r].kind; r++) {
			const struct wb_rule *rule = &ex->rules[r];

			if (!rule->pattern || !*rule->pattern ||
			    strpbrk(rule->pattern, " \t\n")) {
				/* The driver reports it rather than skip it. */
				fprintf(f, "rule %s invalid %d\n", ex->name, r + 1);
				continue;
			}
			fprintf(f, "rule %s %s %s %s\t", ex->name,
				kind_word(rule->kind), where_word(rule->where),
				rule->pattern);
			text(f, rule->what ? rule->what : rule->pattern);
			fputc('\t', f);
			text(f, rule->why ? rule->why : "");
			fputc('\n', f);
		}
	}
}
