/* SPDX-License-Identifier: MIT */
/*
 * runfile.c - report.run, a run written down whole and read back
 * (runfile.h), and a results.tsv read back as far as it goes.
 *
 * The fields are tables of offsets into the run's structures, so that the
 * writer and the reader cannot disagree on a key: a field added to a table
 * is written and read. Doubles are written with 17 digits, which read back
 * to the same double.
 */
#include "runfile.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "inspect.h"
#include "proc.h"
#include "settle.h"

#define MAX_ROWS 256

enum ftype { F_STR, F_INT, F_DBL };

struct field {
	const char *key;
	enum ftype type;
	size_t off;
	size_t size; /* of a string's buffer */
};

#define FSTR(s, m, k) { k, F_STR, offsetof(s, m), sizeof(((s *)0)->m) }
#define FINT(s, m, k) { k, F_INT, offsetof(s, m), 0 }
#define FDBL(s, m, k) { k, F_DBL, offsetof(s, m), 0 }

static const struct field dev_fields[] = {
	FSTR(struct g_device, name, "dev.name"),
	FINT(struct g_device, cc, "dev.cc"),
	FINT(struct g_device, sms, "dev.sms"),
	FDBL(struct g_device, l2_mb, "dev.l2_mb"),
	FDBL(struct g_device, mem_gb, "dev.mem_gb"),
	FSTR(struct g_device, driver, "dev.driver"),
	FDBL(struct g_device, copy_gbps, "dev.copy_gbps"),
	FDBL(struct g_device, read_gbps, "dev.read_gbps"),
	FDBL(struct g_device, write_gbps, "dev.write_gbps"),
	FDBL(struct g_device, clock_mhz, "dev.clock_mhz"),
	FDBL(struct g_device, dram_gbps, "dev.dram_gbps"),
	FDBL(struct g_device, fp32_tflops, "dev.fp32_tflops"),
	FDBL(struct g_device, launch_us, "dev.launch_us"),
	FDBL(struct g_device, launch_sync_us, "dev.launch_sync_us"),
};

