/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c - from measured speedups to proposed tiers (calibrate.h).
 *
 * For an exercise with k tiers, measured solution speedups s_min..s_max
 * and naive-vs-naive speedups up to n_max:
 *
 *   top   = s_min * (1 - CALIB_TOP_MARGIN), rounded down to 0.01
 *   floor = n_max * (1 + CALIB_NAIVE_MARGIN)      (n_max = 1 unmeasured)
 *   tier i (1..k) = top^(i/k): spaced geometrically between the naive's
 *           1.0x and the top, so each tier asks for the same factor more;
 *           when top^(1/k) is under floor, the first tier is floor and the
 *           others are spaced geometrically from it to the top.
 *
 * The points of each tier stay the lab's: a course on another GPU keeps
 * the lab's weights and only moves the thresholds. No proposal is made
 * when a solution run did not pass, or when the slowest solution run is
 * so close to the naive that no tier fits between them with margins.
 */
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

#define CALIB_MAX_EX 256
#define FIELDS 8

static double floor2(double x)
{
	return floor(x * 100 + 1e-9) / 100;
}

static double ceil2(double x)
{
	return ceil(x * 100 - 1e-9) / 100;
}

static double round2(double x)
{
	return round(x * 100) / 100;
}

/* Split a line at tabs in place; the number of fields (at most max). */
static int split_tabs(char *l, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = l;
		l = strchr(l, '\t');
		if (!l)
			break;
		*l++ = '\0';
	}
	return n;
}

static struct calib_ex *entry(struct calib_ex *ms, int *n, int max,
			      const char *lab, const char *name)
{
	struct calib_ex *m = (struct calib_ex *)calib_find(ms, *n, lab, name);

	if (m || *n == max)
		return m;
	m = &ms[(*n)++];
	memset(m, 0, sizeof(*m));
	snprintf(m->lab, sizeof(m->lab), "%s", lab);
	snprintf(m->name, sizeof(m->name), "%s", name);
	return m;
}

static void add_run(int *runs, double *lo, double *hi, double x)
{
	if (!*runs || x < *lo)
		*lo = x;
	if (!*runs || x > *hi)
		*hi = x;
	(*runs)++;
}

/* One all.tsv row: source lab exercise verdict points max speedup ... */
static int add_row(char **f, struct calib_ex *ms, int *n, int max)
{
	struct calib_ex *m = entry(ms, n, max, f[1], f[2]);
	int pass = !strcmp(f[3], "PASS");
	char *end;
	double sp = strtod(f[6], &end);

	if (*end || !m)
		return -1;
	if (!strcmp(f[0], "solutions")) {
		if (pass && sp > 0)
			add_run(&m->sol_runs, &m->sol_min, &m->sol_max, sp);
		else
			m->sol_runs++, m->sol_failed++;
	} else if (!strcmp(f[0], "naive")) {
		if (pass && sp > 0)
			add_run(&m->naive_runs, &m->naive_min, &m->naive_max, sp);
	} else if (!strncmp(f[0], "ladder/", 7) && m->nsteps < CALIB_MAX_STEPS) {
		snprintf(m->step[m->nsteps], G_NAME_LEN, "%s", f[0] + 7);
		m->step_speedup[m->nsteps++] = pass ? sp : 0;
	}
	return 0;
}

int calib_parse(const char *text, struct calib_ex *out, int max)
{
	char *copy = strdup(text), *l, *next, *f[FIELDS];
	int n = 0, bad = 0;

	if (!copy)
		return -1;
	for (l = copy; l && !bad; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		if (!*l || *l == '#')
			continue;
		bad = split_tabs(l, f, FIELDS) < 7 || add_row(f, out, &n, max);
	}
	free(copy);
	return bad ? -1 : n;
}

const struct calib_ex *calib_find(const struct calib_ex *ms, int n,
				  const char *lab, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(ms[i].lab, lab) && !strcmp(ms[i].name, name))
			return &ms[i];
	return NULL;
}

/* Has m what a proposal needs? 0, or -1 with why. */
static int measured(const struct calib_ex *m, char *why, size_t n)
{
	if (!m || !m->sol_runs) {
		snprintf(why, n, "no solution run was measured");
		return -1;
	}
	if (m->sol_failed) {
		snprintf(why, n, "the solution did not pass in %d of %d runs",
			 m->sol_failed, m->sol_runs);
		return -1;
	}
	return 0;
}

int calib_propose(const struct g_spec *s, const struct calib_ex *m,
		  struct g_spec *out, char *why, size_t n)
{
	double top, low, first, t[G_MAX_TIERS];
	int k = s->ntiers;

