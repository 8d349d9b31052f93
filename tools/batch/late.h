/* SPDX-License-Identifier: MIT */
/*
 * late.h - deadlines: the course file's deadline and late policy (and
 * whether it asks for a leaderboard), each submission's time, and what
 * lateness costs a row. Floor 1 (batch.h): uses row, sub, util and files.
 */
#ifndef BATCH_LATE_H
#define BATCH_LATE_H

#include <stddef.h>

#include "row.h"
#include "sub.h"

/* A course file's "leaderboard =" (board.c): names or pseudonyms. */
enum { BT_BOARD_NAMES = 1, BT_BOARD_PSEUDONYMS = 2 };

/* A course file's deadline and late policy:
 *   deadline = 2026-12-01 23:59 UTC     (or +01:00; ISO 8601 with a T or Z)
 *   late_grace = 15m                    (s, m, h or d; nothing taken off)
 *   late_per_day = 10                   (percent of the score per day or
 *                                        part of one, after the grace)
 *   late_cutoff = 3d                    (past deadline + this: no points)
 */
struct bt_late {
	long long deadline;    /* Unix time; 0: the course has none */
	double grace_s, per_day, cutoff_s; /* cutoff_s < 0: none */
	int leaderboard;       /* "leaderboard =": 0 off, BT_BOARD_NAMES or
				* BT_BOARD_PSEUDONYMS (board.c) */
};

/* "2026-12-01 23:59 UTC" and the like: Unix time, or -1. */
long long bt_parse_time(const char *s);
/* "15m", "3d", "90" (seconds): seconds, or -1. */
double bt_parse_duration(const char *s);
/* The course file's deadline lines into l (zeroed first): 0, or -1 with
 * "file:line: why" on stderr. */
int bt_read_late(const char *course, struct bt_late *l);
/* A submission's lateness and penalty under l, into row. */
void bt_apply_late(const struct bt_late *l, struct bt_row *row);
/* Each submission's time: from times (a CSV "entry,time" the instructor
 * made: Gradescope's created_at, GitHub's push time, pull.sh's marks),
 * else its arrival in the submissions folder (the entry's ctime, which
 * no one can set back). 0, or -1 said. */
int bt_submission_times(const char *times, struct bt_sub *s, int n);
/* "2026-12-01 23:59:00 UTC" */
void bt_fmt_time(char *buf, size_t n, long long t);

#endif /* BATCH_LATE_H */
