/* SPDX-License-Identifier: MIT */
/*
 * finish.c - a student's finished folder (finish.h).
 *
 * A student's results appear all at once: they are written to
 * students/.tmp-<id>/ and renamed to students/<id>/; a regrade renames the
 * old folder out of the way first. A crash at any point leaves either the
 * old result or the new one, never half of one, and the next run tidies
 * up (bt_recover()). A grade that ends without results is not a result: the
 * student's logs go to failed/<id>/ and the next run tries again.
 *
 * Floor 4 (batch.h): uses conf, sub, row, late, collect (what was taken),
 * board (the leaderboard in results.json), json, util, files, and the
 * grader's grader/proc.h (file_tail).
 */
#include "finish.h"
#include "board.h"
#include "collect.h"
#include "files.h"
#include "json.h"
#include "late.h"
#include "row.h"
#include "util.h"
#include "../../grader/proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each exercise's .log and .out kept in the student's folder: the end. */
#define BT_LOG_KEEP (256 << 10)

/*
 * In this part, files the sandbox wrote are read only where they are
 * regular files inside its scratch folder w (bt_inside_regular()): its
 * code may have left a link in their place, to a file only the batch
 * can read.
 */

/* Copy the last BT_LOG_KEEP bytes of a log in w (if it is there). */
static void keep_log(const char *from, const char *to, const char *w)
{
	char *tail;
	FILE *f;

	if (!bt_inside_regular(from, w))
		return;
	tail = file_tail(from, BT_LOG_KEEP);
	f = tail ? fopen(to, "w") : NULL;
	if (f) {
		fputs(tail, f);
		fclose(f);
	}
	free(tail);
}

/* Each exercise's compiler log and runner output in the scratch
 * folder w, into dest/logs/. */
static void keep_exercise_logs(const struct bt_conf *c, const char *w,
			       const char *dest)
{
	static const char *const kinds[] = { "log", "out" };

	for (int i = 0; i < c->labs.n; i++) {
		const struct bt_exercise *e = &c->labs.ex[i];
		char dir[BT_PATH], from[BT_PATH], to[BT_PATH];

		if (!e->selected)
			continue;
		bt_fmt(dir, sizeof(dir), "%s/logs/%s", dest, e->lab);
		bt_mkdirs(dir);
		for (int k = 0; k < 2; k++) {
			bt_fmt(from, sizeof(from), "%s/build/%s/%s.%s", w,
			       e->lab, e->name, kinds[k]);
			bt_fmt(to, sizeof(to), "%s/%s.%s", dir, e->name, kinds[k]);
			keep_log(from, to, w);
		}
	}
}

static void write_meta(const struct bt_conf *c, const struct bt_sub *s,
		       const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	fprintf(f, "id %s\nsubmission %s\nfingerprint %016llx\n", s->id,
		s->name, s->fp);
	fprintf(f, "sandbox %s\n", c->sandboxed ? "bwrap" : "none");
	if (c->sandboxed)
		fprintf(f, "sandbox_is %s\n", c->box_desc);
	else
		fprintf(f, "sandbox_is UNSANDBOXED: %s\n", c->unsandboxed_why);
	fprintf(f, "mode %s\n", c->build_only ? "build-only" : "grade");
	/* The rules it was graded under (main.c), and when it was handed
	 * in (late.c): the gradebook counts it only under its own rules. */
	fprintf(f, "rules %s\n", c->rules);
	fprintf(f, "submitted_at %lld %s\n", s->submitted,
		s->submitted_from[0] ? s->submitted_from : "-");
	if (!c->build_only)
		fprintf(f, "gpu %s\n", c->gpus[s->slot]);
	fprintf(f, "build_s %.1f\ngrade_s %.1f\n", s->build_s, s->grade_s);
	for (int i = 0; i < c->labs.n; i++)
		if (c->labs.ex[i].selected && !s->from[i][0])
			fprintf(f, "missing %s/%s\n", c->labs.ex[i].lab,
				c->labs.ex[i].name);
	fclose(f);
}

/*
 * The grader names files in the scratch folder w, which is gone by the
 * time anyone reads the report: its logs are in logs/ beside the report,
 * and its src/ is the submission.
 */
