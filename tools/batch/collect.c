/* SPDX-License-Identifier: MIT */
/*
 * collect.c - what students may hand in, and taking it out of their
 * submissions.
 *
 * A student may hand in only the files they edit: labs/<lab>/<exercise>.cu
 * for each exercise in the labs' lab.mk. A submission is a folder or an
 * archive (.tar.gz, .tgz, .tar, .zip) holding them as <lab>/<exercise>.cu
 * at any depth (so "alice/labs/05-reduction/sum.cu" is fine), or flat as
 * <exercise>.cu when no other lab has an exercise of that name. Nothing
 * else is taken: lab.c, naive.cu, a Makefile, headers, links, devices
 * and paths with ".." are listed in the student's report as ignored, with
 * the reason. Archives are listed first and only the chosen members are
 * extracted, so a thousand-file archive or a bomb costs a listing.
 */
#include "batch.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Prototypes from sched.c: running a command to the end. */
/* Seconds allowed to list or extract one archive. */
#define ARCHIVE_TIMEOUT_S 60.0

/* ---- the labs ------------------------------------------------------- */

int bt_add_lab(struct bt_labs *l, const char *lab, const char *exercises,
	       int selected)
{
	char buf[1024], *save = NULL;
	int added = 0;

	bt_fmt(buf, sizeof(buf), "%s", exercises);
	for (char *w = strtok_r(buf, " \t\r\n", &save); w;
	     w = strtok_r(NULL, " \t\r\n", &save)) {
		struct bt_exercise *e;

		if (l->n >= BT_MAX_EX || strlen(w) >= BT_NAME_LEN ||
		    strlen(lab) >= BT_NAME_LEN)
			return -1;
		e = &l->ex[l->n++];
		bt_fmt(e->lab, sizeof(e->lab), "%s", lab);
		bt_fmt(e->name, sizeof(e->name), "%s", w);
		e->selected = selected;
		added++;
	}
	return added;
}

/* Does a lab folder match LAB=, a list of "05-reduction" or "reduction"
 * words (every lab when empty)? */
static int lab_matches(const char *dir, const char *want)
{
	static const char sep[] = " \t,";
	const char *dash = strchr(dir, '-');

	if (!want || !want[strspn(want, sep)])
		return 1;
	for (const char *w = want + strspn(want, sep); *w;
	     w += strcspn(w, sep), w += strspn(w, sep)) {
		size_t len = strcspn(w, sep);

		if ((strlen(dir) == len && !strncmp(dir, w, len)) ||
		    (dash && strlen(dash + 1) == len && !strncmp(dash + 1, w, len)))
			return 1;
	}
	return 0;
}

