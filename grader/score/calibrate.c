/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c - from measured speedups to proposed tiers (calibrate.h).
 *
 * For an exercise with k tiers, measured solution shares of the speed of
 * light q_min..q_max, R = naive / ideal (so the naive's own share is 1/R)
 * and naive-vs-naive speedups up to n_max:
 *
 *   top   = q_min * (1 - CALIB_TOP_MARGIN), rounded down to 0.01
 *   floor = n_max * (1 + CALIB_NAIVE_MARGIN) / R   (n_max = 1 unmeasured)
 *   tier i (1..k) = (1/R) * (top R)^(i/k): spaced geometrically between
 *           the naive's share and the top, so each tier asks for the same
 *           factor more; when the first is under floor, the first tier is
 *           floor and the others are spaced geometrically from it.
 *
 * Where the lab's own shares already hold (top <= that top, first >=
 * that floor), they are proposed as they are: the lab placed its middle
 * tiers between its ladder steps, and the shares mean the same on this
 * GPU. The points of each tier stay the lab's. No proposal is made when a
 * solution run did not pass or measured no share (a recording made before
 * the grader measured the speed of light), or when the slowest solution
 * run is so close to the naive that no tier fits between them.
 */
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "score.h"

#define CALIB_MAX_EX 256
/* all.tsv: the source, then results.tsv's columns; share is its 17th. */
#define FIELDS 24
#define F_SPEEDUP 6
#define F_SHARE 17
#define F_SOL 21     /* what the share was of: dram, peer, instr, roof */

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

/* One all.tsv row of nf fields: source lab exercise verdict points max
 * speedup ... share ... */
static int add_row(char **f, int nf, struct calib_ex *ms, int *n, int max)
{
	struct calib_ex *m = entry(ms, n, max, f[1], f[2]);
	int pass = !strcmp(f[3], "PASS");
	char *end;
	double sp = strtod(f[F_SPEEDUP], &end), q = 0;

	if (*end || !m)
		return -1;
	if (nf > F_SHARE) {
		q = strtod(f[F_SHARE], &end);
		if (*end)
			return -1;
	}
	if (!strcmp(f[0], "solutions")) {
		if (pass && sp > 0)
			add_run(&m->sol_runs, &m->sol_min, &m->sol_max, sp);
		else
			m->sol_runs++, m->sol_failed++;
		if (pass && sp > 0 && q > 0) {
			add_run(&m->share_runs, &m->share_min, &m->share_max, q);
			if (sp / q > m->naive_ideal)
				m->naive_ideal = sp / q;
		}
	} else if (!strcmp(f[0], "naive")) {
		if (pass && sp > 0)
			add_run(&m->naive_runs, &m->naive_min, &m->naive_max, sp);
	} else if (!strncmp(f[0], "ladder/", 7) && m->nsteps < CALIB_MAX_STEPS) {
		snprintf(m->step[m->nsteps], G_NAME_LEN, "%s", f[0] + 7);
		m->step_speedup[m->nsteps] = pass ? sp : 0;
		m->step_share[m->nsteps++] = pass ? q : 0;
	}
	return 0;
}

