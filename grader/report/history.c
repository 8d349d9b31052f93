/* SPDX-License-Identifier: MIT */
/*
 * history.c - every graded attempt appended to its submission root's
 * history, and read back (history.h).
 */
#include "history.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

#define HIST_LINE 512

int hist_hash_file(const char *path, char out[20])
{
	uint64_t h = 0xcbf29ce484222325ULL;
	unsigned char buf[8192];
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return -1;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		for (size_t i = 0; i < got; i++)
			h = (h ^ buf[i]) * 0x100000001b3ULL;
	fclose(f);
	snprintf(out, 20, "%016llx", (unsigned long long)h);
	return 0;
}

/* The file <build>/<lab>/<ex>.src names, without its newline; "" if none. */
static void source_of(const char *build, const struct g_row *row, char *out,
		      size_t n)
{
	char path[1024], *text;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s/%s.src", build, row->spec.lab,
		 row->spec.name);
	text = read_file(path, 4096);
	if (!text)
		return;
	text[strcspn(text, "\n")] = '\0';
	snprintf(out, n, "%s", text);
	free(text);
}

/* "mine/05-reduction/sum.cu" -> "mine", the root it was found under. */
static int root_of(const char *src, const struct g_row *row, char *out,
		   size_t n)
{
	char tail[2 * G_NAME_LEN + 8];
	size_t ls = strlen(src), lt;

	snprintf(tail, sizeof(tail), "/%s/%s.cu", row->spec.lab, row->spec.name);
	lt = strlen(tail);
	if (ls <= lt || strcmp(src + ls - lt, tail))
		return -1;
	snprintf(out, n, "%.*s", (int)(ls - lt), src);
	return 0;
}

void hist_locate(struct g_run *run, const char *build, const char *name)
{
	for (int i = 0; i < run->nrows; i++) {
		struct g_row *row = &run->rows[i];
		char src[512], root[512];

		row->history[0] = row->hash[0] = '\0';
		source_of(build, row, src, sizeof(src));
		if (!src[0] || root_of(src, row, root, sizeof(root)) ||
		    hist_hash_file(src, row->hash))
			continue;
		snprintf(row->history, sizeof(row->history), "%.400s/%.100s",
			 root, name);
	}
}

void hist_line(char *buf, size_t n, const struct g_run *run,
	       const struct g_row *row, time_t now)
{
	const struct g_result *r = &row->res;
	char stamp[24] = "";
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(buf, n, "%s\t%s\t%s\t%s\t%s\t%.4f\t%.1f\t%g\t%g\t%llu\n", stamp,
		 row->spec.lab, row->spec.name, row->hash,
		 wb_verdict_key(r->verdict), r->speedup, r->gbps, r->points,
		 r->max_points, run->seed);
}

/* The lines of run's rows whose history is path, one after another. */
static char *lines_for(const struct g_run *run, const char *path, time_t now,
		       size_t *len)
{
	char *buf = malloc((size_t)run->nrows * HIST_LINE + 1);

	*len = 0;
	if (!buf)
		return NULL;
	for (int i = 0; i < run->nrows; i++) {
		const struct g_row *row = &run->rows[i];

		/* A grader error says nothing of the attempt: not kept. */
		if (strcmp(row->history, path) || row->res.verdict == WB_V_ERROR)
			continue;
		hist_line(buf + *len, HIST_LINE, run, row, now);
		*len += strlen(buf + *len);
	}
	return buf;
}

/* Append buf to path in one write: O_APPEND places it whole at the end. */
static int append_once(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	ssize_t put;

	if (fd < 0)
		return -1;
	put = write(fd, buf, len);
	if (close(fd) || put != (ssize_t)len)
		return -1;
	return 0;
}

/* Has an earlier row than i the same history file? */
static int seen_before(const struct g_run *run, int i)
{
	for (int j = 0; j < i; j++)
		if (!strcmp(run->rows[j].history, run->rows[i].history))
			return 1;
	return 0;
}

