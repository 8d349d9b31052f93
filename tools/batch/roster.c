/* SPDX-License-Identifier: MIT */
/*
 * roster.c - the submissions in a folder and their ids (roster.h): a
 * folder or an archive (.tar.gz, .tgz, .tar, .zip) each, never a link;
 * an id is the entry's name less its archive suffix, its logins from
 * IDS=, and never made up where two entries would share one.
 *
 * Floor 1 (batch.h): uses sub, util and files.
 */
#include "roster.h"
#include "files.h"
#include "util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a > b && !strcmp(s + a - b, suffix);
}

int bt_sub_id(const char *name, int is_dir, char *id, size_t n)
{
	static const char *const tars[] = { ".tar.gz", ".tgz", ".tar",
					    ".tar.xz", ".tar.bz2" };
	int kind = -1;
	size_t keep = strlen(name);

	if (is_dir) {
		kind = BT_DIR;
	} else if (ends_with(name, ".zip")) {
		kind = BT_ZIP;
		keep -= 4;
	} else {
		for (size_t i = 0; i < sizeof(tars) / sizeof(tars[0]); i++)
			if (ends_with(name, tars[i])) {
				kind = BT_TAR;
				keep -= strlen(tars[i]);
				break;
			}
	}
	if (kind < 0 || n == 0)
		return -1;
	if (keep >= n)
		keep = n - 1;
	for (size_t i = 0; i < keep; i++) {
		char c = name[i];

		id[i] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || strchr("._@+-", c)) ? c : '_';
	}
	id[keep] = '\0';
	if (id[0] == '.' || id[0] == '\0')
		id[0] = '_'; /* never a hidden folder, never "." or ".." */
	return kind;
}

static int cmp_sub(const void *a, const void *b)
{
	return strcmp(((const struct bt_sub *)a)->name,
		      ((const struct bt_sub *)b)->name);
}

/* The entry's name without its archive suffix. */
static void base_name(const struct bt_sub *s, char *out, size_t n)
{
	static const char *const sfx[] = { ".tar.gz", ".tgz", ".tar",
					   ".tar.xz", ".tar.bz2", ".zip" };
	size_t keep = strlen(s->name);

	for (size_t i = 0; s->kind != BT_DIR && i < sizeof(sfx) / sizeof(sfx[0]); i++)
		if (ends_with(s->name, sfx[i])) {
			keep -= strlen(sfx[i]);
			break;
		}
	bt_fmt(out, n, "%.*s", (int)keep, s->name);
}

/* An id as make batch takes it: [A-Za-z0-9._@+-], not starting with '.'. */
static int valid_id(const char *id)
{
	if (!*id || *id == '.' || strlen(id) >= BT_ID_LEN)
		return 0;
	for (; *id; id++)
		if (!((*id >= 'a' && *id <= 'z') || (*id >= 'A' && *id <= 'Z') ||
		      (*id >= '0' && *id <= '9') || strchr("._@+-", *id)))
			return 0;
	return 1;
}

/*
 * Ids that cannot swap. An entry whose name is an id keeps it (exact);
 * one with other characters gets them made '_' (o'brien -> o_brien). Two
 * entries with one id: alice/ and alice.zip, where the later one's whole
 * entry name is an id of its own, grade as alice and alice.zip; any other
 * collision stops the batch, naming both entries: an id made up for one
 * of them (o_brien-18) would put one student's grade in another's row of
 * scores.csv. IDS=ids.csv names the login of an entry. 0, or -1 said.
 */
static int unique_ids(struct bt_sub *s, int n)
{
	int bad = 0;

	for (int i = 0; i < n; i++) {
		char base[256];

		base_name(&s[i], base, sizeof(base));
		s[i].exact = s[i].exact || !strcmp(base, s[i].id);
	}
	for (int i = 1; i < n; i++) {
		for (int j = 0; j < i; j++) {
			struct bt_sub *a = &s[j], *b = &s[i];

			if (strcmp(b->id, a->id))
				continue;
			if (a->exact && b->exact && valid_id(b->name) &&
			    strcmp(b->name, b->id)) {
				bt_fmt(b->id, sizeof(b->id), "%s", b->name);
				fprintf(stderr, "batch: %s and %s would have the "
						"same id: %s is graded as %s\n",
					a->name, b->name, b->name, b->id);
				j = -1; /* the new id against all again */
				continue;
			}
			fprintf(stderr, "batch: '%s' and '%s' would both be "
					"graded as %s: one student's grade would "
					"land in the other's row. Name their logins "
					"in a file of 'entry,login' lines and give "
					"it as IDS=ids.csv (docs/batch-grading.md, "
					"section 2)\n", a->name, b->name, b->id);
			bad = 1;
			break;
		}
	}
	return bad ? -1 : 0;
}

