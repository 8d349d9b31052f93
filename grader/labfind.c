/* SPDX-License-Identifier: MIT */
/*
 * labfind.c - the lab folders and what LAB= names (labfind.h).
 */
#include "labfind.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

#define LABS_PATH 1024

/* Does a lab folder name match one LAB= word ("05-reduction",
 * "reduction" or its number, "05"), len bytes of want? */
static int is_word(const char *dir, const char *want, size_t len)
{
	const char *dash = strchr(dir, '-');

	return (strlen(dir) == len && !strncmp(dir, want, len)) ||
	       (dash && strlen(dash + 1) == len && !strncmp(dash + 1, want, len)) ||
	       (dash && (size_t)(dash - dir) == len && !strncmp(dir, want, len));
}

/* Does a lab folder name match LAB=, a list of words ("reduction fusion",
 * commas too)? Every lab when want is NULL. */
int labs_match(const char *dir, const char *want)
{
	static const char sep[] = " \t,";

	if (!want)
		return 1;
	for (const char *w = want + strspn(want, sep); *w;
	     w += strcspn(w, sep), w += strspn(w, sep))
		if (is_word(dir, w, strcspn(w, sep)))
			return 1;
	return 0;
}

/* Each word of LAB= must name a lab under labs (labs[0..n-1]): 0, or -1
 * said. */
int labs_words_exist(const char *want, char **labs, int n)
{
	static const char sep[] = " \t,";

	for (const char *w = want ? want + strspn(want, sep) : ""; *w;
	     w += strcspn(w, sep), w += strspn(w, sep)) {
		int found = 0;

		for (int i = 0; i < n && !found; i++)
			found = is_word(labs[i], w, strcspn(w, sep));
		if (!found) {
			fprintf(stderr, "grader: no lab named '%.*s' (LAB=%s); "
					"the labs:", (int)strcspn(w, sep), w, want);
			for (int k = 0; k < n; k++)
				fprintf(stderr, " %s", labs[k]);
			fprintf(stderr, "\n");
			return -1;
		}
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lab folders (those with a lab.mk), sorted. */
int labs_find(const char *dir, const char *want, char **out, int max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max) {
		char mk[LABS_PATH];

		if (e->d_name[0] == '.' || !labs_match(e->d_name, want))
			continue;
		snprintf(mk, sizeof(mk), "%s/%s/lab.mk", dir, e->d_name);
		if (file_exists(mk))
			out[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(out, n, sizeof(*out), cmp_str);
	return n;
}

/* The EXERCISES line of labs_dir/lab/lab.mk (comments may name it too:
 * the line that starts with it). */
int labs_mk_exercises(const char *labs_dir, const char *lab, char *out,
		      size_t n)
{
	char path[LABS_PATH], *text, *l;
	int rc = -1;

	snprintf(path, sizeof(path), "%s/%s/lab.mk", labs_dir, lab);
	text = read_file(path, 1 << 16);
	for (l = text; l && *l;) {
		char *end = strchr(l, '\n'), *eq;

		if (end)
			*end = '\0';
		if (!strncmp(l, "EXERCISES", 9) && (eq = strchr(l, '='))) {
			snprintf(out, n, "%s", eq + 1);
			rc = 0;
			break;
		}
		l = end ? end + 1 : NULL;
	}
	free(text);
	return rc;
}