int hist_append(const struct g_run *run, time_t now)
{
	int ret = 0;

	for (int i = 0; i < run->nrows; i++) {
		const char *path = run->rows[i].history;
		size_t len;
		char *buf;

		if (!path[0] || seen_before(run, i))
			continue;
		buf = lines_for(run, path, now, &len);
		if (!buf || append_once(path, buf, len)) {
			fprintf(stderr, "grader: cannot append to the history %s: %s\n",
				path, strerror(errno));
			ret = -1;
		}
		free(buf);
	}
	return ret;
}

int hist_parse(char *line, struct hist_entry *e)
{
	char *f[10], *save = NULL;
	int k = 0;

	for (char *t = strtok_r(line, "\t\n", &save); t && k < 10;
	     t = strtok_r(NULL, "\t\n", &save))
		f[k++] = t;
	if (k != 10 || line[0] == '#')
		return -1;
	memset(e, 0, sizeof(*e));
	snprintf(e->time, sizeof(e->time), "%s", f[0]);
	snprintf(e->lab, sizeof(e->lab), "%s", f[1]);
	snprintf(e->name, sizeof(e->name), "%s", f[2]);
	snprintf(e->hash, sizeof(e->hash), "%s", f[3]);
	snprintf(e->verdict, sizeof(e->verdict), "%s", f[4]);
	e->speedup = strtod(f[5], NULL);
	e->gbps = strtod(f[6], NULL);
	e->points = strtod(f[7], NULL);
	e->max_points = strtod(f[8], NULL);
	e->seed = strtoull(f[9], NULL, 10);
	return 0;
}

int hist_read(const char *path, const char *lab, const char *name,
	      struct hist_entry *out, int max)
{
	FILE *f = fopen(path, "r");
	char line[HIST_LINE * 2];
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		struct hist_entry e;

		if (hist_parse(line, &e))
			continue;
		if (lab && (strcmp(e.lab, lab) || strcmp(e.name, name)))
			continue;
		if (n == max) /* keep the newest max */
			memmove(out, out + 1, (size_t)(max - 1) * sizeof(*out));
		out[n < max ? n++ : max - 1] = e;
	}
	fclose(f);
	return n;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct hist_entry *x = a, *y = b;
	int c = strcmp(x->lab, y->lab);

	if (!c)
		c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->time, y->time);
}

/*
 * when (UTC)  exercise              source  verdict         speedup  GB/s   points
 * 11-27 11:02 05-reduction/sum      3fa2c1d PASS              5.23x  2210   97/100
 */
void hist_table(FILE *f, const struct hist_entry *in, int n)
{
	struct hist_entry *e = malloc((size_t)(n ? n : 1) * sizeof(*e));

	if (!e)
		return;
	memcpy(e, in, (size_t)n * sizeof(*e));
	qsort(e, n, sizeof(*e), cmp_entry);
	fprintf(f, "%-11s %-21s %-7s %-15s %7s %5s %8s\n", "when (UTC)",
		"exercise", "source", "verdict", "speedup", "GB/s", "points");
	for (int i = 0; i < n; i++) {
		char when[16], name[2 * G_NAME_LEN + 2], sp[16] = "-", gb[16] = "-";
		char pts[32];
		int v = wb_verdict_parse(e[i].verdict);

		/* "2026-11-27T11:02:33Z" -> "11-27 11:02" */
		snprintf(when, sizeof(when), "%.5s %.5s", e[i].time + 5, e[i].time + 11);
		snprintf(name, sizeof(name), "%s/%s", e[i].lab, e[i].name);
		if (strlen(name) > 21)
			snprintf(name + 20, sizeof(name) - 20, "~");
		if (e[i].speedup > 0)
			snprintf(sp, sizeof(sp), "%.2fx", e[i].speedup);
		if (e[i].gbps > 0)
			snprintf(gb, sizeof(gb), "%.0f", e[i].gbps);
		snprintf(pts, sizeof(pts), "%g/%g", e[i].points, e[i].max_points);
		fprintf(f, "%-11s %-21s %-7.7s %-15.15s %7s %5s %8s\n", when, name,
			e[i].hash, v < 0 ? e[i].verdict : wb_verdict_label(v), sp,
			gb, pts);
	}
	free(e);
}
