/* SPDX-License-Identifier: MIT */
/*
 * settings.c - settings and resume (settings.h). A folder of grades holds
 * one set of settings and one set of rules: a run with other settings is
 * refused, and one under other rules (a changed grader, lab or course
 * file) grades nothing until REGRADE=all, so that one gradebook never
 * mixes two.
 *
 * Floor 6 (batch.h): uses conf, sub, util and files.
 */
#include "settings.h"
#include "files.h"
#include "util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One file's bytes into the fingerprint h (its name first: a file that
 * appears or goes changes it too); nothing more when it cannot be read. */
static unsigned long long fp_file(unsigned long long h, const char *path,
				  const char *name)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t k;

	h = bt_fnv(h, name, strlen(name) + 1);
	while (f && (k = fread(buf, 1, sizeof(buf), f)) > 0)
		h = bt_fnv(h, buf, k);
	if (f)
		fclose(f);
	return h;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order, into h; of a lab (lab not
 * NULL), not its exercise files (the skeletons) nor its prose (.md). */
static unsigned long long fp_dir(unsigned long long h, const char *dir,
				 const struct bt_conf *c, const char *lab)
{
	struct dirent **list;
	int m = scandir(dir, &list, NULL, alphasort);

	for (int i = 0; i < m; i++) {
		const char *name = list[i]->d_name;
		char path[BT_PATH], exname[BT_NAME_LEN + 4];
		int skip = name[0] == '.';
		size_t len = strlen(name);
		struct stat st;

		/* A lab's own exercise files are the skeletons, never graded;
		 * its README is prose. */
		skip |= len > 3 && !strcmp(name + len - 3, ".md");
		for (int e = 0; lab && !skip && e < c->labs.n; e++) {
			bt_fmt(exname, sizeof(exname), "%s.cu", c->labs.ex[e].name);
			skip = !strcmp(c->labs.ex[e].lab, lab) &&
			       !strcmp(exname, name);
		}
		bt_fmt(path, sizeof(path), "%s/%s", dir, name);
		if (!skip && !stat(path, &st) && S_ISREG(st.st_mode))
			h = fp_file(h, path, name);
		free(list[i]);
	}
	if (m >= 0)
		free(list);
	return h;
}

/*
 * The rules a grade is made under: the grader (its program), each graded
 * lab's own files (lab.c's tables, lab.mk, the naive references,
 * headers), the calibrations and the course file. A change to any of
 * them is another set of rules: grades made under the old ones are
 * never mixed with new ones (bt_check_settings(), bt_done_before()).
 */
void bt_rules_fingerprint(struct bt_conf *c)
{
	unsigned long long h = BT_FNV_INIT;
	char dir[BT_PATH], *labs[BT_MAX_EX];
	int nl = 0;

	h = fp_file(h, c->grader, "grader");
	for (int i = 0; i < c->labs.n; i++) {
		int seen = 0;

		if (!c->labs.ex[i].selected)
			continue;
		for (int j = 0; j < nl; j++)
			seen |= !strcmp(labs[j], c->labs.ex[i].lab);
		if (!seen)
			labs[nl++] = c->labs.ex[i].lab;
	}
	qsort(labs, nl, sizeof(labs[0]), cmp_str);
	for (int i = 0; i < nl; i++) {
		bt_fmt(dir, sizeof(dir), "%s/labs/%s", c->repo, labs[i]);
		h = bt_fnv(h, labs[i], strlen(labs[i]) + 1);
		h = fp_dir(h, dir, c, labs[i]);
	}
	bt_fmt(dir, sizeof(dir), "%s/calibrations", c->repo);
	h = fp_dir(h, dir, c, NULL);
	if (c->course[0])
		h = fp_file(h, c->course, "course");
	bt_fmt(c->rules, sizeof(c->rules), "%016llx", h);
}

static void settings_text(const struct bt_conf *c, char *out, size_t n,
			  int with_rules)
{
	size_t o;

	o = bt_fmt(out, n,
		     "# The settings this folder's grades were made with; a later "
		     "run must match.\n"
		     "mode %s\nlab %s\nsm %s\nseed %s\ntimeout_cap %s\n"
		     "course %s\n",
		     c->build_only ? "build-only" : "grade", c->lab ? c->lab : "all",
		     c->sm ? c->sm : "-", c->seed ? c->seed : "random",
		     c->timeout_cap ? c->timeout_cap : "-",
		     c->course[0] ? c->course : "-");
	for (int i = 0; i < c->ngrader_args && o < n; i++)
		o += bt_fmt(out + o, n - o, "grader_arg %s\n", c->grader_args[i]);
	if (with_rules && o < n)
		bt_fmt(out + o, n - o, "rules %s (the grader, the labs' files, the "
		       "calibrations, the course file)\n", c->rules);
}

