/* SPDX-License-Identifier: MIT */
/*
 * test_calibrate.c - grader/score/calibrate.c: reading a calibration table
 * (all.tsv: the source, then results.tsv's columns) and proposing tiers as
 * shares of the speed of light. The solution clears the top tier with
 * margin on every run, the naive stays below the first, tiers rise and
 * keep the lab's points, and no proposal is made where none is sound: in
 * particular from a recording made before the grader measured shares,
 * such as the H100 table under tests/calibrate/. The proposal arithmetic
 * is checked on a synthetic table (tests/unit/data/) until a recording
 * with shares lands.
 */
#include "unit.h"

#include "calibrate.h"
#include "course.h"
#include "grade.h"
#include "report.h"
#include "score.h"

#define MAX_EX 64
#define OLD_RECORDING "tests/calibrate/h100-lab05-all.tsv"
#define SYNTHETIC "tests/unit/data/calibrate-synthetic-all.tsv"
#define NO_SHARE "the recording has no share of the speed of light (made " \
		 "before the grader measured it)"

static struct calib_ex ms[MAX_EX];

/* A lab's spec: its tiers are shares, rising to 78%, worth 60 in all. */
static struct g_spec spec(const char *lab, const char *name, int ntiers)
{
	struct g_spec s;

	memset(&s, 0, sizeof(s));
	snprintf(s.lab, sizeof(s.lab), "%s", lab);
	snprintf(s.name, sizeof(s.name), "%s", name);
	s.speed = ntiers > 0;
	s.points_correct = 40;
	s.points_speed = ntiers > 0 ? 60 : 0;
	s.timeout_s = 60;
	for (int i = 0; i < ntiers; i++)
		s.tiers[i] = (struct g_tier){ 0.78 * (i + 1) / ntiers,
					      60.0 * (i + 1) / ntiers };
	s.ntiers = ntiers;
	s.tier_unit = G_TIERS_SHARE;
	snprintf(s.tiers_from, sizeof(s.tiers_from), "lab");
	return s;
}

/*
 * A row of all.tsv: source lab exercise verdict points max speedup
 * time_us naive_us peer_us gbps pct_copy tier tflops pct_peer settings
 * technique share share_lo share_hi ideal_us sol tiers_from tier_speedups
 * audit. share < 0: a row of the old 17 fields, before shares.
 */
static void row(char *buf, size_t n, const char *src, const char *ex,
		const char *verdict, double speedup, double share)
{
	size_t len = strlen(buf);

	len += snprintf(buf + len, n - len, "%s\t05-reduction\t%s\t%s\t0\t100\t"
			"%.4f\t1.0\t2.0\t0\t0\t0\t0\t0\t0\tlab\tok", src, ex,
			verdict, speedup);
	if (share >= 0)
		len += snprintf(buf + len, n - len, "\t%.4f\t%.4f\t%.4f\t1.0\t"
				"dram\tlab\t0.000 0.000 0.000\t-", share,
				share, share);
	snprintf(buf + len, n - len, "\n");
}

static const struct calib_ex *parse_one(const char *text, const char *ex)
{
	int n = calib_parse(text, ms, MAX_EX);

	assert_true(n > 0);
	return calib_find(ms, n, "05-reduction", ex);
}

static void parses_sources(void **state)
{
	char t[8192] = "# a comment\n\n";
	const struct calib_ex *m;

	(void)state;
	/* R = speedup / share = 10 and 10.5: the largest is kept. */
	row(t, sizeof(t), "solutions", "sum", "PASS", 8.0, 0.80);
	row(t, sizeof(t), "solutions", "sum", "PASS", 7.56, 0.72);
	row(t, sizeof(t), "solutions", "sum", "PASS", 8.4, 0.84);
	row(t, sizeof(t), "naive", "sum", "PASS", 1.02, 0.102);
	row(t, sizeof(t), "naive", "sum", "PASS", 0.97, 0.097);
	row(t, sizeof(t), "ladder/1-sequential", "sum", "PASS", 1.3, 0.13);
	row(t, sizeof(t), "ladder/2-broken", "sum", "WRONG", 0, 0);
	row(t, sizeof(t), "bench", "sum", "PASS", 99, 9.9);
	m = parse_one(t, "sum");
	assert_non_null(m);
	assert_int_equal(m->sol_runs, 3);
	assert_int_equal(m->sol_failed, 0);
	assert_near(m->sol_min, 7.56, 1e-9);
	assert_near(m->sol_max, 8.4, 1e-9);
	assert_int_equal(m->share_runs, 3);
	assert_near(m->share_min, 0.72, 1e-9);
	assert_near(m->share_max, 0.84, 1e-9);
	assert_near(m->naive_ideal, 10.5, 1e-9);
	assert_int_equal(m->naive_runs, 2);
	assert_near(m->naive_min, 0.97, 1e-9);
	assert_near(m->naive_max, 1.02, 1e-9);
	assert_int_equal(m->nsteps, 2);
	assert_string_equal(m->step[0], "1-sequential");
	assert_near(m->step_speedup[0], 1.3, 1e-9);
	assert_near(m->step_share[0], 0.13, 1e-9);
	assert_near(m->step_speedup[1], 0, 0);
	assert_near(m->step_share[1], 0, 0);
}