static const struct field row_fields[] = {
	FSTR(struct g_row, spec.lab, "spec.lab"),
	FSTR(struct g_row, spec.name, "spec.name"),
	FSTR(struct g_row, spec.title, "spec.title"),
	FSTR(struct g_row, spec.bench, "spec.bench"),
	FINT(struct g_row, spec.speed, "spec.speed"),
	FDBL(struct g_row, spec.points_correct, "spec.points_correct"),
	FDBL(struct g_row, spec.points_speed, "spec.points_speed"),
	FDBL(struct g_row, spec.timeout_s, "spec.timeout_s"),
	FINT(struct g_row, spec.tier_unit, "spec.tier_unit"),
	FSTR(struct g_row, spec.tiers_from, "spec.tiers_from"),
	FSTR(struct g_row, spec.ideal, "spec.ideal"),
	FDBL(struct g_row, spec.instr_speedup, "spec.instr_speedup"),
	FINT(struct g_row, course_changed, "row.course_changed"),
	FSTR(struct g_row, history, "row.history"),
	FSTR(struct g_row, hash, "row.hash"),
	FINT(struct g_row, res.sizes_ok, "res.sizes_ok"),
	FINT(struct g_row, res.sizes_failed, "res.sizes_failed"),
#define TIMING(i, k)                                                      \
	FINT(struct g_row, res.t[i].have, "res." k ".have"),              \
	FDBL(struct g_row, res.t[i].median_us, "res." k ".median_us"),    \
	FDBL(struct g_row, res.t[i].q1_us, "res." k ".q1_us"),            \
	FDBL(struct g_row, res.t[i].q3_us, "res." k ".q3_us"),            \
	FINT(struct g_row, res.t[i].samples, "res." k ".samples")
	TIMING(G_STUDENT, "student"),
	TIMING(G_NAIVE, "naive"),
	TIMING(G_PEER, "peer"),
	TIMING(G_IDEAL, "ideal"),
#undef TIMING
	FDBL(struct g_row, res.bytes, "res.bytes"),
	FDBL(struct g_row, res.flops, "res.flops"),
	FDBL(struct g_row, res.wall_s, "res.wall_s"),
	FINT(struct g_row, res.technique, "res.technique"),
	FSTR(struct g_row, res.audit, "res.audit"),
#define RATIO(m, k)                                                       \
	FINT(struct g_row, res.m.have, "res." k ".have"),                 \
	FDBL(struct g_row, res.m.med, "res." k ".med"),                   \
	FDBL(struct g_row, res.m.lo, "res." k ".lo"),                     \
	FDBL(struct g_row, res.m.hi, "res." k ".hi")
	RATIO(r_speedup, "r_speedup"),
	RATIO(r_share, "r_share"),
#undef RATIO
	FDBL(struct g_row, res.naive_ideal, "res.naive_ideal"),
	FDBL(struct g_row, res.share_max, "res.share_max"),
	FSTR(struct g_row, res.sol, "res.sol"),
	FDBL(struct g_row, res.read_bytes, "res.read_bytes"),
	FDBL(struct g_row, res.write_bytes, "res.write_bytes"),
	FDBL(struct g_row, res.read_gbps, "res.read_gbps"),
	FDBL(struct g_row, res.write_gbps, "res.write_gbps"),
	FDBL(struct g_row, res.mhz_min, "res.mhz_min"),
	FDBL(struct g_row, res.mhz_med, "res.mhz_med"),
	FDBL(struct g_row, res.mhz_max, "res.mhz_max"),
	FINT(struct g_row, res.rounds, "res.rounds"),
	FINT(struct g_row, res.dropped, "res.dropped"),
	FINT(struct g_row, res.verified, "res.verified"),
	FINT(struct g_row, res.throttled, "res.throttled"),
	FDBL(struct g_row, res.speedup, "res.speedup"),
	FDBL(struct g_row, res.gbps, "res.gbps"),
	FDBL(struct g_row, res.pct_copy, "res.pct_copy"),
	FDBL(struct g_row, res.share, "res.share"),
	FDBL(struct g_row, res.pct_dram, "res.pct_dram"),
	FDBL(struct g_row, res.tflops, "res.tflops"),
	FDBL(struct g_row, res.pct_peer, "res.pct_peer"),
	FDBL(struct g_row, res.points, "res.points"),
	FDBL(struct g_row, res.max_points, "res.max_points"),
	FINT(struct g_row, res.tier, "res.tier"),
	FDBL(struct g_row, res.next_target, "res.next_target"),
};

#define NFIELDS(t) ((int)(sizeof(t) / sizeof((t)[0])))

/* ---- writing ------------------------------------------------------------ */

/* s with backslash, tab, newline and carriage return escaped. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\': fputs("\\\\", f); break;
		case '\t': fputs("\\t", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		default: fputc(*s, f);
		}
	}
}

static void put_str(FILE *f, const char *key, const char *value)
{
	fprintf(f, "%s\t", key);
	put_escaped(f, value ? value : "");
	fputc('\n', f);
}

static void put_fields(FILE *f, const struct field *t, int n, const void *base)
{
	const char *p = base;

	for (int i = 0; i < n; i++) {
		if (t[i].type == F_STR)
			put_str(f, t[i].key, p + t[i].off);
		else if (t[i].type == F_INT)
			fprintf(f, "%s\t%d\n", t[i].key, *(const int *)(p + t[i].off));
		else
			fprintf(f, "%s\t%.17g\n", t[i].key,
				*(const double *)(p + t[i].off));
	}
}

static void put_row(FILE *f, const struct g_row *row)
{
	const struct g_result *r = &row->res;

	fprintf(f, "row\n");
	put_fields(f, row_fields, NFIELDS(row_fields), row);
	put_str(f, "res.verdict", wb_verdict_key(r->verdict));
	for (int k = 0; k < row->spec.ntiers; k++)
		fprintf(f, "spec.tier\t%.17g %.17g %.17g\n", row->spec.tiers[k].x,
			row->spec.tiers[k].points, r->at[k]);
	for (int d = 0; d < r->ndetails; d++)
		put_str(f, "res.detail", r->details[d]);
}

void runfile_print(FILE *f, const struct g_run *run)
{
	static const char *const modes[] = { "grade", "bench", "build-only" };

	fprintf(f, "%s\n", RUNFILE_MAGIC);
	put_str(f, "run.source", run->source);
	fprintf(f, "run.seed\t%llu\n", run->seed);
	put_str(f, "run.mode", modes[run->mode]);
	if (run->course) {
		put_str(f, "run.course", run->course);
		put_str(f, "run.course_name", run->course_name);
		put_str(f, "run.course_changes", run->course_changes);
		fprintf(f, "run.calibration\t%d\n", run->calibration);
	}
	put_str(f, "run.condition", run->condition);
	put_fields(f, dev_fields, NFIELDS(dev_fields), &run->dev);
	for (int i = 0; i < run->nrows; i++)
		put_row(f, &run->rows[i]);
	fprintf(f, "end\n");
}

int runfile_write(const char *path, const struct g_run *run)
{
	return report_write_atomic(path, runfile_print, run);
}

/* ---- reading report.run ------------------------------------------------- */

