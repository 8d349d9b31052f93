/* SPDX-License-Identifier: MIT */
/*
 * tsv.h - a grader results.tsv's columns, found by their names in its
 * header line. Floor 1 (batch.h): uses util.
 */
#ifndef BATCH_TSV_H
#define BATCH_TSV_H

#include <stddef.h>

/* The column called name in a tab-separated header line, or -1. */
int bt_tsv_col(const char *header, const char *name);
/* Field k of a tab-separated line (up to a tab, a newline or its end)
 * copied into out; "" when the line has no field k. */
void bt_tsv_field(const char *line, int k, char *out, size_t n);

#endif /* BATCH_TSV_H */
