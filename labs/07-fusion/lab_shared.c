/* SPDX-License-Identifier: MIT */
/*
 * lab_shared.c - lab 07's helpers that several exercises share, declared
 * in lab_hooks.h: the note after a failed row (bias_gelu, add_rmsnorm,
 * softmax), and the reading of Nsight Compute's CSV (diagnose, compare
 * and stalls).
 */
#include <stdlib.h>

#include "harness.h"
#include "fusion.h"
#include "lab_hooks.h"

/* ---- shared by the exercises ---- */

/* After a failed row: say which, since the indices reported are in it. */
void lab07_note_row(struct wb_ctx *c, size_t r, size_t rows)
{
	wb_fail(c, "  (row %zu of %zu; the indices above are within the row)",
		r, rows);
}

/*
 * One line of ncu's CSV into its fields (each quoted, "" a quote), at
 * most max of 96 bytes each, copied into f[i]; *end is the next line.
 * Returns how many.
 */
int lab07_csv_fields(const char *p, const char **end, char f[][96], int max)
{
	int n = 0;

	while (*p == '"' && n < max) {
		size_t w = 0;

		for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
			if (*p == '"')
				p++;
			if (w < 95)
				f[n][w++] = *p;
		}
		f[n++][w] = '\0';
		if (*p == '"')
			p++;
		if (*p == ',')
			p++;
	}
	while (*p && *p != '\n')
		p++;
	*end = *p ? p + 1 : p;
	return n;
}

/* "1,048,576" -> 1048576; "n/a" or nothing -> 0. */
double lab07_csv_number(const char *s)
{
	char buf[96], *end;
	size_t n = 0;
	double x;

	for (; *s && n < sizeof(buf) - 1; s++)
		if (*s != ',')
			buf[n++] = *s;
	buf[n] = '\0';
	x = strtod(buf, &end);
	return n && !*end ? x : 0;
}
