/* SPDX-License-Identifier: MIT */
/*
 * test_calibrate.c - grader/calibrate.c: reading a calibration table and
 * proposing tiers. The solution clears the top tier with margin on every
 * run, the naive stays below the first, tiers rise and keep the lab's
 * points, and no proposal is made where none is sound. The recorded
 * H100 table under tests/calibrate/ must give a course file that the
 * course parser takes as it is.
 */
#include "unit.h"

#include "calibrate.h"
#include "course.h"
#include "grade.h"
#include "report.h"

#define MAX_EX 64
#define FIXTURE "tests/calibrate/h100-lab05-all.tsv"

static struct calib_ex ms[MAX_EX];

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
		s.tiers[i] = (struct g_tier){ 2.0 * (i + 1), 60.0 * (i + 1) / ntiers };
	s.ntiers = ntiers;
	return s;
}

/* A row of all.tsv: source lab exercise verdict points max speedup ... */
static void row(char *buf, size_t n, const char *src, const char *ex,
		const char *verdict, double speedup)
{
	size_t len = strlen(buf);

	snprintf(buf + len, n - len, "%s\t05-reduction\t%s\t%s\t0\t100\t%.4f\t"
		 "1.0\t2.0\t0\t0\t0\t0\t0\t0\tlab\n", src, ex, verdict, speedup);
}

static const struct calib_ex *parse_one(const char *text, const char *ex)
{
	int n = calib_parse(text, ms, MAX_EX);

	assert_true(n > 0);
	return calib_find(ms, n, "05-reduction", ex);
}

static void parses_sources(void **state)
{
	char t[4096] = "# a comment\n\n";
	const struct calib_ex *m;

	(void)state;
	row(t, sizeof(t), "solutions", "sum", "PASS", 8.2);
	row(t, sizeof(t), "solutions", "sum", "PASS", 7.9);
	row(t, sizeof(t), "solutions", "sum", "PASS", 8.4);
	row(t, sizeof(t), "naive", "sum", "PASS", 1.02);
	row(t, sizeof(t), "naive", "sum", "PASS", 0.97);
	row(t, sizeof(t), "ladder/1-sequential", "sum", "PASS", 1.3);
	row(t, sizeof(t), "ladder/2-broken", "sum", "WRONG", 0);
	row(t, sizeof(t), "bench", "sum", "PASS", 99);
	m = parse_one(t, "sum");
	assert_non_null(m);
	assert_int_equal(m->sol_runs, 3);
	assert_int_equal(m->sol_failed, 0);
	assert_near(m->sol_min, 7.9, 1e-9);
	assert_near(m->sol_max, 8.4, 1e-9);
	assert_int_equal(m->naive_runs, 2);
	assert_near(m->naive_min, 0.97, 1e-9);
	assert_near(m->naive_max, 1.02, 1e-9);
	assert_int_equal(m->nsteps, 2);
	assert_string_equal(m->step[0], "1-sequential");
	assert_near(m->step_speedup[0], 1.3, 1e-9);
	assert_near(m->step_speedup[1], 0, 0);
}

static void garbled_tables_are_refused(void **state)
{
	(void)state;
	assert_int_equal(calib_parse("solutions\t05-reduction\tsum\tPASS\n", ms,
				     MAX_EX), -1);
	assert_int_equal(calib_parse("solutions\ta\tb\tPASS\t0\t1\tfast\t0\n", ms,
				     MAX_EX), -1);
	assert_int_equal(calib_parse("", ms, MAX_EX), 0);
}

/* The properties every proposal must have, whatever the numbers. */
static void check_proposal(const struct g_spec *lab, const struct g_spec *p,
			   const struct calib_ex *m)
{
	char why[256];
	double naive = m->naive_runs ? m->naive_max : 1.0;

	assert_int_equal(g_spec_validate(p, why, sizeof(why)), 0);
	assert_int_equal(p->ntiers, lab->ntiers);
	for (int i = 0; i < p->ntiers; i++) {
		assert_near(p->tiers[i].points, lab->tiers[i].points, 0);
		if (i)
			assert_true(p->tiers[i].speedup > p->tiers[i - 1].speedup);
	}
	/* The solution's slowest run clears the top tier by the margin. */
	assert_true(p->tiers[p->ntiers - 1].speedup <=
		    m->sol_min * (1 - CALIB_TOP_MARGIN) + 1e-9);
	assert_true(p->tiers[p->ntiers - 1].speedup >
		    m->sol_min * (1 - CALIB_TOP_MARGIN) - 0.01 - 1e-9);
	/* The naive's fastest run stays under the first by its margin. */
	assert_true(p->tiers[0].speedup >= naive * (1 + CALIB_NAIVE_MARGIN) - 1e-9);
}

