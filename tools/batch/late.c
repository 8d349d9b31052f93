/* SPDX-License-Identifier: MIT */
/*
 * late.c - deadlines: the course file's deadline and late policy, each
 * submission's time, and what lateness costs.
 *
 * A submission's time comes from a source the student cannot set: a CSV
 * the instructor gives (TIMES=: Gradescope's created_at, GitHub's push
 * time, tools/classroom/pull.sh's marks), else the entry's arrival in the
 * submissions folder, its inode change time (ctime), which only the
 * kernel sets: copying or unpacking with preserved times (cp -p, tar, a
 * student's own file times) changes mtime, never ctime. Never a commit's
 * date, never a time inside the submission.
 *
 * Floor 1 (batch.h): uses row, sub, util and files.
 */
#include "late.h"
#include "files.h"
#include "util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian). */
static long long days_from_civil(int y, int m, int d)
{
	int era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (long long)era * 146097 + doe - 719468;
}

long long bt_parse_time(const char *s)
{
	int y, mo, d, h, mi, sec = 0, used = 0, zh, zm;
	const char *z;
	long long t;

	while (isspace((unsigned char)*s))
		s++;
	if (sscanf(s, "%4d-%2d-%2d%*1[ T]%2d:%2d%n", &y, &mo, &d, &h, &mi,
		   &used) != 5)
		return -1;
	z = s + used;
	if (*z == ':') {
		int k = 0;

		if (sscanf(z, ":%2d%n", &sec, &k) != 1)
			return -1;
		z += k;
		if (*z == '.') /* Gradescope's created_at: microseconds */
			for (z++; isdigit((unsigned char)*z); z++)
				;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 ||
	    sec > 60 || y < 1970)
		return -1;
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	while (*z == ' ')
		z++;
	/* The zone is required: a deadline in "local time" depends on the
	 * machine that grades. */
	if (!strcmp(z, "Z") || !strcmp(z, "UTC") || !strcmp(z, "+00:00"))
		return t;
	if ((*z == '+' || *z == '-') && sscanf(z + 1, "%2d:%2d", &zh, &zm) == 2 &&
	    strlen(z) == 6 && zh <= 14 && zm <= 59)
		return t - (*z == '+' ? 1 : -1) * (zh * 3600LL + zm * 60);
	return -1;
}

double bt_parse_duration(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0 || !isfinite(v))
		return -1;
	while (*end == ' ')
		end++;
	switch (*end) {
	case '\0': return v;
	case 's': v *= 1; break;
	case 'm': v *= 60; break;
	case 'h': v *= 3600; break;
	case 'd': v *= 86400; break;
	default: return -1;
	}
	return end[1] ? -1 : v;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int bt_read_late(const char *course, struct bt_late *l)
{
	char *text, *line, *save = NULL;
	int lineno = 0, rc = 0;

	memset(l, 0, sizeof(*l));
	l->cutoff_s = -1;
	if (!course || !*course)
		return 0;
	text = bt_read(course, 1 << 20);
	if (!text) {
		fprintf(stderr, "batch: cannot read %s\n", course);
		return -1;
	}
	/* strtok_r would skip empty lines and lose the count: by hand. */
	for (line = text; line && !rc; line = save) {
		char *key, *val, *eq, *hash;

		lineno++;
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = '\0';
		key = trim(line);
		val = trim(eq + 1);
		if (!strcmp(key, "deadline")) {
			l->deadline = bt_parse_time(val);
			rc = l->deadline < 0;
		} else if (!strcmp(key, "late_grace")) {
			l->grace_s = bt_parse_duration(val);
			rc = l->grace_s < 0;
		} else if (!strcmp(key, "late_per_day")) {
			char *end;

			l->per_day = strtod(val, &end);
			if (*end == '%')
				end++;
			rc = end == val || *end || l->per_day < 0 || l->per_day > 100;
		} else if (!strcmp(key, "leaderboard")) {
			l->leaderboard = !strcmp(val, "names") ? BT_BOARD_NAMES :
					 !strcmp(val, "pseudonyms") ?
					 BT_BOARD_PSEUDONYMS : 0;
			rc = !l->leaderboard && strcmp(val, "off");
		} else if (!strcmp(key, "late_cutoff")) {
			l->cutoff_s = bt_parse_duration(val);
			rc = l->cutoff_s < 0;
		} else {
			continue;
		}
		if (rc)
			fprintf(stderr, "%s:%d: %s = '%s': not a valid value "
					"(docs/instructors.md, \"Deadlines\")\n",
				course, lineno, key, val);
	}
	free(text);
	if (!rc && !l->deadline && (l->grace_s || l->per_day || l->cutoff_s >= 0)) {
		fprintf(stderr, "%s: a late policy without a deadline\n", course);
		rc = 1;
	}
	return rc ? -1 : 0;
}