int bt_select_exercises(struct bt_labs *l, const char *pairs)
{
	int any = 0;

	for (int i = 0; i < l->n; i++) {
		char want[2 * BT_NAME_LEN + 4];
		const char *p = pairs;
		size_t len;

		len = bt_fmt(want, sizeof(want), "%s/%s", l->ex[i].lab,
			     l->ex[i].name);
		l->ex[i].selected = 0;
		while ((p = strstr(p, want))) {
			if ((p == pairs || p[-1] == '\n') &&
			    (p[len] == '\n' || !p[len])) {
				l->ex[i].selected = 1;
				any = 1;
				break;
			}
			p += len;
		}
	}
	return any ? 0 : -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The text after "EXERCISES :=" (or "=") on the line that starts with it. */
static int mk_exercises(const char *mk, char *out, size_t n)
{
	char *text = bt_read(mk, 1 << 16), *l;
	int rc = -1;

	for (l = text; l && *l;) {
		char *end = strchr(l, '\n'), *eq;

		if (end)
			*end = '\0';
		if (!strncmp(l, "EXERCISES", 9) && (eq = strchr(l, '='))) {
			bt_fmt(out, n, "%s", eq + 1);
			rc = 0;
			break;
		}
		l = end ? end + 1 : NULL;
	}
	free(text);
	return rc;
}

int bt_read_labs(const char *labs_dir, const char *lab, struct bt_labs *l)
{
	DIR *d = opendir(labs_dir);
	struct dirent *e;
	char *names[64];
	int n = 0, any = 0;

	memset(l, 0, sizeof(*l));
	if (!d)
		return -1;
	while ((e = readdir(d)) && n < 64) {
		char mk[BT_PATH];

		if (e->d_name[0] == '.')
			continue;
		bt_fmt(mk, sizeof(mk), "%s/%s/lab.mk", labs_dir, e->d_name);
		if (bt_exists(mk))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (int i = 0; i < n; i++) {
		char mk[BT_PATH], ex[1024];
		int sel = lab_matches(names[i], lab);

		bt_fmt(mk, sizeof(mk), "%s/%s/lab.mk", labs_dir, names[i]);
		if (!mk_exercises(mk, ex, sizeof(ex)) &&
		    bt_add_lab(l, names[i], ex, sel) > 0)
			any |= sel;
		free(names[i]);
	}
	return any ? 0 : -1;
}

/* ---- which file is which -------------------------------------------- */

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

/* ---- submissions ------------------------------------------------------ */

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

void bt_free_subs(struct bt_sub *s, int n)
{
	for (int i = 0; i < n; i++)
		free(s[i].notes);
	free(s);
}

void bt_note(struct bt_sub *s, const char *path, const char *fmt, ...)
{
	struct bt_note *nt;
	va_list ap;

	if (!s->notes)
		s->notes = calloc(BT_MAX_NOTES, sizeof(*s->notes));
	if (!s->notes || s->nnotes >= BT_MAX_NOTES) {
		s->more_notes++;
		return;
	}
	nt = &s->notes[s->nnotes++];
	bt_fmt(nt->path, sizeof(nt->path), "%s", path);
	/* A name may hold any byte: keep the report one line per entry. */
	for (char *c = nt->path; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	va_start(ap, fmt);
	vsnprintf(nt->why, sizeof(nt->why), fmt, ap);
	va_end(ap);
}

int bt_offer(struct bt_sub *s, const struct bt_labs *l, int i,
	     const char *path, int depth)
{
	char *have = s->from[i];
	int better = !*have || depth < s->depth[i] ||
		     (depth == s->depth[i] && strcmp(path, have) < 0);

	(void)l;
	if (!better) {
		bt_note(s, path, "another copy was taken: %s", have);
		return 0;
	}
	if (*have)
		bt_note(s, have, "another copy was taken: %s", path);
	bt_fmt(have, sizeof(s->from[i]), "%s", path);
	s->depth[i] = depth;
	return 1;
}

/* ---- folders -------------------------------------------------------- */

static void walk(struct bt_sub *s, const struct bt_labs *l, const char *root,
		 const char *rel, int depth, int *count)
{
	char dir[BT_PATH], why[256];
	struct dirent **list;
	int n;

	bt_fmt(dir, sizeof(dir), "%s%s%s", root, *rel ? "/" : "", rel);
	n = scandir(dir, &list, NULL, alphasort);
	if (n < 0) {
		bt_note(s, *rel ? rel : ".", "could not be read: %s", strerror(errno));
		return;
	}
	for (int k = 0; k < n; k++) {
		const char *name = list[k]->d_name;
		char relp[BT_PATH], full[BT_PATH];
		struct stat st;
		int dd, i;

		if (!strcmp(name, ".") || !strcmp(name, "..") || *count < 0)
			continue;
		if (++*count > BT_MAX_ENTRIES) {
			bt_note(s, *rel ? rel : ".", "more than %d entries: the "
				"rest was not looked at", BT_MAX_ENTRIES);
			*count = -1;
			continue;
		}
		bt_fmt(relp, sizeof(relp), "%s%s%s", rel, *rel ? "/" : "", name);
		bt_fmt(full, sizeof(full), "%s/%s", root, relp);
		if (lstat(full, &st))
			continue;
		if (S_ISLNK(st.st_mode)) {
			bt_note(s, relp, "a symbolic link: never followed");
		} else if (S_ISDIR(st.st_mode)) {
			if (depth + 1 > BT_MAX_DEPTH)
				bt_note(s, relp, "too deep: not looked into");
			else
				walk(s, l, root, relp, depth + 1, count);
		} else if (!S_ISREG(st.st_mode)) {
			bt_note(s, relp, "not a regular file");
		} else if ((i = bt_match(l, relp, &dd, why, sizeof(why))) < 0) {
			bt_note(s, relp, "%s", why);
		} else if (st.st_size > BT_MAX_FILE_BYTES) {
			bt_note(s, relp, "too big (%lld bytes; at most %d)",
				(long long)st.st_size, BT_MAX_FILE_BYTES);
		} else {
			bt_offer(s, l, i, relp, dd);
		}
	}
	for (int k = 0; k < n; k++)
		free(list[k]);
	free(list);
}

/* ---- archives ------------------------------------------------------- */

/* Run a command (in the box, if any) to the end; 0 when it succeeded. */
static int boxed(const struct bt_box *box, const char *const *cmd,
		 const char *out, const char *err, long fsize)
{
	struct bt_args a;
	int status = -1;

	bt_args_init(&a);
	if (box)
		bt_box_argv(box, &a);
	for (; *cmd; cmd++)
		bt_args_add(&a, *cmd);
	if (bt_run(&a, out, err, ARCHIVE_TIMEOUT_S, fsize, NULL, &status))
		status = -1;
	bt_args_free(&a);
	return status;
}

/* The first line of a tool's complaint, for the report; unzip's first
 * is "[the archive's path]", which says nothing. */
static void first_line(const char *path, char *out, size_t n)
{
	char *text = bt_read(path, 4096), *l = text, *nl;

	while (l && (*l == '[' || *l == '\n') && (nl = strchr(l, '\n')))
		l = nl + 1;
	while (l && (*l == ' ' || *l == '\t'))
		l++;
	bt_fmt(out, n, "%s", l && *l ? l : "no message");
	free(text);
	if ((nl = strchr(out, '\n')))
		*nl = '\0';
}

static int list_archive(struct bt_sub *s, const struct bt_labs *l,
			const char *tool, const char *scratch,
			const char *archive, const struct bt_box *box)
{
	char out[BT_PATH], err[BT_PATH], why[256], msg[200], *text, *save = NULL;
	const char *tar[] = { tool, "-tf", archive, NULL };
	const char *zip[] = { tool, "-Z1", archive, NULL };
	int count = 0;

	bt_fmt(out, sizeof(out), "%s/listing.txt", scratch);
	bt_fmt(err, sizeof(err), "%s/listing.err", scratch);
	if (boxed(box, s->kind == BT_ZIP ? zip : tar, out, err, 64 << 20)) {
		first_line(err, msg, sizeof(msg));
		bt_fmt(s->error, sizeof(s->error), "could not read the "
			 "archive (%s: %s)", s->kind == BT_ZIP ? "unzip" : "tar",
			 msg);
		return -1;
	}
	text = bt_read(out, 64 << 20);
	for (char *line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line);
		int i, dd;

		if (len && line[len - 1] == '/')
			continue; /* a folder */
		if (++count > BT_MAX_ENTRIES) {
			bt_note(s, ".", "more than %d entries: the rest was not "
				"looked at", BT_MAX_ENTRIES);
			break;
		}
		i = bt_match(l, line, &dd, why, sizeof(why));
		if (i < 0)
			bt_note(s, line, "%s", why);
		else
			bt_offer(s, l, i, line, dd);
	}
	free(text);
	return 0;
}

/* Extract the chosen members into stage; what fails is noted later. */
static void extract_chosen(struct bt_sub *s, const struct bt_labs *l,
			   const char *tool, const char *scratch,
			   const char *archive, const char *stage,
			   const struct bt_box *box)
{
	const char *cmd[BT_MAX_EX + 16];
	char out[BT_PATH];
	int k = 0;

	cmd[k++] = tool;
	if (s->kind == BT_ZIP) {
		cmd[k++] = "-qq";
		cmd[k++] = "-o";
		cmd[k++] = archive;
	} else {
		cmd[k++] = "-xf";
		cmd[k++] = archive;
		cmd[k++] = "-C";
		cmd[k++] = stage;
		cmd[k++] = "--no-same-owner";
		cmd[k++] = "--no-same-permissions";
		cmd[k++] = "--";
	}
	for (int i = 0; i < l->n; i++)
		if (s->from[i][0])
			cmd[k++] = s->from[i];
	if (s->kind == BT_ZIP) {
		cmd[k++] = "-d";
		cmd[k++] = stage;
	}
	cmd[k] = NULL;
	bt_fmt(out, sizeof(out), "%s/extract.txt", scratch);
	/* One byte over the limit: a bigger file shows as too big. */
	boxed(box, cmd, out, NULL, BT_MAX_FILE_BYTES + 1);
}

/* ---- taking the files --------------------------------------------- */

/* stage: where src was extracted by the sandbox (NULL: a folder). */
static int take(struct bt_sub *s, const struct bt_labs *l, int i,
		const char *src, const char *stage, const char *dest)
{
	char dir[BT_PATH], to[BT_PATH];
	struct stat st;

	if (lstat(src, &st)) {
		bt_note(s, s->from[i], "could not be extracted");
		return -1;
	}
	if (S_ISLNK(st.st_mode)) {
		bt_note(s, s->from[i], "a symbolic link: never followed");
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		bt_note(s, s->from[i], "not a regular file");
		return -1;
	}
	if (stage && !bt_inside_regular(src, stage)) {
		bt_note(s, s->from[i], "extracted through a link: never followed");
		return -1;
	}
	if (st.st_size > BT_MAX_FILE_BYTES) {
		bt_note(s, s->from[i], "too big (at most %d bytes)",
			BT_MAX_FILE_BYTES);
		return -1;
	}
	bt_fmt(dir, sizeof(dir), "%s/%s", dest, l->ex[i].lab);
	bt_fmt(to, sizeof(to), "%s/%s.cu", dir, l->ex[i].name);
	if (bt_mkdirs(dir) || bt_copy_file(src, to, BT_MAX_FILE_BYTES) < 0) {
		bt_note(s, s->from[i], "could not be copied: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static unsigned long long fingerprint(const struct bt_sub *s,
				      const struct bt_labs *l, const char *dest)
{
	unsigned long long h = BT_FNV_INIT;

	for (int i = 0; i < l->n; i++) {
		char path[BT_PATH], *text;

		if (!s->from[i][0])
			continue;
		bt_fmt(path, sizeof(path), "%s/%s/%s.cu", dest, l->ex[i].lab,
			 l->ex[i].name);
		text = bt_read(path, BT_MAX_FILE_BYTES);
		h = bt_fnv(h, path + strlen(dest), strlen(path + strlen(dest)) + 1);
		if (text)
			h = bt_fnv(h, text, strlen(text));
		free(text);
	}
	return h;
}

int bt_collect(struct bt_sub *s, const struct bt_labs *l, const char *dest,
	       const char *stage, const struct bt_box *box)
{
	char scratch[BT_PATH], tool[BT_PATH], archive[BT_PATH], *slash;
	struct stat st;
	int count = 0;

	memset(s->from, 0, sizeof(s->from));
	s->ntaken = 0;
	s->error[0] = '\0';
	if (bt_mkdirs(dest) || bt_mkdirs(stage))
		return -1;
	bt_fmt(scratch, sizeof(scratch), "%s", stage);
	if ((slash = strrchr(scratch, '/')))
		*slash = '\0';
	if (s->kind == BT_DIR) {
		walk(s, l, s->path, "", 0, &count);
	} else if (stat(s->path, &st) || st.st_size > BT_MAX_ARCHIVE_BYTES) {
		bt_fmt(s->error, sizeof(s->error), "the archive is too big "
			 "(more than %lld MiB)", BT_MAX_ARCHIVE_BYTES >> 20);
	} else if (bt_which(s->kind == BT_ZIP ? "unzip" : "tar", tool,
			    sizeof(tool))) {
		bt_fmt(s->error, sizeof(s->error), "%s is not installed on "
			 "the grading machine", s->kind == BT_ZIP ? "unzip" : "tar");
	} else if (bt_fmt(archive, sizeof(archive), "%s/archive", scratch),
		   bt_copy_file(s->path, archive, BT_MAX_ARCHIVE_BYTES) < 0) {
		bt_fmt(s->error, sizeof(s->error), "the archive could not be "
			 "read: %s", strerror(errno));
	} else {
		/* A copy in the scratch folder, which the sandbox sees
		 * (the submissions folder it does not); the sandbox
		 * account extracts into stage. */
		if (!box || !box->bwrap)
			box = NULL;
		else if (box->uid >= 0)
			(void)!chown(stage, (uid_t)box->uid, (gid_t)box->gid);
		if (!list_archive(s, l, tool, scratch, archive, box))
			extract_chosen(s, l, tool, scratch, archive, stage, box);
		remove(archive);
	}
	for (int i = 0; i < l->n; i++) {
		char src[BT_PATH];

		if (!s->from[i][0])
			continue;
		bt_fmt(src, sizeof(src), "%s/%s",
			 s->kind == BT_DIR ? s->path : stage, s->from[i]);
		if (take(s, l, i, src, s->kind == BT_DIR ? NULL : stage, dest))
			s->from[i][0] = '\0';
		else
			s->ntaken++;
	}
	s->fp = fingerprint(s, l, dest);
	bt_rmtree(stage);
	return 0;
}

void bt_files_report(FILE *f, const struct bt_sub *s, const struct bt_labs *l)
{
	int missing = 0;

	fprintf(f, "Submission %s (student %s)\n", s->name, s->id);
	if (s->error[0])
		fprintf(f, "  %s\n", s->error);
	fprintf(f, "Taken:%s\n", s->ntaken ? "" : " nothing");
	for (int i = 0; i < l->n; i++)
		if (s->from[i][0])
			fprintf(f, "  %s/%s.cu  <-  %s\n", l->ex[i].lab,
				l->ex[i].name, s->from[i]);
	for (int i = 0; i < l->n; i++)
		missing += l->ex[i].selected && !s->from[i][0];
	if (missing) {
		fprintf(f, "Missing (0 points; COMPILE ERROR below: no file "
			   "to build):\n");
		for (int i = 0; i < l->n; i++)
			if (l->ex[i].selected && !s->from[i][0])
				fprintf(f, "  %s/%s.cu\n", l->ex[i].lab,
					l->ex[i].name);
	}
	if (s->nnotes) {
		fprintf(f, "Ignored (only <lab>/<exercise>.cu files are "
			   "graded):\n");
		for (int i = 0; i < s->nnotes; i++)
			fprintf(f, "  %s  (%s)\n", s->notes[i].path,
				s->notes[i].why);
		if (s->more_notes)
			fprintf(f, "  ... and %d more\n", s->more_notes);
	}
}