static void proposes_geometric_tiers(void **state)
{
	char t[4096] = "";
	struct g_spec s = spec("05-reduction", "sum", 3), p;
	const struct calib_ex *m;
	char why[256] = "";

	(void)state;
	row(t, sizeof(t), "solutions", "sum", "PASS", 8.0);
	row(t, sizeof(t), "solutions", "sum", "PASS", 8.3);
	row(t, sizeof(t), "naive", "sum", "PASS", 1.01);
	m = parse_one(t, "sum");
	if (calib_propose(&s, m, &p, why, sizeof(why)))
		fail_msg("no proposal: %s", why);
	check_proposal(&s, &p, m);
	/* top 8.0 * 0.85 = 6.8; tiers 6.8^(1/3), 6.8^(2/3), 6.8 */
	assert_near(p.tiers[0].speedup, 1.90, 1e-9);
	assert_near(p.tiers[1].speedup, 3.59, 1e-9);
	assert_near(p.tiers[2].speedup, 6.80, 1e-9);
}

/* Small gains (lab 07's fused residual add: 1.43x): the first tier is
 * held above the naive's noise, the rest spaced up to the top. */
static void small_gains_keep_the_naive_below(void **state)
{
	char t[4096] = "";
	struct g_spec s = spec("05-reduction", "sum", 3), p;
	const struct calib_ex *m;
	char why[256] = "";

	(void)state;
	row(t, sizeof(t), "solutions", "sum", "PASS", 1.40);
	row(t, sizeof(t), "naive", "sum", "PASS", 1.02);
	m = parse_one(t, "sum");
	if (calib_propose(&s, m, &p, why, sizeof(why)))
		fail_msg("no proposal: %s", why);
	check_proposal(&s, &p, m);
	/* 1.19^(1/3) = 1.06 is under 1.02 * 1.05 = 1.071: the first tier is
	 * 1.071 rounded up, the middle the geometric mean of it and 1.19. */
	assert_near(p.tiers[0].speedup, 1.08, 1e-9);
	assert_near(p.tiers[1].speedup, 1.13, 1e-9);
	assert_near(p.tiers[2].speedup, 1.19, 1e-9);
}

static void one_tier_is_the_top(void **state)
{
	char t[4096] = "";
	struct g_spec s = spec("05-reduction", "sum", 1), p;
	const struct calib_ex *m;
	char why[256] = "";

	(void)state;
	row(t, sizeof(t), "solutions", "sum", "PASS", 4.0);
	m = parse_one(t, "sum");
	assert_int_equal(calib_propose(&s, m, &p, why, sizeof(why)), 0);
	assert_near(p.tiers[0].speedup, 3.40, 1e-9);
	check_proposal(&s, &p, m);
}