void bt_apply_late(const struct bt_late *l, struct bt_row *row)
{
	double late;

	row->late_s = 0;
	row->penalty = 0;
	row->late_note[0] = '\0';
	if (!l->deadline)
		return;
	if (!row->submitted) {
		bt_fmt(row->late_note, sizeof(row->late_note),
		       "submission time not known");
		return;
	}
	late = (double)(row->submitted - l->deadline);
	if (late <= 0)
		return;
	row->late_s = late;
	if (l->cutoff_s >= 0 && late > l->cutoff_s) {
		row->penalty = 100;
		bt_fmt(row->late_note, sizeof(row->late_note), "past the cutoff");
		return;
	}
	if (late <= l->grace_s) {
		bt_fmt(row->late_note, sizeof(row->late_note), "within the grace");
		return;
	}
	/* Per day or part of one, counted from the deadline itself. */
	row->penalty = ceil((late - 0.5) / 86400) * l->per_day;
	if (row->penalty > 100)
		row->penalty = 100;
}

void bt_fmt_time(char *buf, size_t n, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm)) {
		bt_fmt(buf, n, "%s", "");
		return;
	}
	strftime(buf, n, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

/* The latest ctime in a folder (a bounded walk, no link followed). */
static long long latest_ctime(const char *path, int depth, int *budget)
{
	struct stat st;
	long long t;
	DIR *d;
	struct dirent *e;

	if (lstat(path, &st))
		return 0;
	t = st.st_ctime;
	if (!S_ISDIR(st.st_mode) || depth > BT_MAX_DEPTH || --*budget < 0)
		return t;
	d = opendir(path);
	while (d && (e = readdir(d))) {
		char sub[BT_PATH];
		long long u;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (bt_fmt(sub, sizeof(sub), "%s/%s", path, e->d_name) >=
		    (int)sizeof(sub))
			continue;
		u = latest_ctime(sub, depth + 1, budget);
		if (u > t)
			t = u;
	}
	if (d)
		closedir(d);
	return t;
}

int bt_submission_times(const char *times, struct bt_sub *s, int n)
{
	char *text = NULL, *line, *save;
	int lineno = 0, rc = 0;

	for (int i = 0; i < n; i++) {
		int budget = BT_MAX_ENTRIES;

		s[i].submitted = latest_ctime(s[i].path, 0, &budget);
		bt_fmt(s[i].submitted_from, sizeof(s[i].submitted_from),
		       "arrival");
	}
	if (!times)
		return 0;
	text = bt_read(times, 16 << 20);
	if (!text) {
		fprintf(stderr, "batch: cannot read %s (TIMES=)\n", times);
		return -1;
	}
	for (line = text; line; line = save) {
		char *comma, *who, *when;
		long long t;
		int hit = 0;

		lineno++;
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		if (!*line || *line == '#' || (lineno == 1 && !strncmp(line, "entry,", 6)))
			continue;
		comma = strchr(line, ',');
		if (!comma) {
			fprintf(stderr, "%s:%d: expected 'entry,time'\n", times, lineno);
			rc = -1;
			continue;
		}
		*comma = '\0';
		who = trim(line);
		when = trim(comma + 1);
		t = bt_parse_time(when);
		if (t < 0) {
			fprintf(stderr, "%s:%d: '%s': not a time (2026-12-01 "
					"23:59:00 UTC, or ISO 8601 with a zone)\n",
				times, lineno, when);
			rc = -1;
			continue;
		}
		for (int i = 0; i < n; i++)
			if (!strcmp(s[i].name, who) || !strcmp(s[i].id, who)) {
				s[i].submitted = t;
				bt_fmt(s[i].submitted_from,
				       sizeof(s[i].submitted_from), "times");
				hit = 1;
			}
		if (!hit)
			fprintf(stderr, "batch: %s:%d: %s: no such submission "
					"(ignored)\n", times, lineno, who);
	}
	free(text);
	return rc;
}