/* Undo put_escaped() in place. */
static void unescape(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*w++ = *s == 't' ? '\t' : *s == 'n' ? '\n' :
			       *s == 'r' ? '\r' : *s;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* Set key's field of base from value; 1 if key is one of t's. */
static int set_field(const struct field *t, int n, void *base, const char *key,
		     const char *value)
{
	char *p = base;

	for (int i = 0; i < n; i++) {
		if (strcmp(t[i].key, key))
			continue;
		if (t[i].type == F_STR)
			snprintf(p + t[i].off, t[i].size, "%s", value);
		else if (t[i].type == F_INT)
			*(int *)(p + t[i].off) = atoi(value);
		else
			*(double *)(p + t[i].off) = strtod(value, NULL);
		return 1;
	}
	return 0;
}

static void set_mode(struct g_run *run, const char *v)
{
	run->mode = !strcmp(v, "bench") ? G_BENCH :
		    !strcmp(v, "build-only") ? G_BUILD_ONLY : G_GRADE;
}

/* A run-level key; 1 if it was one. */
static int run_key(struct runfile *rf, const char *key, const char *v)
{
	struct g_run *run = &rf->run;

	if (!strcmp(key, "run.source"))
		snprintf(rf->source, sizeof(rf->source), "%s", v);
	else if (!strcmp(key, "run.seed"))
		run->seed = strtoull(v, NULL, 10);
	else if (!strcmp(key, "run.mode"))
		set_mode(run, v);
	else if (!strcmp(key, "run.course"))
		snprintf(rf->course, sizeof(rf->course), "%s", v);
	else if (!strcmp(key, "run.course_name"))
		snprintf(rf->course_name, sizeof(rf->course_name), "%s", v);
	else if (!strcmp(key, "run.course_changes"))
		rf->course_changes = *v ? strdup(v) : NULL;
	else if (!strcmp(key, "run.calibration"))
		run->calibration = atoi(v);
	else if (!strcmp(key, "run.condition"))
		snprintf(run->condition, sizeof(run->condition), "%s", v);
	else
		return set_field(dev_fields, NFIELDS(dev_fields), &run->dev, key, v);
	return 1;
}

/* A row's key that the field table does not cover; 1 if it was one. */
static int row_key(struct g_row *row, const char *key, const char *v)
{
	struct g_result *r = &row->res;
	int verdict;

	if (!strcmp(key, "res.verdict")) {
		verdict = wb_verdict_parse(v);
		g_settle(r, verdict < 0 ? WB_V_ERROR : verdict);
	} else if (!strcmp(key, "res.detail")) {
		if (r->ndetails < G_MAX_DETAILS)
			snprintf(r->details[r->ndetails++], G_DETAIL_LEN, "%s", v);
	} else if (!strcmp(key, "spec.tier")) {
		int k = row->spec.ntiers;

		if (k >= G_MAX_TIERS || sscanf(v, "%lf %lf %lf", &row->spec.tiers[k].x,
					       &row->spec.tiers[k].points,
					       &r->at[k]) != 3)
			return 0;
		row->spec.ntiers++;
	} else {
		return set_field(row_fields, NFIELDS(row_fields), row, key, v);
	}
	return 1;
}

/* Point run's strings at rf's copies. */
static void link_strings(struct runfile *rf)
{
	rf->run.source = rf->source;
	rf->run.course = rf->course[0] ? rf->course : NULL;
	rf->run.course_name = rf->course_name[0] ? rf->course_name : NULL;
	rf->run.course_changes = rf->course_changes;
}

static int parse_data(char *text, struct runfile *rf, char *err, size_t n)
{
	struct g_row *row = NULL;
	char *save = NULL, *line;
	int lineno = 1, ended = 0;

	strtok_r(text, "\n", &save); /* the magic line */
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *tab = strchr(line, '\t'), *v = tab ? tab + 1 : line + strlen(line);

		lineno++;
		if (tab)
			*tab = '\0';
		unescape(v);
		if (!strcmp(line, "end")) {
			ended = 1;
			break;
		}
		if (!strcmp(line, "row")) {
			if (rf->run.nrows >= MAX_ROWS)
				goto bad;
			row = &rf->run.rows[rf->run.nrows++];
			continue;
		}
		if (row ? !row_key(row, line, v) : !run_key(rf, line, v))
			goto bad;
	}
	if (!ended) {
		snprintf(err, n, "report data ends early (no \"end\" line): a run "
				 "that was cut short?");
		return -1;
	}
	return 0;
bad:
	snprintf(err, n, "report data, line %d: unknown key \"%.60s\"", lineno, line);
	return -1;
}

