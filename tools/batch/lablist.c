/* SPDX-License-Identifier: MIT */
/*
 * lablist.c - the labs' exercises (lablist.h): each lab's lab.mk read for
 * its EXERCISES, in lab order, and the ones a batch grades (LAB=, or the
 * "lab/exercise" pairs a course file names). The labs are found, and LAB=
 * matched, by the grader's own lab discovery (grader/labfind.h), the
 * one place that finds labs.
 *
 * Floor 1 (batch.h): uses util, and grader/labfind.h.
 */
#include "lablist.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

#include "../../grader/labfind.h"

int bt_add_lab(struct bt_labs *l, const char *lab, const char *exercises,
	       int selected)
{
	char buf[1024], *save = NULL;
	int added = 0;

	bt_fmt(buf, sizeof(buf), "%s", exercises);
	for (char *w = strtok_r(buf, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		struct bt_exercise *e;

		if (l->n >= BT_MAX_EX || strlen(w) >= BT_NAME_LEN ||
		    strlen(lab) >= BT_NAME_LEN)
			return -1;
		e = &l->ex[l->n++];
		bt_fmt(e->lab, sizeof(e->lab), "%s", lab);
		bt_fmt(e->name, sizeof(e->name), "%s", w);
		e->selected = selected;
		added++;
	}
	return added;
}

int bt_select_exercises(struct bt_labs *l, const char *pairs)
{
	int any = 0;

	for (int i = 0; i < l->n; i++) {
		char want[2 * BT_NAME_LEN + 4];
		const char *p = pairs;
		size_t len;

		len = bt_fmt(want, sizeof(want), "%s/%s", l->ex[i].lab,
			     l->ex[i].name);
		l->ex[i].selected = 0;
		while ((p = strstr(p, want))) {
			if ((p == pairs || p[-1] == '\n') &&
			    (p[len] == '\n' || !p[len])) {
				l->ex[i].selected = 1;
				any = 1;
				break;
			}
			p += len;
		}
	}
	return any ? 0 : -1;
}

int bt_read_labs(const char *labs_dir, const char *lab, struct bt_labs *l)
{
	char *names[LABS_MAX];
	int n, any = 0;
	/* LAB= empty, or blanks alone: every lab */
	int all = !lab || !lab[strspn(lab, " \t,")];

	memset(l, 0, sizeof(*l));
	n = labs_find(labs_dir, NULL, names, LABS_MAX);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		char ex[1024];
		int sel = all || labs_match(names[i], lab);

		if (!labs_mk_exercises(labs_dir, names[i], ex, sizeof(ex)) &&
		    bt_add_lab(l, names[i], ex, sel) > 0)
			any |= sel;
		free(names[i]);
	}
	return any ? 0 : -1;
}
