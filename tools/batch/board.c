/* SPDX-License-Identifier: MIT */
/*
 * board.c - the leaderboard, where the course file asks for one
 * ("leaderboard = names" or "pseudonyms"; off by default):
 *
 *   - each student's results.json gets Gradescope's "leaderboard" field:
 *     one entry per exercise that passed, its speedup over the naive, the
 *     GPU model in the entry's name (times are only comparable on one
 *     model);
 *   - class.html gets, per exercise and GPU model, the ten fastest that
 *     passed, by id (names) or by pseudonym: "student-" and four hex
 *     digits of a keyed hash of the id, the key a random one kept in
 *     OUT/.board-key (so that a classmate who knows the roster cannot
 *     work a pseudonym back, and a pseudonym stays the same from one run
 *     to the next).
 *
 * Floor 4 (batch.h): uses conf, row, tsv, json, util, files and the
 * grader's grader/html_text.h.
 */
#include "board.h"
#include "files.h"
#include "json.h"
#include "tsv.h"
#include "util.h"
#include "../../grader/html_text.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BOARD_TOP 10
#define BOARD_MAX 64        /* entries read from one TSV */

struct entry {
	char ex[2 * BT_NAME_LEN];
	char model[96];
	char who[BT_ID_LEN];
	double speedup;
};

/* A file sandboxed code wrote: a regular file, no link, at most 4 MiB. */
static char *read_nofollow(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char *text;
	ssize_t k;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (4 << 20)) {
		close(fd);
		return NULL;
	}
	text = malloc(st.st_size + 1);
	k = text ? read(fd, text, st.st_size) : -1;
	close(fd);
	if (k < 0) {
		free(text);
		return NULL;
	}
	text[k] = '\0';
	return text;
}

/* The GPU model in a grader's results.json (extra_data.device.name). */
static void model_of(const char *json, char *out, size_t n)
{
	static const char key[] = "\"device\": {\"name\": \"";
	const char *at = json ? strstr(json, key) : NULL;
	size_t k = 0;

	bt_fmt(out, n, "%s", "unknown GPU");
	if (!at)
		return;
	at += strlen(key);
	while (at[k] && at[k] != '"' && at[k] != '\\' && k + 1 < n)
		k++;
	if (k)
		bt_fmt(out, n, "%.*s", (int)k, at);
}

/* Each exercise that passed with a speedup, from a TSV's text. */
static int entries(const char *tsv, const char *model, const char *who,
		   struct entry *e, int max)
{
	char *copy = strdup(tsv), *line, *save = NULL;
	int cl, ce, cv, cs, n = 0;

	if (!copy)
		return 0;
	line = strtok_r(copy, "\n", &save);
	cl = line ? bt_tsv_col(line, "lab") : -1;
	ce = line ? bt_tsv_col(line, "exercise") : -1;
	cv = line ? bt_tsv_col(line, "verdict") : -1;
	cs = line ? bt_tsv_col(line, "speedup") : -1;
	while (cl >= 0 && ce >= 0 && cv >= 0 && cs >= 0 && n < max &&
	       (line = strtok_r(NULL, "\n", &save))) {
		char lab[BT_NAME_LEN], ex[BT_NAME_LEN], v[32], sp[32];

		bt_tsv_field(line, cl, lab, sizeof(lab));
		bt_tsv_field(line, ce, ex, sizeof(ex));
		bt_tsv_field(line, cv, v, sizeof(v));
		bt_tsv_field(line, cs, sp, sizeof(sp));
		if (strcmp(v, "PASS") || atof(sp) <= 0)
			continue;
		bt_fmt(e[n].ex, sizeof(e[n].ex), "%s/%s", lab, ex);
		bt_fmt(e[n].model, sizeof(e[n].model), "%s", model);
		bt_fmt(e[n].who, sizeof(e[n].who), "%s", who);
		e[n].speedup = atof(sp);
		n++;
	}
	free(copy);
	return n;
}