static char *local_paths(const char *w, char *text)
{
	char from[BT_PATH];

	if (!text)
		return NULL;
	bt_fmt(from, sizeof(from), "%s/build/", w);
	text = bt_replace(text, from, "logs/");
	bt_fmt(from, sizeof(from), "%s/src", w);
	return text ? bt_replace(text, from, "the submission") : NULL;
}

/*
 * With a deadline: when the submission came, how late, and what that
 * costs, as the gradebook counts it (late.c), in words for the student;
 * "" without one. *score: the score after the penalty.
 */
static void late_line(const struct bt_conf *c, const struct bt_sub *s,
		      const struct bt_row *graded, char *out, size_t n,
		      double *score)
{
	struct bt_row r = *graded;
	char when[64];

	out[0] = '\0';
	*score = r.total;
	if (!c->late.deadline)
		return;
	r.submitted = s->submitted;
	bt_apply_late(&c->late, &r);
	*score = r.total * (1 - r.penalty / 100);
	bt_fmt_time(when, sizeof(when), s->submitted);
	if (!s->submitted)
		bt_fmt(out, n, "Submitted: when is not known: no late penalty "
		       "applied\n");
	else if (r.late_s <= 0)
		bt_fmt(out, n, "Submitted %s: on time\n", when);
	else
		bt_fmt(out, n, "Submitted %s, %.1f hours after the deadline%s%s: "
		       "%g%% off, %g of %g points\n", when, r.late_s / 3600,
		       r.late_note[0] ? ", " : "", r.late_note, r.penalty,
		       *score, r.max);
}

/* report.txt at path: what was taken, and the grader's table (in w). */
static void write_report(const struct bt_conf *c, const struct bt_sub *s,
			 const char *w, const char *table, const char *path,
			 const char *late)
{
	FILE *f = fopen(path, "w");
	char *text = local_paths(w, bt_inside_regular(table, w) ?
				 bt_read(table, 8 << 20) : NULL);
	int skip = 0;

	if (!f) {
		free(text);
		return;
	}
	bt_files_report(f, s, &c->labs);
	if (*late)
		fprintf(f, "%s", late);
	if (!c->sandboxed)
		fprintf(f, "\nWARNING: UNSANDBOXED: graded WITHOUT a sandbox (%s)\n",
			c->unsandboxed_why);
	fputc('\n', f);
	/* The grader's table, less its lines about where its files went
	 * ("results: ..." and the indented lines under it): that scratch
	 * folder is gone; they are beside this report. */
	for (char *l = text, *end; l && *l; l = end) {
		end = strchr(l, '\n');
		end = end ? end + 1 : l + strlen(l);
		if (!strncmp(l, "results: ", 9))
			skip = 1;
		else if (*l != ' ')
			skip = 0;
		if (!skip)
			fwrite(l, 1, end - l, f);
	}
	if (!text)
		fprintf(f, "(the grader printed nothing)\n");
	fclose(f);
	free(text);
}

/* The text put in front of results.json's output: what was taken. */
static char *files_note(const struct bt_conf *c, const struct bt_sub *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	bt_files_report(m, s, &c->labs);
	if (!c->sandboxed)
		fprintf(m, "Graded without a sandbox (UNSANDBOXED).\n");
	fputc('\n', m);
	fclose(m);
	return text;
}

/* The grader's results.json, told what was taken, with local paths
 * (w: the scratch folder it names). */
static void student_json(const struct bt_conf *c, const struct bt_sub *s,
			 const char *w, const char *path)
{
	char *note, *text;

	if (!bt_exists(path))
		return;
	note = files_note(c, s);
	if (note)
		bt_json_add_note(path, note);
	free(note);
	text = local_paths(w, bt_read(path, 64 << 20));
	if (text)
		bt_write_atomic(path, text);
	free(text);
}

/* results.json's top-level "score" (the first one: the grader writes it
 * first) made score: the late penalty, as scores.csv has it. */
