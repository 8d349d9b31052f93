/* SPDX-License-Identifier: MIT */
/*
 * ncu_csv.c - what one profiled run left, read into a struct prof_run
 * (ncu_csv.h): Nsight Compute's CSV log (the kernels and their metrics, or
 * why there are none) and the runner's record of the profiled call.
 *
 * It only reads text: it runs nothing (ncu.c), combines no kernels and
 * judges no number (profile_derive.c), and prints nothing
 * (profile_render.c). The unit tests feed it recorded output
 * (tests/profile/).
 *
 * The format read is what `ncu --csv --page raw --print-units base
 * --metrics LIST` prints: ncu's "==WARNING==" and "==PROF==" lines, then a
 * header row whose first field is "ID" (the launch columns, then one column
 * per metric), a units row whose first field is empty, and one row per
 * profiled kernel. Every field is quoted; kernel names hold commas and
 * numbers hold thousands separators ("1,048,576", "64,806.40"); a metric
 * that does not apply reads "n/a". Anything else in the text (the
 * program's own output) is skipped.
 *
 * The page has far more columns than were asked for (ncu 2025.3 on an
 * H100: 392): every device__attribute_*, launch__*, nvlink__* and
 * profiler__* figure, and for each metric asked by its full name
 * ("dram__bytes_read.sum") the .avg, .max and .min of the same counter
 * too. So no column count is assumed, and a column is taken only when its
 * name is exactly one of the metric table's.
 */
#include "ncu_csv.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

/* ---- reading ncu's output ---- */

/* Column roles other than a metric (metric_index() gives -1 for a column
 * that is none of the table's: COL_NONE). */
enum { COL_NONE = -1, COL_KERNEL = -2, COL_BLOCK = -3, COL_GRID = -4 };

struct csv_state {
	int have_header;
	int ncols;
	int *role;     /* per column: metric index or COL_*; ncols of them */
	double *scale; /* per column: from the units row */
};

/* The most fields a record of len characters can have: a comma each. */
static size_t max_fields(const char *line)
{
	size_t n = 1;

	for (; *line; line++)
		n += *line == ',';
	return n;
}

/*
 * Split one CSV record in place (RFC 4180: fields in double quotes may hold
 * commas, "" is a quote). Returns the number of fields, at most max.
 */
static int csv_split(char *line, char **field, int max)
{
	char *r = line, *w = line;
	int n = 0;

	while (n < max) {
		field[n++] = w;
		if (*r == '"') {
			for (r++; *r; r++) {
				if (*r == '"' && r[1] == '"')
					*w++ = *r++;
				else if (*r == '"')
					break;
				else
					*w++ = *r;
			}
			if (*r == '"')
				r++;
			while (*r && *r != ',')
				r++; /* junk after the closing quote */
		} else {
			while (*r && *r != ',')
				*w++ = *r++;
		}
		if (*r != ',') {
			*w = '\0';
			break;
		}
		r++;
		*w++ = '\0';
	}
	return n;
}

/* SI and binary prefixes of a unit ("Mbyte", "usecond", "Kibyte"). */
static double prefix_scale(const char *unit, const char *base)
{
	size_t ul = strlen(unit), bl = strlen(base);
	const char *p = unit;

	if (ul < bl || strcmp(unit + ul - bl, base) != 0)
		return NAN;
	if (ul - bl == 2 && p[1] == 'i')
		return p[0] == 'K' ? 1024.0 : p[0] == 'M' ? 1048576.0 :
		       p[0] == 'G' ? 1073741824.0 : NAN;
	if (ul == bl)
		return 1;
	if (ul - bl != 1)
		return NAN;
	switch (p[0]) {
	case 'n': return 1e-9;
	case 'u': return 1e-6;
	case 'm': return 1e-3;
	case 'K': return 1e3;
	case 'M': return 1e6;
	case 'G': return 1e9;
	case 'T': return 1e12;
	default: return NAN;
	}
}

/* The factor that brings a value in unit to the metric's canonical unit
 * (nanoseconds, bytes); 1 when there is nothing to scale. */
static double unit_factor(int m, const char *unit)
{
	double f;

	if (m < 0 || !*unit)
		return 1;
	/* ncu 2025.3's base units are "ns" and "byte"; others have printed
	 * "nsecond", "usecond", "Mbyte". */
	if (metric_unit(m) == UNIT_TIME) {
		f = prefix_scale(unit, "second");
		if (isnan(f))
			f = prefix_scale(unit, "s");
		return isnan(f) ? 1 : f * 1e9;
	}
	if (metric_unit(m) == UNIT_BYTES) {
		f = prefix_scale(unit, "byte");
		if (isnan(f))
			f = prefix_scale(unit, "B");
		return isnan(f) ? 1 : f;
	}
	return 1;
}

