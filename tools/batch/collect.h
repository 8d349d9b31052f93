/* SPDX-License-Identifier: MIT */
/*
 * collect.h - taking a submission's files out of it: from a folder, or
 * from an archive listed and extracted in its sandbox; and what was taken,
 * for its report.
 * Floor 3 (batch.h): uses lablist, sub, match, sandbox, process, util and
 * files.
 */
#ifndef BATCH_COLLECT_H
#define BATCH_COLLECT_H

#include <stdio.h>

#include "lablist.h"
#include "sandbox.h"
#include "sub.h"

/*
 * Take the submission's files into dest/<lab>/<exercise>.cu: only the
 * files students may edit, regular files of at most BT_MAX_FILE_BYTES;
 * everything else is noted. Archives are listed with tar or unzip, and
 * only the chosen members are extracted, into stage, inside box when it
 * is a sandbox. Fills s->from, s->notes, s->error, s->fp.
 */
int bt_collect(struct bt_sub *s, const struct bt_labs *l, const char *dest,
	       const char *stage, const struct bt_box *box);
/* The "Files" part of a student's report. */
void bt_files_report(FILE *f, const struct bt_sub *s,
		     const struct bt_labs *l);

#endif /* BATCH_COLLECT_H */
