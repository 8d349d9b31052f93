/* SPDX-License-Identifier: MIT */
/*
 * match.c - which file of a submission is which exercise (match.h).
 *
 * A student may hand in only the files they edit: labs/<lab>/<exercise>.cu
 * for each exercise in the labs' lab.mk, as <lab>/<exercise>.cu at any
 * depth (so "alice/labs/05-reduction/sum.cu" is fine), or flat as
 * <exercise>.cu when no other lab has an exercise of that name. Any other
 * path is none, with the reason (and, for a near miss such as Sum.cu or
 * sums.cu, the name it was likely meant to have).
 *
 * Floor 1 (batch.h): uses lablist and util.
 */
#include "match.h"
#include "util.h"

#include <ctype.h>
#include <string.h>

static int safe_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("._+@ -/", c);
}

static int is_lab(const struct bt_labs *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->ex[i].lab, name))
			return 1;
	return 0;
}

/* The exercise called base: in lab (if not NULL), else in any lab. */
static int find_ex(const struct bt_labs *l, const char *lab,
		   const char *base, int *count)
{
	int found = -1;

	*count = 0;
	for (int i = 0; i < l->n; i++) {
		if (strcmp(l->ex[i].name, base) || (lab && strcmp(l->ex[i].lab, lab)))
			continue;
		found = i;
		(*count)++;
	}
	return found;
}

/* One exercise file per lab, for a message: "sum.cu, argmax.cu". */
static void lab_files(const struct bt_labs *l, const char *lab, char *out,
		      size_t n)
{
	size_t o = 0;

	*out = '\0';
	for (int i = 0; i < l->n && o < n; i++)
		if (!strcmp(l->ex[i].lab, lab))
			o += bt_fmt(out + o, n - o, "%s%s.cu", o ? ", " : "",
				      l->ex[i].name);
}

/* Edits (insert, delete, change; letters' case ignored) between a and
 * b, counted up to 3. */
static int edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int row[BT_NAME_LEN + 1];

	if (la > BT_NAME_LEN || lb > BT_NAME_LEN)
		return 3;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int up = row[j], best = diag +
				(tolower((unsigned char)a[i - 1]) !=
				 tolower((unsigned char)b[j - 1]));

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb] < 3 ? row[lb] : 3;
}

/*
 * An exercise graded in this batch whose file name is a near miss of
 * name (the part before its first '.'): the same letters in another case
 * (Sum.cu), or one edit away (sums.cu, argmx.cu; two for long names).
 * Appends "; did you mean <lab>/<exercise>.cu?" to why.
 */
static void suggest(const struct bt_labs *l, const char *name, char *why,
		    size_t n)
{
	char stem[BT_NAME_LEN];
	int best = -1, bestd = 3;

	bt_fmt(stem, sizeof(stem), "%.*s", (int)strcspn(name, "."), name);
	for (int i = 0; i < l->n; i++) {
		int d = edits(stem, l->ex[i].name);
		int allowed = strlen(l->ex[i].name) >= 8 ? 2 : 1;

		if (l->ex[i].selected && d <= allowed && d < bestd &&
		    (d > 0 || strcmp(name, l->ex[i].name))) {
			best = i;
			bestd = d;
		}
	}
	if (best >= 0 && strlen(why) + 1 < n)
		bt_fmt(why + strlen(why), n - strlen(why),
		       "; did you mean %s/%s.cu?", l->ex[best].lab,
		       l->ex[best].name);
}

int bt_match(const struct bt_labs *l, const char *path, int *depth,
	     char *why, size_t n)
{
	char buf[512], *comp[64], *save = NULL, files[256];
	const char *lab = NULL;
	int nc = 0, count, i;
	size_t len;

	*depth = 0;
	if (strlen(path) >= sizeof(buf)) {
		bt_fmt(why, n, "a path too long to be a lab file");
		return -1;
	}
	if (path[0] == '/') {
		bt_fmt(why, n, "an absolute path: never taken");
		return -1;
	}
	bt_fmt(buf, sizeof(buf), "%s", path);
	for (char *c = strtok_r(buf, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			bt_fmt(why, n, "a path with \"..\": never taken");
			return -1;
		}
		if (nc == 64) {
			bt_fmt(why, n, "too deep");
			return -1;
		}
		comp[nc++] = c;
	}
	*depth = nc;
	len = nc ? strlen(comp[nc - 1]) : 0;
	if (len < 4 || strcmp(comp[nc - 1] + len - 3, ".cu")) {
		bt_fmt(why, n, "not a file students may edit");
		if (nc)
			suggest(l, comp[nc - 1], why, n);
		return -1;
	}
	for (const char *p = path; *p; p++)
		if (!safe_char(*p)) {
			bt_fmt(why, n, "unusual characters in the name: "
					 "rename it to <lab>/<exercise>.cu");
			return -1;
		}
	for (i = 0; i < nc - 1; i++)
		if (comp[i][0] == '.') {
			bt_fmt(why, n, "inside a hidden folder (%s)", comp[i]);
			return -1;
		}
	comp[nc - 1][len - 3] = '\0';
	if (nc >= 2 && is_lab(l, comp[nc - 2]))
		lab = comp[nc - 2];
	i = find_ex(l, lab, comp[nc - 1], &count);
	if (count == 0 && lab) {
		lab_files(l, lab, files, sizeof(files));
		bt_fmt(why, n, "not a file students may edit (lab %s's are "
				 "%s)", lab, files);
		suggest(l, comp[nc - 1], why, n);
		return -1;
	}
	if (count == 0) {
		bt_fmt(why, n, "not a file students may edit");
		suggest(l, comp[nc - 1], why, n);
		return -1;
	}
	if (count > 1) {
		bt_fmt(why, n, "several labs have an exercise %s: put it in "
				 "its lab's folder (<lab>/%s.cu)",
			 comp[nc - 1], comp[nc - 1]);
		return -1;
	}
	if (!l->ex[i].selected) {
		bt_fmt(why, n, "lab %s is not graded in this batch", l->ex[i].lab);
		return -1;
	}
	return i;
}
