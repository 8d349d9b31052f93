/* SPDX-License-Identifier: MIT */
/*
 * sub.c - a submission's notes (each entry not taken, and why) and the
 * copy of each exercise taken from it (sub.h).
 *
 * Floor 1 (batch.h): uses util.
 */
#include "sub.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bt_free_subs(struct bt_sub *s, int n)
{
	for (int i = 0; i < n; i++)
		free(s[i].notes);
	free(s);
}

void bt_note(struct bt_sub *s, const char *path, const char *fmt, ...)
{
	struct bt_note *nt;
	va_list ap;

	if (!s->notes)
		s->notes = calloc(BT_MAX_NOTES, sizeof(*s->notes));
	if (!s->notes || s->nnotes >= BT_MAX_NOTES) {
		s->more_notes++;
		return;
	}
	nt = &s->notes[s->nnotes++];
	bt_fmt(nt->path, sizeof(nt->path), "%s", path);
	/* A name may hold any byte: keep the report one line per entry. */
	for (char *c = nt->path; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	va_start(ap, fmt);
	vsnprintf(nt->why, sizeof(nt->why), fmt, ap);
	va_end(ap);
}

int bt_offer(struct bt_sub *s, const struct bt_labs *l, int i,
	     const char *path, int depth)
{
	char *have = s->from[i];
	int better = !*have || depth < s->depth[i] ||
		     (depth == s->depth[i] && strcmp(path, have) < 0);

	(void)l;
	if (!better) {
		bt_note(s, path, "another copy was taken: %s", have);
		return 0;
	}
	if (*have)
		bt_note(s, have, "another copy was taken: %s", path);
	bt_fmt(have, sizeof(s->from[i]), "%s", path);
	s->depth[i] = depth;
	return 1;
}
