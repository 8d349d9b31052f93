/* SPDX-License-Identifier: MIT */
/*
 * selection.c - what a run grades (selection.h): a course file's
 * exercises, read by the grader itself (--check-course exercises) so that
 * the batch builds, takes, grades and lists only those; and a manifest's
 * submissions, a Slurm array task's share of them.
 *
 * Floor 6 (batch.h): uses cli, slurm (the manifest), sub and util.
 */
#include "selection.h"
#include "slurm.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A course file may name the labs and exercises it grades (grader/
 * course.h). The grader reads it, from lab.mk alone (--check-course
 * exercises), so that the batch builds, takes, grades and lists only
 * those; LAB= narrows them further. Into pairs: "lab/exercise" lines;
 * c->lab becomes the list of their labs. 0, or -1 said.
 */
int select_course(struct cli *k, char *pairs, size_t n)
{
	static char labs[1024];
	struct bt_conf *c = &k->c;
	char grader[BT_PATH], q[4][2 * BT_PATH], cmd[9 * BT_PATH], line[256];
	size_t used = 0, lused = 0;
	FILE *p;
	int rc;

	bt_fmt(grader, sizeof(grader), "%s/host/grader/grader", c->build);
	bt_shell_quote(c->grader[0] ? c->grader : k->grader ? k->grader : grader,
		       q[0], sizeof(q[0]));
	bt_fmt(grader, sizeof(grader), "%s/labs", c->repo);
	bt_shell_quote(grader, q[1], sizeof(q[1]));
	bt_shell_quote(c->course, q[2], sizeof(q[2]));
	bt_shell_quote(c->lab ? c->lab : "", q[3], sizeof(q[3]));
	bt_fmt(cmd, sizeof(cmd), "%s --labs %s --build %s --course %s "
	       "--check-course exercises --lab %s", q[0], q[1], q[1], q[2], q[3]);
	pairs[0] = labs[0] = '\0';
	p = popen(cmd, "r");
	if (!p) {
		fprintf(stderr, "batch: cannot run the grader to read %s\n",
			c->course);
		return -1;
	}
	while (fgets(line, sizeof(line), p)) {
		char *slash = strchr(line, '/');
		size_t len = slash ? (size_t)(slash - line) : 0;

		if (used + strlen(line) + 1 < n)
			used += bt_fmt(pairs + used, n - used, "%s", line);
		/* A lab once: its exercises come one after another. */
		if (slash && (lused < len || strncmp(labs + lused - len, line, len)) &&
		    lused + len + 2 < sizeof(labs))
			lused += bt_fmt(labs + lused, sizeof(labs) - lused,
					"%s%.*s", lused ? " " : "", (int)len, line);
	}
	rc = pclose(p);
	if (rc != 0 || !used) {
		fprintf(stderr, "batch: %s: the course file is not valid, or "
				"grades nothing here (the grader's message is "
				"above)\n", c->course);
		return -1;
	}
	c->lab = labs;
	return 0;
}

int select_subs(struct cli *k, struct bt_sub **subs, int *n)
{
	struct bt_conf *c = &k->c;
	char **names = NULL;
	struct bt_sub *all = *subs, *sel;
	int m, kept = 0;

	if (!c->manifest[0])
		return 0;
	m = bt_read_manifest(c->manifest, &names);
	if (m < 0) {
		fprintf(stderr, "batch: cannot read %s\n", c->manifest);
		return -1;
	}
	sel = calloc(m ? m : 1, sizeof(*sel));
	for (int i = 0; sel && i < m; i++) {
		int j;

		for (j = 0; j < *n && strcmp(all[j].name, names[i]); j++)
			;
		if (j == *n)
			fprintf(stderr, "batch: %s (in the manifest) is gone from "
					"%s\n", names[i], c->subs);
		else
			sel[kept++] = all[j];
		free(names[i]);
	}
	free(names);
	free(all);
	*subs = sel;
	*n = kept;
	if (k->task_given) {
		int from = c->task * c->chunk, to = from + c->chunk;

		if (from >= kept)
			from = to = kept;
		if (to > kept)
			to = kept;
		memmove(sel, sel + from, (to - from) * sizeof(*sel));
		*n = to - from;
	}
	return sel ? 0 : -1;
}
