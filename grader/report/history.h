/* SPDX-License-Identifier: MIT */
/*
 * history.h - every graded attempt, kept (history.c).
 *
 * make grade appends one line per exercise to a history file in the
 * submission root the exercise's file came from (labs/.workbook-history.tsv
 * by default: the name is make's HISTORY). A run's lines go in one write()
 * to a file opened with O_APPEND, so that two runs never interleave and no
 * line is ever rewritten. The columns, tab-separated:
 *
 *   time (UTC, ISO 8601)  lab  exercise  hash (FNV-1a 64 of the .cu file,
 *   16 hex digits)  verdict  speedup  gbps  points  max_points  seed
 *
 * A GRADER ERROR (the grader's fault, not the attempt's) is not kept.
 * report.html draws each exercise's speedups from it, one x position per
 * version of the file (a changed hash starts the next one), so that an
 * unchanged file graded again shows the spread of the measurement.
 */
#ifndef GRADER_HISTORY_H
#define GRADER_HISTORY_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "grade.h"

/* One attempt at one exercise, as its line says. */
struct hist_entry {
	char time[24];
	char lab[G_NAME_LEN];
	char name[G_NAME_LEN];
	char hash[20];
	char verdict[24];
	double speedup, gbps, points, max_points;
	unsigned long long seed;
};

/* FNV-1a, 64 bits, of a file's bytes, as 16 hex digits; -1 if unreadable. */
int hist_hash_file(const char *path, char out[20]);

/*
 * For each row, find its source file (<build>/<lab>/<ex>.src names it) and
 * so its submission root; set row->hash and row->history (<root>/name).
 */
void hist_locate(struct g_run *run, const char *build, const char *name);
/* Append the run's rows to their roots' histories: one write per file.
 * 0, or -1 if one could not be written (said on stderr). */
int hist_append(const struct g_run *run, time_t now);
/* The line hist_append() writes for row. */
void hist_line(char *buf, size_t n, const struct g_run *run,
	       const struct g_row *row, time_t now);

/* Parse one history line; 0, or -1 if it is not one. */
int hist_parse(char *line, struct hist_entry *e);
/*
 * The entries of path for lab/name (NULL, NULL: all), oldest first, at
 * most max; the number read (0 if the file is absent).
 */
int hist_read(const char *path, const char *lab, const char *name,
	      struct hist_entry *out, int max);
/* make history: the entries as a table of 80 columns. */
void hist_table(FILE *f, const struct hist_entry *e, int n);

#endif /* GRADER_HISTORY_H */