static void refuses_when_unsound(void **state)
{
	static const struct {
		const char *src[3];
		const char *verdict[3];
		double sp[3];
		int ntiers;
		const char *why;
	} cases[] = {
		{ { "naive" }, { "PASS" }, { 1.0 }, 3, "no solution run was measured" },
		{ { "solutions", "solutions" }, { "PASS", "TIMEOUT" }, { 8, 0 }, 3,
		  "the solution did not pass in 1 of 2 runs" },
		{ { "solutions", "naive" }, { "PASS", "PASS" }, { 1.2, 1.0 }, 3,
		  "the slowest solution run is only 1.20x the naive: no tier fits "
		  "between 1.05x and 1.02x" },
		{ { "solutions" }, { "PASS" }, { 1.3 }, 8, "8 tiers do not fit" },
		{ { "solutions" }, { "PASS" }, { 8 }, 0, "correctness only" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char t[4096] = "", why[256] = "";
		struct g_spec s = spec("05-reduction", "sum", cases[i].ntiers), p;
		const struct calib_ex *m;

		for (int k = 0; k < 3 && cases[i].src[k]; k++)
			row(t, sizeof(t), cases[i].src[k], "sum", cases[i].verdict[k],
			    cases[i].sp[k]);
		m = parse_one(t, "sum");
		assert_int_equal(calib_propose(&s, m, &p, why, sizeof(why)), -1);
		assert_contains(why, cases[i].why);
	}
}

/* Lab 05's specs as of its table (the tiers the recording was graded
 * with). */
static int lab_rows(struct g_row *rows)
{
	static const struct {
		const char *lab, *name;
		double t[3];
	} labs[] = {
		{ "05-reduction", "sum", { 2.0, 3.6, 5.2 } },
		{ "05-reduction", "argmax", { 2.5, 4.5, 6.6 } },
	};
	int n = sizeof(labs) / sizeof(labs[0]);

	memset(rows, 0, (n + 1) * sizeof(*rows));
	for (int i = 0; i < n; i++) {
		rows[i].spec = spec(labs[i].lab, labs[i].name, 3);
		for (int k = 0; k < 3; k++)
			rows[i].spec.tiers[k].speedup = labs[i].t[k];
	}
	rows[n].spec = spec("01-warps", "branch", 0); /* correctness only */
	return n + 1;
}

/* The recorded H100 table: every timed exercise gets sound tiers, the
 * ladder steps are placed in them, and the file parses as settings. */
static void the_recorded_table_gives_a_valid_course_file(void **state)
{
	struct g_row rows[16];
	char *text = unit_read(FIXTURE), *out = NULL, err[512] = "";
	int nrows = lab_rows(rows), n;
	size_t len = 0;
	FILE *m;
	static struct course c;

	(void)state;
	if (!text)
		skip(); /* run from elsewhere than the repository root */
	n = calib_parse(text, ms, MAX_EX);
	free(text);
	assert_int_equal(n, 2);
	for (int i = 0; i < nrows - 1; i++) {
		const struct calib_ex *e = calib_find(ms, n, rows[i].spec.lab,
						      rows[i].spec.name);
		struct g_spec p;
		char why[256];

		assert_non_null(e);
		assert_int_equal(e->sol_runs, 2);
		assert_int_equal(e->naive_runs, 2);
		if (calib_propose(&rows[i].spec, e, &p, why, sizeof(why)))
			fail_msg("%s: %s", rows[i].spec.name, why);
		check_proposal(&rows[i].spec, &p, e);
	}

	m = open_memstream(&out, &len);
	assert_int_equal(calib_write(m, FIXTURE, rows, nrows, ms, n), 0);
	fclose(m);
	/* 15% under the slowest run (6.03x), 5% over the naive (1.00x),
	 * geometric between; the same figures make calibrate printed on the
	 * GPU. */
	assert_contains(out, "05-reduction/sum.tiers = 1.73:20 2.97:40 5.12:60\n");
	assert_contains(out, "#   ladder 2-grid-stride: 4.67x, tier 2 of 3\n");
	assert_contains(out, "05-reduction/argmax.tiers = 1.88:20 3.5:40 6.55:60\n");
	assert_null(strstr(out, "01-warps"));
	if (course_parse(out, "proposal", &c, err, sizeof(err)))
		fail_msg("the proposal does not parse: %s", err);
	assert_int_equal(c.nrules, 2);
	for (int i = 0; i < nrows; i++) {
		char note[512];

		if (course_apply(&c, &rows[i].spec, note, sizeof(note), err,
				 sizeof(err)))
			fail_msg("%s", err);
	}
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
		cmocka_unit_test(one_tier_is_the_top),
		cmocka_unit_test(refuses_when_unsound),
		cmocka_unit_test(the_recorded_table_gives_a_valid_course_file),
		cmocka_unit_test(a_missing_exercise_is_reported_in_the_file),
	};

	return cmocka_run_group_tests_name("calibrate", tests, NULL, NULL);
}