static void json_score(const char *path, double score)
{
	char *text = bt_read(path, 64 << 20), *at, *end, num[64], *out;

	at = text ? strstr(text, "\"score\": ") : NULL;
	if (!at) {
		free(text);
		return;
	}
	at += 9;
	strtod(at, &end);
	bt_fmt(num, sizeof(num), "%g", score);
	out = malloc(strlen(text) + sizeof(num));
	if (out) {
		bt_fmt(out, strlen(text) + sizeof(num), "%.*s%s%s",
		       (int)(at - text), text, num, end);
		bt_write_atomic(path, out);
	}
	free(out);
	free(text);
}

int bt_finish(const struct bt_conf *c, struct bt_sub *s)
{
	char w[BT_PATH], tmp[BT_PATH], from[BT_PATH], to[BT_PATH];
	static const char *const copy[] = { "results.json", "results.tsv",
					    "build.log", "grade.log" };
	struct bt_row row;
	char *tsv, late[512];
	double score;
	int rc;

	bt_work_dir(c, s, "", w, sizeof(w));
	bt_fmt(from, sizeof(from), "%s/results.tsv", w);
	tsv = bt_inside_regular(from, w) ? bt_read(from, 4 << 20) : NULL;
	rc = tsv ? bt_read_tsv(tsv, &c->labs, &row) : -1;
	free(tsv);
	if (rc < 0)
		return -1;
	bt_fmt(tmp, sizeof(tmp), "%s/students/.tmp-%s", c->out, s->id);
	bt_rmtree(tmp);
	if (bt_mkdirs(tmp))
		return -1;
	for (size_t i = 0; i < sizeof(copy) / sizeof(copy[0]); i++) {
		bt_fmt(from, sizeof(from), "%s/%s", w, copy[i]);
		bt_fmt(to, sizeof(to), "%s/%s", tmp, copy[i]);
		if (bt_inside_regular(from, w))
			bt_copy_file(from, to, -1);
	}
	bt_fmt(to, sizeof(to), "%s/results.json", tmp);
	student_json(c, s, w, to);
	late_line(c, s, &row, late, sizeof(late), &score);
	if (*late) {
		bt_json_add_note(to, late);
		json_score(to, score);
	}
	if (c->late.leaderboard) {
		bt_fmt(from, sizeof(from), "%s/results.tsv", tmp);
		bt_json_add_leaderboard(to, from);
	}
	bt_fmt(from, sizeof(from), "%s/table.txt", w);
	bt_fmt(to, sizeof(to), "%s/report.txt", tmp);
	write_report(c, s, w, from, to, late);
	keep_exercise_logs(c, w, tmp);
	bt_fmt(to, sizeof(to), "%s/meta", tmp);
	write_meta(c, s, to);
	/* Every file on disk before the rename makes it the result. */
	for (size_t i = 0; i < sizeof(copy) / sizeof(copy[0]); i++) {
		bt_fmt(to, sizeof(to), "%s/%s", tmp, copy[i]);
		bt_fsync_path(to);
	}
	bt_fmt(to, sizeof(to), "%s/report.txt", tmp);
	bt_fsync_path(to);
	bt_fmt(to, sizeof(to), "%s/meta", tmp);
	bt_fsync_path(to);
	bt_fsync_path(tmp);
	bt_fmt(to, sizeof(to), "%s/students", c->out);
	return bt_publish(to, s->id, tmp);
}

void bt_keep_failure(const struct bt_conf *c, struct bt_sub *s,
		     const char *why)
{
	static const char *const copy[] = { "build.log", "grade.log",
					    "table.txt" };
	char w[BT_PATH], dir[BT_PATH], from[BT_PATH], to[BT_PATH];
	FILE *f;

	bt_work_dir(c, s, "", w, sizeof(w));
	bt_fmt(dir, sizeof(dir), "%s/failed/%s", c->out, s->id);
	bt_rmtree(dir);
	bt_mkdirs(dir);
	for (size_t i = 0; i < sizeof(copy) / sizeof(copy[0]); i++) {
		bt_fmt(from, sizeof(from), "%s/%s", w, copy[i]);
		bt_fmt(to, sizeof(to), "%s/%s", dir, copy[i]);
		keep_log(from, to, w);
	}
	bt_fmt(to, sizeof(to), "%s/why", dir);
	f = fopen(to, "w");
	if (f) {
		fprintf(f, "%s\n", why);
		fclose(f);
	}
}