static void garbled_tables_are_refused(void **state)
{
	char t[1024] = "";

	(void)state;
	assert_int_equal(calib_parse("solutions\t05-reduction\tsum\tPASS\n", ms,
				     MAX_EX), -1);
	assert_int_equal(calib_parse("solutions\ta\tb\tPASS\t0\t1\tfast\t0\n", ms,
				     MAX_EX), -1);
	/* A share that is no number. */
	row(t, sizeof(t), "solutions", "sum", "PASS", 8.0, 0.8);
	memcpy(strstr(t, "0.8000"), "lots!!", 6);
	assert_int_equal(calib_parse(t, ms, MAX_EX), -1);
	assert_int_equal(calib_parse("", ms, MAX_EX), 0);
}

/* The properties every proposal must have, whatever the numbers. */
static void check_proposal(const struct g_spec *lab, const struct g_spec *p,
			   const struct calib_ex *m)
{
	char why[256];
	double naive = m->naive_runs ? m->naive_max : 1.0;
	double r = m->naive_ideal, top = p->tiers[p->ntiers - 1].x;
	int tier;
	double next;

	assert_int_equal(g_spec_validate(p, why, sizeof(why)), 0);
	assert_int_equal(p->tier_unit, G_TIERS_SHARE);
	assert_int_equal(p->ntiers, lab->ntiers);
	for (int i = 0; i < p->ntiers; i++) {
		assert_near(p->tiers[i].points, lab->tiers[i].points, 0);
		if (i)
			assert_true(p->tiers[i].x > p->tiers[i - 1].x);
	}
	/* The solution's slowest run clears the top tier by the margin,
	 * to the hundredth below. */
	assert_true(top <= m->share_min * (1 - CALIB_TOP_MARGIN) + 1e-9);
	assert_true(top > m->share_min * (1 - CALIB_TOP_MARGIN) - 0.01 - 1e-9);
	/* The naive's fastest run (its share: speedup / R) stays under the
	 * first by its margin. */
	assert_true(p->tiers[0].x >=
		    naive * (1 + CALIB_NAIVE_MARGIN) / r - 1e-9);
	/* And so, scored on this GPU: the slowest solution run earns every
	 * point, the fastest naive run none. */
	assert_near(g_speed_points(p, m->share_min, r, &tier, &next),
		    p->points_speed, 0);
	assert_int_equal(tier, p->ntiers);
	assert_near(g_speed_points(p, naive / r, r, &tier, &next), 0, 0);
}

/* Tier i = (1/R) (top R)^(i/k) (calibrate.c), to the hundredth. */
static double geometric(double r, double top, int i, int k)
{
	return pow(top * r, (double)i / k) / r;
}

static void proposes_geometric_tiers(void **state)
{
	char t[4096] = "";
	struct g_spec s = spec("05-reduction", "sum", 3), p;
	const struct calib_ex *m;
	char why[256] = "";

	(void)state;
	/* R = 10: the naive's own share is 10%. */
	row(t, sizeof(t), "solutions", "sum", "PASS", 9.0, 0.90);
	row(t, sizeof(t), "solutions", "sum", "PASS", 9.5, 0.95);
	row(t, sizeof(t), "naive", "sum", "PASS", 1.01, 0.101);
	m = parse_one(t, "sum");
	if (calib_propose(&s, m, &p, why, sizeof(why)))
		fail_msg("no proposal: %s", why);
	check_proposal(&s, &p, m);
	/* top 0.90 x 0.85 = 0.765, to 0.76; then 0.1 x 7.6^(1/3) = 0.197
	 * and 0.1 x 7.6^(2/3) = 0.387, each to the hundredth (the first
	 * never down: the naive stays below it). */
	assert_near(p.tiers[2].x, 0.76, 1e-9);
	assert_near(p.tiers[0].x, geometric(10, 0.76, 1, 3), 0.01);
	assert_true(p.tiers[0].x >= geometric(10, 0.76, 1, 3));
	assert_near(p.tiers[1].x, geometric(10, 0.76, 2, 3), 0.005 + 1e-9);
}