/* The "rules" line's fingerprint in a batch.conf text, or "". */
static void rules_of(const char *text, char *out, size_t n)
{
	const char *r = text ? strstr(text, "\nrules ") : NULL;

	bt_fmt(out, n, "%.*s", r ? (int)strcspn(r + 7, " \n") : 0, r ? r + 7 : "");
}

int bt_regrade_all(const struct bt_conf *c)
{
	return c->regrade && !strcmp(c->regrade, "all");
}

int bt_check_settings(const struct bt_conf *c)
{
	char path[BT_PATH], want[8192], want_core[8192], *have;
	char have_rules[32];
	size_t core;

	settings_text(c, want, sizeof(want), 1);
	settings_text(c, want_core, sizeof(want_core), 0);
	core = strlen(want_core);
	bt_fmt(path, sizeof(path), "%s/batch.conf", c->out);
	have = bt_read(path, sizeof(want));
	if (!have)
		return bt_write_atomic(path, want);
	rules_of(have, have_rules, sizeof(have_rules));
	if (strncmp(have, want_core, core) ||
	    (have[core] && strncmp(have + core, "rules ", 6))) {
		fprintf(stderr, "batch: %s holds grades made with other settings:\n"
				"  then: %s\n  now:  %s\n"
				"Grade into another folder (OUT=...), or remove "
				"this one to start over.\n", c->out, have, want);
		free(have);
		return -1;
	}
	free(have);
	if (!strcmp(have_rules, c->rules))
		return 0;
	if (!bt_regrade_all(c)) {
		fprintf(stderr, "batch: the rules changed since %s was graded: "
				"the grader, a graded lab's files (lab.c's tables, "
				"lab.mk, the naive references), the calibrations or "
				"the course file are not the same (fingerprint %s "
				"then, %s now). One gradebook never mixes two sets "
				"of rules: REGRADE=all grades every student again "
				"under the new ones (into this folder; a student "
				"graded under the old ones counts as not graded "
				"until then), or grade into another OUT=.\n",
			c->out, have_rules[0] ? have_rules : "none", c->rules);
		return -1;
	}
	fprintf(stderr, "batch: REGRADE=all: every student is graded again "
			"under the rules %s (were %s)\n", c->rules,
		have_rules[0] ? have_rules : "not recorded");
	return bt_write_atomic(path, want);
}

void bt_merge_settings(struct bt_conf *c)
{
	static char lab[BT_NAME_LEN];
	char path[BT_PATH], *text, *l, *save = NULL;

	bt_fmt(path, sizeof(path), "%s/batch.conf", c->out);
	text = bt_read(path, 8192);
	for (l = text ? strtok_r(text, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(l, "mode build-only"))
			c->build_only = 1;
		else if (!strncmp(l, "rules ", 6))
			bt_fmt(c->rules, sizeof(c->rules), "%.*s",
			       (int)strcspn(l + 6, " "), l + 6);
		else if (!strncmp(l, "lab ", 4) && strcmp(l + 4, "all") && !c->lab) {
			bt_fmt(lab, sizeof(lab), "%s", l + 4);
			c->lab = lab;
		}
	}
	free(text);
}

/* Named in REGRADE= (a comma-separated list of ids, or all)? */
static int regrade_named(const struct bt_conf *c, const struct bt_sub *s)
{
	const char *p = c->regrade;
	size_t len = strlen(s->id);

	if (!p)
		return 0;
	if (!strcmp(p, "all"))
		return 0; /* the rules decide: done_before() */
	while (*p) {
		size_t k = strcspn(p, ", ");

		if (k == len && !strncmp(p, s->id, len))
			return 1;
		p += k;
		p += strspn(p, ", ");
	}
	return 0;
}

int bt_done_before(const struct bt_conf *c, const struct bt_sub *s)
{
	char path[BT_PATH], want[64], rules[64], *meta;
	int same;

	if (regrade_named(c, s))
		return 0;
	bt_fmt(path, sizeof(path), "%s/students/%s/meta", c->out, s->id);
	meta = bt_read(path, 1 << 16);
	if (!meta)
		return 0;
	bt_fmt(want, sizeof(want), "\nfingerprint %016llx\n", s->fp);
	bt_fmt(rules, sizeof(rules), "\nrules %s\n", c->rules);
	same = strstr(meta, want) != NULL && strstr(meta, rules) != NULL;
	free(meta);
	bt_fmt(path, sizeof(path), "%s/students/%s/results.tsv", c->out, s->id);
	return same && bt_exists(path);
}
