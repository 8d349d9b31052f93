/* SPDX-License-Identifier: MIT */
/*
 * roster.h - the class's submissions: the entries of a submissions
 * folder, sorted, each with an id that is the student's (IDS= maps
 * entries to logins), no two with one id.
 * Floor 1 (batch.h): uses sub, util and files.
 */
#ifndef BATCH_ROSTER_H
#define BATCH_ROSTER_H

#include <stddef.h>

#include "sub.h"

/* The id for a submission entry: "alice.tar.gz" -> "alice"; characters
 * other than [A-Za-z0-9._@+-] become '_'. Returns the kind, -1 when the
 * entry is neither a folder nor an archive we read. */
int bt_sub_id(const char *name, int is_dir, char *id, size_t n);
/* The submissions in a folder, sorted by name. A symbolic link is never
 * a submission. Two entries with one id: the later one is graded under
 * its whole entry name where that is an id of its own (alice/ and
 * alice.zip); otherwise -1, both named (an id is never made up). */
int bt_list_subs(const char *dir, struct bt_sub **out);
/* The same, with ids from ids, a CSV file "entry,login" (NULL: none):
 * a mapped entry is graded as its login. -1 on a collision or a bad
 * line, said with the file's line. */
int bt_list_subs_ids(const char *dir, const char *ids, struct bt_sub **out);

#endif /* BATCH_ROSTER_H */