/* IDS=: "entry,login" lines (# comments; a first line "entry,login" is a
 * header). The entry is the name in the submissions folder, with or
 * without its archive suffix. 0, or -1 said. */
static int map_ids(const char *path, struct bt_sub *s, int n)
{
	char *text = bt_read(path, 16 << 20), *line, *save;
	int lineno = 0, rc = 0;

	if (!text) {
		fprintf(stderr, "batch: cannot read %s (IDS=)\n", path);
		return -1;
	}
	for (line = text; line; line = save) {
		char *comma, *who, *login, base[256];
		int hit = 0;

		lineno++;
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		if (!*line || *line == '#' ||
		    (lineno == 1 && !strcmp(line, "entry,login")))
			continue;
		comma = strrchr(line, ',');
		if (!comma) {
			fprintf(stderr, "%s:%d: expected 'entry,login'\n", path,
				lineno);
			rc = -1;
			continue;
		}
		*comma = '\0';
		who = line;
		login = comma + 1;
		if (!valid_id(login)) {
			fprintf(stderr, "%s:%d: '%s' is not a usable login "
					"(letters, digits, . _ @ + -)\n", path,
				lineno, login);
			rc = -1;
			continue;
		}
		for (int i = 0; i < n; i++) {
			base_name(&s[i], base, sizeof(base));
			if (strcmp(s[i].name, who) && strcmp(base, who))
				continue;
			bt_fmt(s[i].id, sizeof(s[i].id), "%s", login);
			s[i].exact = 1;
			hit = 1;
		}
		if (!hit)
			fprintf(stderr, "batch: %s:%d: '%s': no such entry in the "
					"submissions (ignored)\n", path, lineno, who);
	}
	free(text);
	return rc;
}

int bt_list_subs(const char *dir, struct bt_sub **out)
{
	return bt_list_subs_ids(dir, NULL, out);
}

int bt_list_subs_ids(const char *dir, const char *ids, struct bt_sub **out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct bt_sub *s = NULL;
	int n = 0, cap = 0;

	*out = NULL;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[BT_PATH];
		struct stat st;
		int kind;

		if (e->d_name[0] == '.')
			continue;
		if (bt_fmt(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(path) || lstat(path, &st))
			continue;
		if (S_ISLNK(st.st_mode)) {
			fprintf(stderr, "batch: %s is a symbolic link: not a "
					"submission (links are never followed)\n",
				e->d_name);
			continue;
		}
		if (n == cap) {
			struct bt_sub *t = realloc(s, (cap = cap ? 2 * cap : 64) *
							  sizeof(*s));

			if (!t)
				break;
			s = t;
		}
		memset(&s[n], 0, sizeof(s[n]));
		kind = bt_sub_id(e->d_name, S_ISDIR(st.st_mode), s[n].id,
				 sizeof(s[n].id));
		if (kind < 0 || (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))) {
			fprintf(stderr, "batch: %s is not a submission (a folder, "
					".tar.gz, .tgz, .tar or .zip): skipped\n",
				e->d_name);
			continue;
		}
		s[n].kind = kind;
		bt_fmt(s[n].name, sizeof(s[n].name), "%s", e->d_name);
		bt_fmt(s[n].path, sizeof(s[n].path), "%s", path);
		s[n].slot = -1;
		n++;
	}
	closedir(d);
	qsort(s, n, sizeof(*s), cmp_sub);
	if ((ids && map_ids(ids, s, n)) || unique_ids(s, n)) {
		bt_free_subs(s, n);
		return -1;
	}
	*out = s;
	return n;
}