/* Small gains (lab 07's fused residual add: 1.4x): the first tier is
 * held above the naive's noise, the rest spaced up to the top. */
static void small_gains_keep_the_naive_below(void **state)
{
	char t[4096] = "";
	struct g_spec s = spec("05-reduction", "sum", 3), p;
	const struct calib_ex *m;
	char why[256] = "";
	double r = 1.40 / 0.95, low = 1.02 * 1.05 / r;

	(void)state;
	row(t, sizeof(t), "solutions", "sum", "PASS", 1.40, 0.95);
	row(t, sizeof(t), "naive", "sum", "PASS", 1.02, 1.02 / r);
	m = parse_one(t, "sum");
	if (calib_propose(&s, m, &p, why, sizeof(why)))
		fail_msg("no proposal: %s", why);
	check_proposal(&s, &p, m);
	/* (1/R)(top R)^(1/3) = 0.717 is under the naive's 1.02 x 1.05 / R
	 * = 0.727: the first tier is that, rounded up; the middle the
	 * geometric mean of it and the top, 0.80. */
	assert_true(geometric(r, 0.80, 1, 3) < low);
	assert_near(p.tiers[0].x, 0.73, 1e-9);
	assert_near(p.tiers[1].x, sqrt(low * 0.80), 0.005 + 1e-9);
	assert_near(p.tiers[2].x, 0.80, 1e-9);
}

/* Where the lab's shares hold on this GPU, they are the proposal. */
static void keeps_the_lab_tiers_where_they_hold(void **state)
{
	char t[4096] = "";
	struct g_spec s = spec("05-reduction", "sum", 3), p;
	const struct calib_ex *m;
	char why[256] = "";

	(void)state;
	/* The solution at 99-100%: top 0.84 clears the lab's 0.78; the
	 * naive at 14% (R 7) with its margin, 15%, is under the lab's
	 * first tier, 26%. */
	row(t, sizeof(t), "solutions", "sum", "PASS", 7.0, 1.0);
	row(t, sizeof(t), "solutions", "sum", "PASS", 6.9, 0.99);
	row(t, sizeof(t), "naive", "sum", "PASS", 1.01, 1.01 / 7);
	m = parse_one(t, "sum");
	if (calib_propose(&s, m, &p, why, sizeof(why)))
		fail_msg("no proposal: %s", why);
	for (int i = 0; i < 3; i++)
		assert_near(p.tiers[i].x, s.tiers[i].x, 0);
	/* A lab top above what the solution clears: no longer kept. */
	s.tiers[2].x = 0.85;
	assert_int_equal(calib_propose(&s, m, &p, why, sizeof(why)), 0);
	assert_true(p.tiers[2].x < 0.85);
}

static void one_tier_is_the_top(void **state)
{
	char t[4096] = "";
	struct g_spec s = spec("05-reduction", "sum", 1), p;
	const struct calib_ex *m;
	char why[256] = "";

	(void)state;
	row(t, sizeof(t), "solutions", "sum", "PASS", 4.0, 0.5);
	m = parse_one(t, "sum");
	assert_int_equal(calib_propose(&s, m, &p, why, sizeof(why)), 0);
	assert_near(p.tiers[0].x, 0.42, 1e-9); /* 0.5 x 0.85, down */
	check_proposal(&s, &p, m);
}

