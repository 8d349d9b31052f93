/* SPDX-License-Identifier: MIT */
/*
 * row.c - a student's row of results (row.h), read back from the files
 * the grader wrote and the batch kept (students/<id>/results.tsv and
 * meta): never kept up to date by hand.
 *
 * Floor 1 (batch.h): uses lablist, tsv, util and files.
 */
#include "row.h"
#include "files.h"
#include "tsv.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Split a line on tabs in place; returns the number of fields. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		char *tab = strchr(line, '\t');

		f[n++] = line;
		if (!tab)
			break;
		*tab = '\0';
		line = tab + 1;
	}
	return n;
}

static int find_ex(const struct bt_labs *l, const char *lab, const char *ex)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->ex[i].lab, lab) && !strcmp(l->ex[i].name, ex))
			return i;
	return -1;
}

int bt_read_tsv(const char *text, const struct bt_labs *l,
		struct bt_row *row)
{
	char *copy = strdup(text), *line, *save = NULL, *f[64];
	int cl, ce, cv, cp, cm, ca, rows = 0;

	memset(row->cell, 0, sizeof(row->cell));
	memset(row->have, 0, sizeof(row->have));
	row->total = row->max = 0;
	if (!copy)
		return -1;
	line = strtok_r(copy, "\n", &save);
	if (!line)
		goto out;
	cl = bt_tsv_col(line, "lab");
	ce = bt_tsv_col(line, "exercise");
	cv = bt_tsv_col(line, "verdict");
	cp = bt_tsv_col(line, "points");
	cm = bt_tsv_col(line, "max_points");
	ca = bt_tsv_col(line, "audit"); /* absent before the grader had it */
	if (cl < 0 || ce < 0 || cv < 0 || cp < 0 || cm < 0)
		goto out;
	while ((line = strtok_r(NULL, "\n", &save))) {
		int n = fields(line, f, 64), i;
		struct bt_cell *cell;

		if (n <= cl || n <= ce || n <= cv || n <= cp || n <= cm)
			continue;
		i = find_ex(l, f[cl], f[ce]);
		if (i < 0)
			continue;
		cell = &row->cell[i];
		bt_fmt(cell->verdict, sizeof(cell->verdict), "%s", f[cv]);
		cell->points = atof(f[cp]);
		cell->max = atof(f[cm]);
		bt_fmt(cell->audit, sizeof(cell->audit), "%s",
		       ca >= 0 && n > ca && *f[ca] ? f[ca] : "-");
		row->have[i] = 1;
		row->total += cell->points;
		row->max += cell->max;
		rows++;
	}
out:
	free(copy);
	return rows > 0 ? rows : -1;
}

int bt_read_student(const char *dir, const struct bt_labs *l,
		    struct bt_row *row)
{
	char path[BT_PATH], *meta, *tsv;
	int rc;

	row->graded = 0;
	row->sandboxed = 0;
	bt_fmt(path, sizeof(path), "%s/meta", dir);
	meta = bt_read(path, 1 << 16);
	bt_fmt(path, sizeof(path), "%s/results.tsv", dir);
	tsv = bt_read(path, 4 << 20);
	if (!meta || !tsv) {
		free(meta);
		free(tsv);
		return -1;
	}
	row->sandboxed = strstr(meta, "\nsandbox bwrap\n") != NULL;
	{
		const char *at = strstr(meta, "\nsubmitted_at ");

		row->submitted = at ? strtoll(at + 14, NULL, 10) : 0;
	}
	/* The grader's verdict, as the student's report shows it: a file
	 * that was not handed in is a COMPILE ERROR there (nothing to
	 * build), and the report lists it under Missing. */
	rc = bt_read_tsv(tsv, l, row);
	free(meta);
	free(tsv);
	row->graded = rc > 0;
	return rc > 0 ? 0 : -1;
}