int bt_json_add_leaderboard(const char *json_path, const char *tsv_path)
{
	struct entry e[BOARD_MAX];
	char model[96], *json = bt_read(json_path, 64 << 20);
	char *tsv = read_nofollow(tsv_path), *board = NULL, *out = NULL;
	size_t len = 0;
	FILE *m;
	int n, rc = -1;

	if (!json || !tsv || json[0] != '{' || strstr(json, "\"leaderboard\""))
		goto done;
	model_of(json, model, sizeof(model));
	n = entries(tsv, model, "", e, BOARD_MAX);
	m = open_memstream(&board, &len);
	if (!m)
		goto done;
	fprintf(m, "{\n  \"leaderboard\": [");
	for (int i = 0; i < n; i++) {
		char name[256], *esc;

		bt_fmt(name, sizeof(name), "%s speedup, %s", e[i].ex, e[i].model);
		esc = bt_json_escape(name);
		fprintf(m, "%s\n    {\"name\": \"%s\", \"value\": %.3f, "
			   "\"order\": \"desc\"}", i ? "," : "",
			esc ? esc : "?", e[i].speedup);
		free(esc);
	}
	fprintf(m, "\n  ],");
	if (fclose(m))
		goto done;
	out = malloc(strlen(board) + strlen(json) + 1);
	if (!out)
		goto done;
	strcpy(out, board);
	strcat(out, json + 1); /* after its own '{' */
	rc = bt_write_atomic(json_path, out);
done:
	free(json);
	free(tsv);
	free(board);
	free(out);
	return rc;
}

/* OUT/.board-key: made once, random. */
static unsigned long long board_key(const struct bt_conf *c)
{
	char path[BT_PATH], *text, buf[40];
	unsigned long long k = 0;
	int fd;

	bt_fmt(path, sizeof(path), "%s/.board-key", c->out);
	text = bt_read(path, 64);
	if (text && sscanf(text, "%llx", &k) == 1) {
		free(text);
		return k;
	}
	free(text);
	fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &k, sizeof(k)) != (ssize_t)sizeof(k))
		k = (unsigned long long)bt_now() * 2654435761ULL;
	if (fd >= 0)
		close(fd);
	bt_fmt(buf, sizeof(buf), "%016llx\n", k);
	bt_write_atomic(path, buf);
	return k;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int d = strcmp(x->ex, y->ex);

	if (!d)
		d = strcmp(x->model, y->model);
	if (!d)
		d = (x->speedup < y->speedup) - (x->speedup > y->speedup);
	return d;
}

void bt_board_html(FILE *f, const struct bt_conf *c,
		   const struct bt_row *rows, int n)
{
	unsigned long long key = c->late.leaderboard == BT_BOARD_PSEUDONYMS ?
				 board_key(c) : 0;
	struct entry *all = calloc((size_t)(n ? n : 1) * BOARD_MAX, sizeof(*all));
	int m = 0, shown = 0;

	if (!all)
		return;
	for (int r = 0; r < n; r++) {
		char path[BT_PATH], who[BT_ID_LEN], model[96], *tsv, *json;

		if (!rows[r].graded)
			continue;
		bt_fmt(path, sizeof(path), "%s/students/%s/results.tsv", c->out,
		       rows[r].id);
		tsv = bt_read(path, 4 << 20);
		bt_fmt(path, sizeof(path), "%s/students/%s/results.json", c->out,
		       rows[r].id);
		json = bt_read(path, 64 << 20);
		model_of(json, model, sizeof(model));
		if (key) {
			unsigned long long h = bt_fnv(BT_FNV_INIT, &key, sizeof(key));

			h = bt_fnv(h, rows[r].id, strlen(rows[r].id));
			bt_fmt(who, sizeof(who), "student-%04llx", h & 0xffff);
		} else {
			bt_fmt(who, sizeof(who), "%s", rows[r].id);
		}
		if (tsv)
			m += entries(tsv, model, who, all + m, BOARD_MAX);
		free(tsv);
		free(json);
	}
	qsort(all, m, sizeof(*all), cmp_entry);
	fprintf(f, "<h2>Leaderboard</h2>\n<p class=\"sub\">The fastest "
		   "submissions that passed, by speedup over the naive, per "
		   "exercise and GPU model (times on two models do not compare)%s."
		   "</p>\n", key ? "; pseudonyms, the same from run to run" : "");
	for (int i = 0; i < m; i++) {
		int first = !i || strcmp(all[i].ex, all[i - 1].ex) ||
			    strcmp(all[i].model, all[i - 1].model);

		if (first) {
			if (i)
				fprintf(f, "</table>\n");
			fprintf(f, "<h3>");
			html_str(f, all[i].ex);
			fprintf(f, " on ");
			html_str(f, all[i].model);
			fprintf(f, "</h3>\n<table class=\"board\"><tr><th>#</th>"
				   "<th>student</th><th>speedup</th></tr>\n");
			shown = 0;
		}
		if (++shown > BOARD_TOP)
			continue;
		fprintf(f, "<tr><td>%d</td><td>", shown);
		html_str(f, all[i].who);
		fprintf(f, "</td><td>%.2fx</td></tr>\n", all[i].speedup);
	}
	if (m)
		fprintf(f, "</table>\n");
	else
		fprintf(f, "<p>No submission passed with a speedup yet.</p>\n");
	free(all);
}