int calib_parse(const char *text, struct calib_ex *out, int max)
{
	char *copy = strdup(text), *l, *next, *f[FIELDS];
	int n = 0, bad = 0, nf;

	if (!copy)
		return -1;
	for (l = copy; l && !bad; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		if (!*l || *l == '#')
			continue;
		nf = split_tabs(l, f, FIELDS);
		bad = nf < 7 || add_row(f, nf, out, &n, max);
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
	if (m->share_runs < m->sol_runs || !(m->naive_ideal > 0)) {
		snprintf(why, n, "the recording has no share of the speed of "
				 "light (made before the grader measured it)");
		return -1;
	}
	return 0;
}

int calib_propose(const struct g_spec *s, const struct calib_ex *m,
		  struct g_spec *out, char *why, size_t n)
{
	double top, low, base, first, t[G_MAX_TIERS];
	int k = s->ntiers;

	if (!s->speed || k < 1) {
		snprintf(why, n, "correctness only: it has no tiers");
		return -1;
	}
	if (measured(m, why, n))
		return -1;
	top = floor2(m->share_min * (1 - CALIB_TOP_MARGIN));
	base = 1 / m->naive_ideal; /* the naive's own share */
	low = (m->naive_runs ? m->naive_max : 1.0) * (1 + CALIB_NAIVE_MARGIN) *
	      base;
	if (top <= low) {
		snprintf(why, n, "the slowest solution run reaches only %.0f%% of "
				 "the speed of light: no tier fits between %.0f%% "
				 "and %.0f%%", 100 * m->share_min, 100 * low,
			 100 * top);
		return -1;
	}
	/* Where the lab's own tiers hold (the solution clears their top by
	 * the margin, the naive stays under their first), they stay: the
	 * lab placed them between its ladder steps. */
	if (s->tier_unit == G_TIERS_SHARE && s->tiers[k - 1].x <= top &&
	    s->tiers[0].x >= low) {
		*out = *s;
		return g_spec_validate(out, why, n);
	}
	first = base * pow(top / base, 1.0 / k);
	if (first < low)
		first = low;
	for (int i = 0; i < k; i++)
		t[i] = k == 1 ? top : first * pow(top / first, (double)i / (k - 1));
	t[0] = k == 1 ? top : ceil2(t[0]);
	for (int i = 1; i < k - 1; i++)
		t[i] = round2(t[i]);
	t[k - 1] = top;
	*out = *s;
	out->tier_unit = G_TIERS_SHARE;
	for (int i = 0; i < k; i++) {
		if (i && t[i] <= t[i - 1]) {
			snprintf(why, n, "%d tiers do not fit between %.0f%% and "
					 "%.0f%% in steps of 1%%", k, 100 * t[0],
				 100 * top);
			return -1;
		}
		out->tiers[i].x = t[i];
	}
	return g_spec_validate(out, why, n);
}

/* The comment lines above a proposal: what it rests on. */
static void write_evidence(FILE *f, const struct g_spec *s,
			   const struct g_spec *proposed,
			   const struct calib_ex *m)
{
	char tiers[256];

	fprintf(f, "\n# %s/%s: solution %.2fx-%.2fx, %.0f%%-%.0f%% of the speed "
		   "of light over %d runs (naive / ideal %.2f)", s->lab, s->name,
		m->sol_min, m->sol_max, 100 * m->share_min, 100 * m->share_max,
		m->sol_runs, m->naive_ideal);
	if (m->naive_runs)
		fprintf(f, "; naive against itself %.2fx-%.2fx over %d runs",
			m->naive_min, m->naive_max, m->naive_runs);
	else
		fprintf(f, "; naive not timed against itself (taken as 1.00x)");
	g_tiers_arg(tiers, sizeof(tiers), s);
	fprintf(f, "\n#   the lab's tiers: %s\n", tiers);
	if (m->sol_min > 0 && (m->sol_max - m->sol_min) / m->sol_min > CALIB_MAX_SPREAD)
		fprintf(f, "#   warning: the solution's runs spread %.0f%%: "
			   "calibrate again on an idle GPU\n",
			100 * (m->sol_max - m->sol_min) / m->sol_min);
	for (int i = 0; i < m->nsteps && proposed; i++) {
		int tier = 0;
		double next;

		if (m->step_share[i] > 0)
			g_speed_points(proposed, m->step_share[i], m->naive_ideal,
				       &tier, &next);
		if (m->step_share[i] > 0)
			fprintf(f, "#   ladder %s: %.2fx, %.0f%% of the speed of "
				   "light, tier %d of %d\n", m->step[i],
				m->step_speedup[i], 100 * m->step_share[i], tier,
				proposed->ntiers);
		else
			fprintf(f, "#   ladder %s: did not pass\n", m->step[i]);
	}
}

int calib_write(FILE *f, const char *from, const struct g_row *rows,
		int nrows, const struct calib_ex *ms, int n)
{
	int missing = 0;

	fprintf(f, "# Tiers proposed by make calibrate from %s, as shares of\n"
		   "# the speed of light. Where a lab's own tiers hold on this "
		   "GPU (the slowest\n# solution run clears their top by %.0f%%, "
		   "the naive stays %.0f%% under their\n# first) they are kept; "
		   "elsewhere the top tier sits %.0f%% under the slowest\n"
		   "# solution run, the first %.0f%% above the naive, and the "
		   "tiers between are\n# spaced geometrically. Points and time "
		   "limits stay the labs' own. make grade\n# uses it by itself "
		   "on this GPU model when it is calibrations/<model>.conf,\n"
		   "# or with COURSE=<this file> anywhere.\n",
		from, 100 * CALIB_TOP_MARGIN, 100 * CALIB_NAIVE_MARGIN,
		100 * CALIB_TOP_MARGIN, 100 * CALIB_NAIVE_MARGIN);
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
		fprintf(f, "%s/%s.shares = %s\n", s->lab, s->name, tiers);
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
				"(source, then the columns of results.tsv)\n",
			tsv_path);
		return 2;
	}
	return calib_write(f, tsv_path, rows, nrows, ms, n) ? 1 : 0;
}

/* The spec of lab/name among rows, or NULL. */
static const struct g_spec *spec_of(const struct g_row *rows, int nrows,
				    const char *lab, const char *name)
{
	for (int i = 0; i < nrows; i++)
		if (!strcmp(rows[i].spec.lab, lab) &&
		    !strcmp(rows[i].spec.name, name))
			return &rows[i].spec;
	return NULL;
}

int calib_score(const char *tsv_path, const struct g_row *rows, int nrows,
		FILE *f)
{
	char *text = read_file(tsv_path, 16 << 20), *l, *next;

	if (!text) {
		fprintf(stderr, "grader: cannot read %s\n", tsv_path);
		return 2;
	}
	for (l = text; l; l = next) {
		char *fl[FIELDS];
		const struct g_spec *s;
		double sp, q, pts;
		int nf, tier;

		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		if (!*l || *l == '#')
			continue;
		nf = split_tabs(l, fl, FIELDS);
		if (nf <= F_SHARE || strcmp(fl[3], "PASS"))
			continue;
		sp = strtod(fl[F_SPEEDUP], NULL);
		q = strtod(fl[F_SHARE], NULL);
		s = spec_of(rows, nrows, fl[1], fl[2]);
		if (!s || !s->speed || !(sp > 0) || !(q > 0))
			continue;
		/* A share of another ideal than the exercise's now (matmul's
		 * of cuBLAS before its roofline) says nothing of its tiers. */
		if (nf > F_SOL && s->ideal[0] && strcmp(fl[F_SOL], s->ideal))
			continue;
		pts = g_speed_points(s, s->tier_unit == G_TIERS_SPEEDUP ? sp : q,
				     sp / q, &tier, &(double){ 0 });
		fprintf(f, "%s\t%s/%s\t%d\t%.1f\n", fl[0], fl[1], fl[2], tier,
			pts);
	}
	free(text);
	return 0;
}