/* ---- reading results.tsv ------------------------------------------------ */

/* results.tsv's columns this reader uses, in the header's names. */
enum col {
	C_SOURCE, C_LAB, C_EXERCISE, C_VERDICT, C_POINTS, C_MAX, C_SPEEDUP,
	C_TIME, C_NAIVE, C_PEER, C_GBPS, C_PCT_COPY, C_TIER, C_TFLOPS,
	C_PCT_PEER, C_TECHNIQUE, C_SHARE, C_SHARE_LO, C_SHARE_HI, C_IDEAL,
	C_SOL, C_TIERS_FROM, C_TIER_SPEEDUPS, C_AUDIT, C_NCOLS
};

static const char *const col_names[C_NCOLS] = {
	"source", "lab", "exercise", "verdict", "points", "max_points",
	"speedup", "time_us", "naive_us", "peer_us", "gbps", "pct_copy",
	"tier", "tflops", "pct_peer", "technique", "share", "share_lo",
	"share_hi", "ideal_us", "sol", "tiers_from", "tier_speedups", "audit",
};

/* Split line at tabs into at most max fields; the number found. */
static int split_tabs(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

/* Header names to column numbers; -1 where absent. */
static int map_header(char *line, int *at, char *err, size_t n)
{
	char *f[64];
	int k = split_tabs(line, f, 64);

	for (int c = 0; c < C_NCOLS; c++) {
		at[c] = -1;
		for (int i = 0; i < k; i++)
			if (!strcmp(f[i], col_names[c]))
				at[c] = i;
	}
	if (at[C_LAB] < 0 || at[C_EXERCISE] < 0 || at[C_VERDICT] < 0) {
		snprintf(err, n, "not a results.tsv: its header has no lab, "
				 "exercise and verdict columns");
		return -1;
	}
	return 0;
}

static void timing(struct g_timing *t, const char *us)
{
	t->median_us = t->q1_us = t->q3_us = strtod(us, NULL);
	t->have = t->median_us > 0;
}

/* The tier speedups "1.200 1.440 1.700" ("-": none) into row. */
static void tsv_tiers(struct g_row *row, const char *s)
{
	char *end;

	while (row->spec.ntiers < G_MAX_TIERS) {
		double x = strtod(s, &end);

		if (end == s)
			break;
		row->spec.tiers[row->spec.ntiers].x = x;
		row->res.at[row->spec.ntiers++] = x;
		s = end;
	}
	row->spec.tier_unit = G_TIERS_SPEEDUP;
}

/* One results.tsv line; its fields by column (g: NULL where absent). */
static void tsv_row(struct g_row *row, char **g)
{
	struct g_result *r = &row->res;
	int v = wb_verdict_parse(g[C_VERDICT]);

#define NUM(c) (g[c] ? strtod(g[c], NULL) : 0)
	snprintf(row->spec.lab, G_NAME_LEN, "%s", g[C_LAB]);
	snprintf(row->spec.name, G_NAME_LEN, "%s", g[C_EXERCISE]);
	g_settle(r, v < 0 ? WB_V_ERROR : v);
	r->points = NUM(C_POINTS);
	r->max_points = NUM(C_MAX);
	r->speedup = NUM(C_SPEEDUP);
	r->gbps = NUM(C_GBPS);
	r->pct_copy = NUM(C_PCT_COPY);
	r->tier = (int)NUM(C_TIER);
	r->tflops = NUM(C_TFLOPS);
	r->pct_peer = NUM(C_PCT_PEER);
	r->share = NUM(C_SHARE);
	r->r_share = (struct g_ratio){ r->share > 0, r->share, NUM(C_SHARE_LO),
				       NUM(C_SHARE_HI) };
	timing(&r->t[G_STUDENT], g[C_TIME] ? g[C_TIME] : "0");
	timing(&r->t[G_NAIVE], g[C_NAIVE] ? g[C_NAIVE] : "0");
	timing(&r->t[G_PEER], g[C_PEER] ? g[C_PEER] : "0");
	timing(&r->t[G_IDEAL], g[C_IDEAL] ? g[C_IDEAL] : "0");
	/* The bytes and FLOPs are the rates times the time. */
	r->bytes = r->gbps * r->t[G_STUDENT].median_us * 1e3;
	r->flops = r->tflops * r->t[G_STUDENT].median_us * 1e6;
	row->spec.speed = r->t[G_NAIVE].have;
	if (g[C_SOL] && strcmp(g[C_SOL], "-"))
		snprintf(r->sol, sizeof(r->sol), "%s", g[C_SOL]);
	snprintf(row->spec.tiers_from, sizeof(row->spec.tiers_from), "%s",
		 g[C_TIERS_FROM] ? g[C_TIERS_FROM] : "lab");
	snprintf(r->audit, sizeof(r->audit), "%s",
		 g[C_AUDIT] && strcmp(g[C_AUDIT], "-") ? g[C_AUDIT] : "");
	r->technique = !g[C_TECHNIQUE] ? G_TECH_NONE :
		       !strcmp(g[C_TECHNIQUE], "ok") ? G_TECH_OK :
		       !strcmp(g[C_TECHNIQUE], "failed") ? G_TECH_FAILED :
		       !strcmp(g[C_TECHNIQUE], "unchecked") ? G_TECH_UNCHECKED :
		       G_TECH_NONE;
	if (g[C_TIER_SPEEDUPS])
		tsv_tiers(row, g[C_TIER_SPEEDUPS]);
#undef NUM
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The copy bandwidth the rows were measured against: GB/s over %copy,
 * their median (each row's is the same number, rounded). */
static double tsv_copy_gbps(const struct g_run *run)
{
	double v[MAX_ROWS];
	int n = 0;

	for (int i = 0; i < run->nrows; i++) {
		const struct g_result *r = &run->rows[i].res;

		if (r->gbps > 0 && r->pct_copy > 0)
			v[n++] = 100 * r->gbps / r->pct_copy;
	}
	if (!n)
		return 0;
	qsort(v, n, sizeof(v[0]), cmp_double);
	return v[n / 2];
}

/* Keep a comment line (the recording's own note) for the page. */
static void add_note(struct runfile *rf, const char *line)
{
	size_t len = strlen(rf->notes);

	snprintf(rf->notes + len, sizeof(rf->notes) - len, "%s%s",
		 len ? "\n" : "", line);
}

static int parse_tsv(char *text, const char *source, struct runfile *rf,
		     char *err, size_t n)
{
	char *save = NULL, *line, *f[64], *g[C_NCOLS];
	int at[C_NCOLS], have_header = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int k;

		if (line[0] == '#') {
			add_note(rf, line);
			continue;
		}
		if (!have_header) {
			if (map_header(line, at, err, n))
				return -1;
			have_header = 1;
			continue;
		}
		k = split_tabs(line, f, 64);
		for (int c = 0; c < C_NCOLS; c++)
			g[c] = at[c] >= 0 && at[c] < k ? f[at[c]] : NULL;
		if (!g[C_LAB] || !g[C_EXERCISE] || !g[C_VERDICT])
			continue;
		if (g[C_SOURCE] && !rf->source[0])
			snprintf(rf->source, sizeof(rf->source), "%s",
				 source ? source : g[C_SOURCE]);
		if (g[C_SOURCE] && strcmp(g[C_SOURCE], rf->source))
			continue;
		if (rf->run.nrows >= MAX_ROWS)
			break;
		tsv_row(&rf->run.rows[rf->run.nrows++], g);
	}
	if (!rf->run.nrows) {
		snprintf(err, n, "no rows%s%s", source ? " of source " : "",
			 source ? source : "");
		return -1;
	}
	rf->run.dev.copy_gbps = tsv_copy_gbps(&rf->run);
	return 0;
}

/* A calibration's all.tsv has no header line: its columns are source and
 * then results.tsv's. Give it results.tsv's header, with source first. */
static char *tsv_header_for_all(const char *text)
{
	static const char head[] =
		"source\tlab\texercise\tverdict\tpoints\tmax_points\tspeedup\t"
		"time_us\tnaive_us\tpeer_us\tgbps\tpct_copy\ttier\ttflops\t"
		"pct_peer\tsettings\ttechnique\tshare\tshare_lo\tshare_hi\t"
		"ideal_us\tsol\ttiers_from\ttier_speedups\taudit\n";
	const char *body = text;
	char *out;

	/* Comments stay first; the header goes before the first row. */
	while (*body == '#') {
		const char *nl = strchr(body, '\n');

		body = nl ? nl + 1 : body + strlen(body);
	}
	out = malloc(strlen(text) + sizeof(head));
	if (!out)
		return NULL;
	memcpy(out, text, body - text);
	strcpy(out + (body - text), head);
	strcat(out, body);
	return out;
}

/* Is the first line that is not a comment a header (it names "lab")? */
static int has_header(const char *text)
{
	while (*text == '#') {
		const char *nl = strchr(text, '\n');

		if (!nl)
			return 0;
		text = nl + 1;
	}
	return !strncmp(text, "lab\t", 4) || !strncmp(text, "source\t", 7);
}

int runfile_parse(char *text, const char *source, struct runfile *rf,
		  char *err, size_t n)
{
	int ret;

	memset(rf, 0, sizeof(*rf));
	rf->run.rows = calloc(MAX_ROWS, sizeof(struct g_row));
	if (!rf->run.rows) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (!strncmp(text, RUNFILE_MAGIC "\n", strlen(RUNFILE_MAGIC) + 1)) {
		snprintf(rf->from, sizeof(rf->from), "report data");
		ret = parse_data(text, rf, err, n);
	} else if (has_header(text)) {
		snprintf(rf->from, sizeof(rf->from), "results.tsv");
		ret = parse_tsv(text, source, rf, err, n);
	} else {
		char *full = tsv_header_for_all(text);

		snprintf(rf->from, sizeof(rf->from), "a calibration's all.tsv");
		ret = full ? parse_tsv(full, source, rf, err, n) : -1;
		free(full);
	}
	link_strings(rf);
	return ret;
}

int runfile_read(const char *path, const char *source, struct runfile *rf,
		 char *err, size_t n)
{
	char *text = read_file(path, 64 << 20);
	int ret;

	if (!text) {
		memset(rf, 0, sizeof(*rf));
		snprintf(err, n, "cannot read %s", path);
		return -1;
	}
	ret = runfile_parse(text, source, rf, err, n);
	free(text);
	return ret;
}

void runfile_free(struct runfile *rf)
{
	free(rf->run.rows);
	free(rf->course_changes);
	memset(rf, 0, sizeof(*rf));
}

/* Write fn's output to path.tmp, then rename it over path: a reader
 * never sees half a file. */
int report_write_atomic(const char *path,
			void (*fn)(FILE *, const struct g_run *),
			const struct g_run *run)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return -1;
	fn(f, run);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		remove(tmp);
		return -1;
	}
	return 0;
}