/* A number as ncu prints it: "1,048,576", "12.5", "n/a" (NAN). */
static double parse_number(const char *s)
{
	char buf[64], *end;
	size_t n = 0;
	double x = 0;

	for (; *s && n < sizeof(buf) - 1; s++)
		if (*s != ',' && !isspace((unsigned char)*s))
			buf[n++] = *s;
	buf[n] = '\0';
	if (!n)
		return NAN;
	x = strtod(buf, &end);
	return *end ? NAN : x;
}

/* "(256, 1, 1)" -> 256. Dimensions are separated by ", "; a comma right
 * before a digit is a thousands separator ("(262,144, 1, 1)"). */
static long parse_dim3(const char *s)
{
	long p = 1, x = 0;
	int k = 0, in = 0;

	for (;; s++) {
		if (isdigit((unsigned char)*s)) {
			x = 10 * x + (*s - '0');
			in = 1;
		} else if (*s == ',' && in && isdigit((unsigned char)s[1])) {
			continue;
		} else if (in) {
			p *= x;
			x = 0;
			in = 0;
			k++;
		}
		if (!*s)
			break;
	}
	return k ? p : 0;
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* 0, or -1 when out of memory (the header is then not taken). */
static int header_row(struct csv_state *st, char **f, int n)
{
	int kernel = 0, *role;
	double *scale;

	for (int i = 0; i < n; i++)
		kernel |= strcmp(f[i], "Kernel Name") == 0;
	if (!kernel)
		return 0;
	role = realloc(st->role, n * sizeof(*role));
	if (role)
		st->role = role;
	scale = realloc(st->scale, n * sizeof(*scale));
	if (scale)
		st->scale = scale;
	if (!role || !scale)
		return -1;
	st->have_header = 1;
	st->ncols = n;
	for (int i = 0; i < n; i++) {
		st->scale[i] = 1;
		st->role[i] = !strcmp(f[i], "Kernel Name") ? COL_KERNEL :
			      !strcmp(f[i], "Block Size")  ? COL_BLOCK :
			      !strcmp(f[i], "Grid Size")   ? COL_GRID :
							     metric_index(f[i]);
	}
	return 0;
}

static void units_row(struct csv_state *st, char **f, int n)
{
	for (int i = 0; i < n && i < st->ncols; i++)
		st->scale[i] = unit_factor(st->role[i], f[i]);
}

static void kernel_row(struct csv_state *st, char **f, int n,
		       struct prof_run *r)
{
	struct prof_kernel *k;

	if (r->nk == PROF_MAX_KERNELS) {
		r->dropped_kernels++;
		return;
	}
	k = &r->k[r->nk++];
	memset(k, 0, sizeof(*k));
	for (int m = 0; m < PROF_NMETRICS; m++)
		k->m[m] = NAN;
	for (int i = 0; i < n && i < st->ncols; i++) {
		int role = st->role[i];

		if (role == COL_KERNEL) {
			/* The function's name: no parameter list. */
			size_t len = strcspn(f[i], "(");

			snprintf(k->name, sizeof(k->name), "%.*s",
				 (int)(len ? len : strlen(f[i])), f[i]);
		} else if (role == COL_BLOCK) {
			k->block = parse_dim3(f[i]);
		} else if (role == COL_GRID) {
			k->grid = parse_dim3(f[i]);
		} else if (role >= 0) {
			k->m[role] = parse_number(f[i]) * st->scale[i];
		}
	}
}

/*
 * "==ERROR== Failed to find metric regex:^name\.(sum|...)$" (or the plain
 * name): keep "name", up to the escaped dot or the end of the name.
 */
static void unknown_metric(const char *line, struct prof_run *r)
{
	const char *p = strstr(line, "regex:");
	size_t n;

	p = p ? p + 6 : strstr(line, "metric") + 6;
	while (*p == '^' || *p == ' ' || *p == '\'' || *p == '"')
		p++;
	n = strspn(p, "abcdefghijklmnopqrstuvwxyz"
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
	while (n && p[n - 1] == '.')
		n--;
	if (n && r->nunknown < PROF_MAX_UNKNOWN)
		snprintf(r->unknown[r->nunknown++], PROF_NAME_LEN, "%.*s",
			 (int)(n < PROF_NAME_LEN ? n : PROF_NAME_LEN - 1), p);
}

/* One of ncu's own lines: "==ERROR== ...", "==WARNING== ...". */
static void tool_line(const char *line, struct prof_run *r, int *errors)
{
	const char *msg = strstr(line, "==") + 2;

	msg = strstr(msg, "==") ? strstr(msg, "==") + 2 : msg;
	while (*msg == ' ')
		msg++;
	if (strstr(line, "ERR_NVGPUCTRPERM")) {
		r->status = PROF_NO_PERMISSION;
		snprintf(r->why, sizeof(r->why), "ncu may not read this GPU's "
			 "performance counters (ERR_NVGPUCTRPERM): an "
			 "administrator can allow it (docs/nsight-compute.md)");
	} else if (strncmp(line, "==ERROR==", 9) == 0 &&
		   strstr(line, "Failed to find metric")) {
		unknown_metric(line, r);
	} else if (strncmp(line, "==ERROR==", 9) == 0 && !(*errors)++) {
		snprintf(r->why, sizeof(r->why), "ncu: %.*s", G_DETAIL_LEN - 8,
			 msg);
	}
}

enum prof_status ncsv_parse(const char *text, struct prof_run *r)
{
	struct csv_state st = { 0 };
	const char *p = text ? text : "";
	int errors = 0, units_next = 0;

	memset(r, 0, sizeof(*r));
	r->status = PROF_OK;
	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *line = malloc(len + 1), **f = NULL;
		size_t nf = 0;
		int n;

		if (!line)
			break;
		memcpy(line, p, len);
		line[len] = '\0';
		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		p = end ? end + 1 : p + len;
		if (strncmp(line, "==", 2) == 0 && strstr(line + 2, "==")) {
			tool_line(line, r, &errors);
		} else if (line[0] == '"' && (nf = max_fields(line)) &&
			   (f = malloc(nf * sizeof(*f)))) {
			n = csv_split(line, f, (int)nf);
			if (!strcmp(f[0], "ID")) {
				if (header_row(&st, f, n) && !errors++)
					snprintf(r->why, sizeof(r->why), "out of "
						 "memory reading ncu's output");
				units_next = st.have_header;
			} else if (st.have_header && units_next && !*f[0]) {
				units_row(&st, f, n);
				units_next = 0;
			} else if (st.have_header && all_digits(f[0])) {
				kernel_row(&st, f, n, r);
				units_next = 0;
			}
		}
		free(f);
		free(line);
	}
	free(st.role);
	free(st.scale);
	if (r->status == PROF_NO_PERMISSION)
		return r->status;
	if (r->nunknown) {
		r->status = PROF_BAD_METRICS;
		snprintf(r->why, sizeof(r->why), "ncu does not know the metric "
			 "%s", r->unknown[0]);
	} else if (!r->nk) {
		r->status = errors ? PROF_ERROR : PROF_NO_KERNELS;
		if (!errors)
			snprintf(r->why, sizeof(r->why), "no kernel was profiled: "
				 "the code launched none between "
				 "cudaProfilerStart() and cudaProfilerStop()");
	}
	return r->status;
}

/* ---- the runner's record ---- */

/* What the runner's record says about the profiled call. */
enum record { REC_RAN, REC_FAILED, REC_CUT };

static enum record parse_record(const char *text, struct prof_run *r,
				char *why, size_t n)
{
	const char *p = text ? text : "";
	char verdict[32] = "", detail[G_DETAIL_LEN] = "";
	int complete = 0;

	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char line[G_DETAIL_LEN];

		snprintf(line, sizeof(line), "%.*s",
			 (int)(len < sizeof(line) ? len : sizeof(line) - 1), p);
		p = end ? end + 1 : p + len;
		if (!strcmp(line, "end"))
			complete = 1;
		else if (!strncmp(line, "verdict ", 8))
			snprintf(verdict, sizeof(verdict), "%.*s",
				 (int)sizeof(verdict) - 1, line + 8);
		else if (!strncmp(line, "detail ", 7) && !*detail)
			snprintf(detail, sizeof(detail), "%.*s",
				 (int)sizeof(detail) - 1, line + 7);
		else if (!strncmp(line, "shape ", 6))
			snprintf(r->shape, sizeof(r->shape), "%.*s",
				 (int)sizeof(r->shape) - 1, line + 6);
		else if (!strncmp(line, "profile ", 8))
			r->groups = (unsigned)strtoul(line + 8, NULL, 0);
		else if (!strncmp(line, "bytes ", 6))
			r->min_bytes = atof(line + 6);
		else if (!strncmp(line, "flops ", 6))
			r->flops = atof(line + 6);
	}
	if (complete && !strcmp(verdict, "PASS"))
		return REC_RAN;
	if (!complete) {
		snprintf(why, n, "the run ended before the profiled call "
			 "(grade it with make grade to see why)");
		return REC_CUT;
	}
	if (!strcmp(verdict, "NOT_IMPLEMENTED"))
		snprintf(why, n, "not implemented yet: nothing to profile");
	else
		snprintf(why, n, "the run stopped (%s)%s%.200s", verdict,
			 *detail ? ": " : "", detail);
	return REC_FAILED;
}

enum prof_status ncsv_read(const char *ncu_text, const char *record_text,
			   struct prof_run *r)
{
	char why[G_DETAIL_LEN];
	enum prof_status st = ncsv_parse(ncu_text, r);
	enum record rec = parse_record(record_text, r, why, sizeof(why));

	/* Refused counters and unknown metrics are ncu's verdict on every
	 * run; a run that stopped by itself explains a missing profile;
	 * ncu's own error explains more than a run it cut short. */
	if (st == PROF_NO_PERMISSION || (st == PROF_BAD_METRICS && rec != REC_FAILED))
		return st;
	if (rec == REC_FAILED || (rec == REC_CUT && st != PROF_ERROR)) {
		r->status = PROF_RUN_FAILED;
		snprintf(r->why, sizeof(r->why), "%s", why);
	}
	return r->status;
}