	if (!s->speed || k < 1) {
		snprintf(why, n, "correctness only: it has no tiers");
		return -1;
	}
	if (measured(m, why, n))
		return -1;
	top = floor2(m->sol_min * (1 - CALIB_TOP_MARGIN));
	low = (m->naive_runs ? m->naive_max : 1.0) * (1 + CALIB_NAIVE_MARGIN);
	if (top <= low) {
		snprintf(why, n, "the slowest solution run is only %.2fx the naive: "
				 "no tier fits between %.2fx and %.2fx", m->sol_min,
			 low, top);
		return -1;
	}
	first = pow(top, 1.0 / k);
	if (first < low)
		first = low;
	for (int i = 0; i < k; i++)
		t[i] = k == 1 ? top : first * pow(top / first, (double)i / (k - 1));
	t[0] = k == 1 ? top : ceil2(t[0]);
	for (int i = 1; i < k - 1; i++)
		t[i] = round2(t[i]);
	t[k - 1] = top;
	*out = *s;
	for (int i = 0; i < k; i++) {
		if (i && t[i] <= t[i - 1]) {
			snprintf(why, n, "%d tiers do not fit between %.2fx and %.2fx "
					 "in steps of 0.01", k, t[0], top);
			return -1;
		}
		out->tiers[i].speedup = t[i];
	}
	return g_spec_validate(out, why, n);
}

/* The comment lines above a proposal: what it rests on. */
static void write_evidence(FILE *f, const struct g_spec *s,
			   const struct g_spec *proposed,
			   const struct calib_ex *m)
{
	char tiers[256];

	fprintf(f, "\n# %s/%s: solution %.2fx-%.2fx over %d runs", s->lab,
		s->name, m->sol_min, m->sol_max, m->sol_runs);
	if (m->naive_runs)
		fprintf(f, "; naive against itself %.2fx-%.2fx over %d runs",
			m->naive_min, m->naive_max, m->naive_runs);
	else
		fprintf(f, "; naive not timed against itself (taken as 1.00x)");
	g_format_tiers(tiers, sizeof(tiers), s);
	fprintf(f, "\n#   the lab's tiers: %s\n", tiers);
	if (m->sol_min > 0 && (m->sol_max - m->sol_min) / m->sol_min > CALIB_MAX_SPREAD)
		fprintf(f, "#   warning: the solution's runs spread %.0f%%: "
			   "calibrate again on an idle GPU\n",
			100 * (m->sol_max - m->sol_min) / m->sol_min);
	for (int i = 0; i < m->nsteps && proposed; i++) {
		int tier = 0;
		double next;

		if (m->step_speedup[i] > 0)
			g_speed_points(proposed, m->step_speedup[i], &tier, &next);
		if (m->step_speedup[i] > 0)
			fprintf(f, "#   ladder %s: %.2fx, tier %d of %d\n", m->step[i],
				m->step_speedup[i], tier, proposed->ntiers);
		else
			fprintf(f, "#   ladder %s: did not pass\n", m->step[i]);
	}
}

int calib_write(FILE *f, const char *from, const struct g_row *rows,
		int nrows, const struct calib_ex *ms, int n)
{
	int missing = 0;

	fprintf(f, "# Tiers proposed by make calibrate from %s.\n"
		   "# Each top tier sits %.0f%% under the slowest solution run, "
		   "each first tier\n# %.0f%% above the naive timed against "
		   "itself, and the tiers between are\n# spaced geometrically. "
		   "Points and time limits stay the labs' own.\n"
		   "# Use it as it is: make grade COURSE=<this file>\n",
		from, 100 * CALIB_TOP_MARGIN, 100 * CALIB_NAIVE_MARGIN);
	for (int i = 0; i < nrows; i++) {
		const struct g_spec *s = &rows[i].spec;
		const struct calib_ex *m = calib_find(ms, n, s->lab, s->name);
		struct g_spec p;
		char why[256], tiers[256];

		if (s->timeout_s <= 0) {
			/* From a lab.mk alone: the lab's own code did not build. */
			fprintf(f, "\n# %s/%s: no proposal: the lab's table could not "
				   "be read (does the lab build?)\n", s->lab, s->name);
			missing++;
			continue;
		}
		if (!s->speed)
			continue;
		if (calib_propose(s, m, &p, why, sizeof(why))) {
			fprintf(f, "\n# %s/%s: no proposal, the lab's tiers stay: %s\n",
				s->lab, s->name, why);
			missing++;
			continue;
		}
		write_evidence(f, s, &p, m);
		g_format_tiers(tiers, sizeof(tiers), &p);
		fprintf(f, "%s/%s.tiers = %s\n", s->lab, s->name, tiers);
	}
	return missing;
}

int calib_run(const char *tsv_path, const struct g_row *rows, int nrows,
	      FILE *f)
{
	static struct calib_ex ms[CALIB_MAX_EX];
	char *text = read_file(tsv_path, 16 << 20);
	int n;

	if (!text) {
		fprintf(stderr, "grader: cannot read %s\n", tsv_path);
		return 2;
	}
	n = calib_parse(text, ms, CALIB_MAX_EX);
	free(text);
	if (n < 0) {
		fprintf(stderr, "grader: %s is not a calibration table "
				"(source lab exercise verdict points max speedup ...)\n",
			tsv_path);
		return 2;
	}
	return calib_write(f, tsv_path, rows, nrows, ms, n) ? 1 : 0;
}
