/* SPDX-License-Identifier: MIT */
/*
 * collect.c - taking what students may hand in out of their submissions
 * (collect.h).
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
 *
 * Floor 3 (batch.h): uses lablist, sub, match (which file is which),
 * sandbox and process (an archive is read in its sandbox), util and files.
 */
#include "collect.h"
#include "files.h"
#include "match.h"
#include "process.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Seconds allowed to list or extract one archive. */
#define ARCHIVE_TIMEOUT_S 60.0

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