static void refuses_when_unsound(void **state)
{
	static const struct {
		const char *src[3];
		const char *verdict[3];
		double sp[3], q[3];
		int ntiers;
		const char *why;
	} cases[] = {
		{ { "naive" }, { "PASS" }, { 1.0 }, { 0.1 }, 3,
		  "no solution run was measured" },
		{ { "solutions", "solutions" }, { "PASS", "TIMEOUT" }, { 8, 0 },
		  { 0.8, 0 }, 3, "the solution did not pass in 1 of 2 runs" },
		/* R = 1.2 / 0.9: the naive's own share is 75%, and with its
		 * margin 78.75% is above the top, 76%. */
		{ { "solutions", "naive" }, { "PASS", "PASS" }, { 1.2, 1.0 },
		  { 0.9, 0.75 }, 3,
		  "the slowest solution run reaches only 90% of the speed of "
		  "light: no tier fits between 79% and 76%" },
		{ { "solutions" }, { "PASS" }, { 1.3 }, { 0.95 }, 8,
		  "8 tiers do not fit" },
		{ { "solutions" }, { "PASS" }, { 8 }, { 0.8 }, 0,
		  "correctness only" },
		/* Recordings without shares: none at all, or not in every
		 * run. */
		{ { "solutions", "naive" }, { "PASS", "PASS" }, { 8, 1 },
		  { -1, -1 }, 3, NO_SHARE },
		{ { "solutions", "solutions" }, { "PASS", "PASS" }, { 8, 8.2 },
		  { 0.8, 0 }, 3, NO_SHARE },
		{ { "solutions", "solutions" }, { "PASS", "PASS" }, { 8, 8.2 },
		  { 0.8, -1 }, 3, NO_SHARE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char t[4096] = "", why[256] = "";
		struct g_spec s = spec("05-reduction", "sum", cases[i].ntiers), p;
		const struct calib_ex *m;

		for (int k = 0; k < 3 && cases[i].src[k]; k++)
			row(t, sizeof(t), cases[i].src[k], "sum",
			    cases[i].verdict[k], cases[i].sp[k], cases[i].q[k]);
		m = parse_one(t, "sum");
		assert_int_equal(calib_propose(&s, m, &p, why, sizeof(why)), -1);
		assert_contains(why, cases[i].why);
	}
}

/* Lab 05's specs as its table gives them (labs/05-reduction/lab.c). */
static int lab_rows(struct g_row *rows)
{
	static const struct {
		const char *lab, *name;
		double t[3];
	} labs[] = {
		{ "05-reduction", "sum", { 0.30, 0.54, 0.78 } },
		{ "05-reduction", "argmax", { 0.29, 0.52, 0.77 } },
	};
	int n = sizeof(labs) / sizeof(labs[0]);

	memset(rows, 0, (n + 1) * sizeof(*rows));
	for (int i = 0; i < n; i++) {
		rows[i].spec = spec(labs[i].lab, labs[i].name, 3);
		for (int k = 0; k < 3; k++)
			rows[i].spec.tiers[k].x = labs[i].t[k];
	}
	rows[n].spec = spec("01-warps", "branch", 0); /* correctness only */
	return n + 1;
}

/* calib_write's text for rows from the table at path; NULL: no file. */
static char *write_from(const char *path, struct g_row *rows, int nrows,
			int *missing, int *n)
{
	char *text = unit_read(path), *out = NULL;
	size_t len = 0;
	FILE *m;

	if (!text)
		return NULL;
	*n = calib_parse(text, ms, MAX_EX);
	free(text);
	assert_int_equal(*n, 2);
	m = open_memstream(&out, &len);
	assert_non_null(m);
	*missing = calib_write(m, path, rows, nrows, ms, *n);
	assert_int_equal(fclose(m), 0);
	return out;
}

/*
 * The H100 table recorded before the grader measured the speed of light
 * (results.tsv's 16 columns): it parses, every run is there, and no
 * exercise gets a proposal, each saying why; the file stays a valid
 * course file that changes nothing.
 */
static void the_old_recording_proposes_nothing(void **state)
{
	struct g_row rows[16];
	int nrows = lab_rows(rows), n, missing;
	char *out = write_from(OLD_RECORDING, rows, nrows, &missing, &n);
	static struct course c;
	char err[512] = "";

	(void)state;
	if (!out)
		skip(); /* run from elsewhere than the repository root */
	for (int i = 0; i < nrows - 1; i++) {
		const struct calib_ex *e = calib_find(ms, n, rows[i].spec.lab,
						      rows[i].spec.name);
		struct g_spec p;
		char why[256] = "";

		assert_non_null(e);
		assert_int_equal(e->sol_runs, 2);
		assert_int_equal(e->sol_failed, 0);
		assert_int_equal(e->naive_runs, 2);
		assert_int_equal(e->share_runs, 0);
		assert_int_equal(calib_propose(&rows[i].spec, e, &p, why,
					       sizeof(why)), -1);
		assert_string_equal(why, NO_SHARE);
	}
	assert_int_equal(missing, 2);
	assert_contains(out, "# 05-reduction/sum: no proposal, the lab's tiers "
			     "stay: " NO_SHARE "\n");
	assert_contains(out, "# 05-reduction/argmax: no proposal, the lab's "
			     "tiers stay: " NO_SHARE "\n");
	assert_null(strstr(out, ".shares ="));
	assert_null(strstr(out, "01-warps"));
	if (course_parse(out, "proposal", &c, err, sizeof(err)))
		fail_msg("the file does not parse: %s", err);
	assert_int_equal(c.nrules, 0);
	free(out);
}

/*
 * The synthetic table with shares: each exercise gets sound tiers, the
 * ladder steps are placed in them, and the file parses as settings that
 * make the tiers shares again.
 */
static void the_synthetic_table_gives_a_valid_course_file(void **state)
{
	struct g_row rows[16];
	int nrows = lab_rows(rows), n, missing;
	char *out = write_from(SYNTHETIC, rows, nrows, &missing, &n);
	static struct course c;
	char err[512] = "";

	(void)state;
	if (!out)
		skip(); /* run from elsewhere than the repository root */
	for (int i = 0; i < nrows - 1; i++) {
		const struct calib_ex *e = calib_find(ms, n, rows[i].spec.lab,
						      rows[i].spec.name);
		struct g_spec p;
		char why[256];

		assert_non_null(e);
		assert_int_equal(e->sol_runs, 2);
		assert_int_equal(e->share_runs, 2);
		assert_int_equal(e->naive_runs, 2);
		if (calib_propose(&rows[i].spec, e, &p, why, sizeof(why)))
			fail_msg("%s: %s", rows[i].spec.name, why);
		check_proposal(&rows[i].spec, &p, e);
	}
	assert_int_equal(missing, 0);
	/*
	 * sum: shares 77.28%-79.38%, R = 6.1936 / 0.7938 = 7.802: top
	 * 0.7728 x 0.85 = 0.657, to 0.65; (1/R)(0.65 R)^(1/3) = 0.2202, up
	 * to 0.23; (1/R)(0.65 R)^(2/3) = 0.3783, to 0.38. argmax: 75.07%,
	 * R = 10.265: top 0.63, then 0.1815 and 0.3381: 0.19, 0.34.
	 */
	assert_contains(out, "05-reduction/sum.shares = 0.23:20 0.38:40 "
			     "0.65:60\n");
	assert_contains(out, "05-reduction/argmax.shares = 0.19:20 0.34:40 "
			     "0.63:60\n");
	assert_contains(out, "# 05-reduction/sum: solution 6.03x-6.19x, "
			     "77%-79% of the speed of light over 2 runs (naive "
			     "/ ideal 7.80); naive against itself 1.00x-1.00x "
			     "over 2 runs\n");
	assert_contains(out, "#   the lab's tiers: share 0.3:20 0.54:40 "
			     "0.78:60\n");
	assert_contains(out, "#   ladder 1-sequential: 1.26x, 16% of the speed "
			     "of light, tier 0 of 3\n");
	assert_contains(out, "#   ladder 2-grid-stride: 4.67x, 60% of the "
			     "speed of light, tier 2 of 3\n");
	assert_null(strstr(out, "01-warps"));
	if (course_parse(out, "proposal", &c, err, sizeof(err)))
		fail_msg("the proposal does not parse: %s", err);
	assert_int_equal(c.nrules, 2);
	for (int i = 0; i < nrows; i++) {
		char note[512];

		if (course_apply(&c, &rows[i].spec, note, sizeof(note), err,
				 sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(rows[i].spec.tier_unit, G_TIERS_SHARE);
	}
	assert_near(rows[0].spec.tiers[0].x, 0.23, 1e-12);
	assert_near(rows[1].spec.tiers[2].x, 0.63, 1e-12);
	free(out);
}

static void a_missing_exercise_is_reported_in_the_file(void **state)
{
	struct g_row rows[2];
	char *out = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	memset(rows, 0, sizeof(rows));
	rows[0].spec = spec("05-reduction", "sum", 3);
	/* A lab whose table could not be read: names from lab.mk only. */
	snprintf(rows[1].spec.lab, G_NAME_LEN, "07-fusion");
	snprintf(rows[1].spec.name, G_NAME_LEN, "gelu");
	m = open_memstream(&out, &len);
	assert_int_equal(calib_write(m, "x.tsv", rows, 2, ms, 0), 2);
	fclose(m);
	assert_contains(out, "# 05-reduction/sum: no proposal, the lab's tiers stay: "
			     "no solution run was measured\n");
	assert_contains(out, "# 07-fusion/gelu: no proposal: the lab's table could "
			     "not be read");
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_sources),
		cmocka_unit_test(garbled_tables_are_refused),
		cmocka_unit_test(proposes_geometric_tiers),
		cmocka_unit_test(small_gains_keep_the_naive_below),
		cmocka_unit_test(keeps_the_lab_tiers_where_they_hold),
		cmocka_unit_test(one_tier_is_the_top),
		cmocka_unit_test(refuses_when_unsound),
		cmocka_unit_test(the_old_recording_proposes_nothing),
		cmocka_unit_test(the_synthetic_table_gives_a_valid_course_file),
		cmocka_unit_test(a_missing_exercise_is_reported_in_the_file),
	};

	return cmocka_run_group_tests_name("calibrate", tests, NULL, NULL);
}
