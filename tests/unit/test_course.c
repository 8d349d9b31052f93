/* SPDX-License-Identifier: MIT */
/*
 * test_course.c - grader/score/course.c: the per-course settings file. Parsing
 * and its error messages (file:line: why), names checked against lab.mk,
 * how overrides apply (later lines win, stars, short lab names, new tiers
 * bringing their points and their unit: fixed speedups with "tiers",
 * shares of the speed of light with "shares"; points_speed scaling the
 * lab's tiers), specs that would not validate, and what the reports then
 * say about it, down to where each exercise's tiers come from.
 */
#include "unit.h"

#include <sys/stat.h>

#include "course.h"
#include "grade.h"
#include "record.h"
#include "formats.h"
#include "report.h"

static struct course course;

static struct g_spec speed_spec(const char *lab, const char *name)
{
	struct g_spec s;

	memset(&s, 0, sizeof(s));
	snprintf(s.lab, sizeof(s.lab), "%s", lab);
	snprintf(s.name, sizeof(s.name), "%s", name);
	s.speed = 1;
	s.points_correct = 40;
	s.points_speed = 60;
	s.timeout_s = 60;
	/* The lab's own tiers: shares of the speed of light (lab 05). */
	s.tiers[0] = (struct g_tier){ 0.30, 20 };
	s.tiers[1] = (struct g_tier){ 0.54, 40 };
	s.tiers[2] = (struct g_tier){ 0.78, 60 };
	s.ntiers = 3;
	s.tier_unit = G_TIERS_SHARE;
	snprintf(s.tiers_from, sizeof(s.tiers_from), "lab");
	return s;
}

static struct g_spec correctness_spec(const char *lab, const char *name)
{
	struct g_spec s = speed_spec(lab, name);

	s.speed = 0;
	s.points_correct = 100;
	s.points_speed = 0;
	s.ntiers = 0;
	return s;
}

/* Parse text; fails the test with the message if it does not parse. */
static void parse_ok(const char *text)
{
	char err[512] = "";

	if (course_parse(text, "c.conf", &course, err, sizeof(err)))
		fail_msg("did not parse: %s", err);
}

/* Apply the parsed course to s; returns the rc, the note and error. */
static int apply(struct g_spec *s, char *note, size_t n, char *err, size_t en)
{
	err[0] = '\0';
	return course_apply(&course, s, note, n, err, en);
}

static void parses_every_knob(void **state)
{
	(void)state;
	parse_ok("# a comment\n"
		 "course = CS 759 (spring)   # trailing comment\n"
		 "\n"
		 "05-reduction/sum.tiers = 1.5:20  3:40\t5:60\n"
		 "05-reduction/sum.points_correct = 50\n"
		 "reduction/argmax.points_speed = 30\n"
		 "*/*.timeout_s = 90\n"
		 "fusion/gelu.shares = 0.4:20 0.6:40 0.8:60\n");
	assert_string_equal(course.name, "CS 759 (spring)");
	assert_string_equal(course.path, "c.conf");
	assert_int_equal(course.nrules, 5);
	assert_int_equal(course.rules[0].knob, COURSE_TIERS);
	assert_int_equal(course.rules[0].line, 4);
	assert_int_equal(course.rules[0].ntiers, 3);
	assert_near(course.rules[0].tiers[1].x, 3, 0);
	assert_near(course.rules[0].tiers[2].points, 60, 0);
	assert_string_equal(course.rules[0].lab, "05-reduction");
	assert_string_equal(course.rules[0].ex, "sum");
	assert_int_equal(course.rules[1].knob, COURSE_POINTS_CORRECT);
	assert_near(course.rules[1].value, 50, 0);
	assert_string_equal(course.rules[2].lab, "reduction");
	assert_int_equal(course.rules[2].knob, COURSE_POINTS_SPEED);
	assert_string_equal(course.rules[3].lab, "*");
	assert_string_equal(course.rules[3].ex, "*");
	assert_int_equal(course.rules[3].knob, COURSE_TIMEOUT);
	assert_int_equal(course.rules[3].line, 7);
	assert_int_equal(course.rules[4].knob, COURSE_SHARES);
	assert_int_equal(course.rules[4].ntiers, 3);
	assert_near(course.rules[4].tiers[0].x, 0.4, 0);
	assert_near(course.rules[4].tiers[2].points, 60, 0);
}

static void empty_file_is_valid(void **state)
{
	(void)state;
	parse_ok("");
	assert_int_equal(course.nrules, 0);
	parse_ok("# only comments\n\n   \n");
	assert_int_equal(course.nrules, 0);
}

/* Each bad line is refused with the file, its line and the reason. */
static void refuses_bad_lines(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "05-reduction/sum.tiers 1:20\n",
		  "c.conf:1: expected lab/exercise.knob = value" },
		{ "\n\nsum.tiers = 1:20\n",
		  "c.conf:3: expected lab/exercise.knob = value, not 'sum.tiers'" },
		{ "05-reduction/sum = 3\n", "c.conf:1: expected lab/exercise.knob" },
		{ "05-reduction/sum.speed = 3\n",
		  "unknown knob 'speed' (the knobs: points_correct, points_speed, tiers, shares, timeout_s)" },
		{ "05-reduction/sum.points_correct = lots\n",
		  "points_correct must be a number >= 0, not 'lots'" },
		{ "05-reduction/sum.points_correct = -5\n",
		  "points_correct must be a number >= 0" },
		{ "05-reduction/sum.points_correct = 5x\n", "not '5x'" },
		{ "05-reduction/sum.timeout_s = 0.5\n",
		  "timeout_s must be at least 1 second" },
		{ "05-reduction/sum.timeout_s = inf\n", "timeout_s must be a number" },
		{ "05-reduction/sum.tiers = 1.5 3:40\n",
		  "tier '1.5' is not speedup:points" },
		{ "05-reduction/sum.shares = 0.5 0.6:40\n",
		  "tier '0.5' is not share:points" },
		{ "05-reduction/sum.shares = 0.5:-20\n",
		  "tier '0.5:-20' is not two numbers >= 0" },
		{ "05-reduction/sum.shares =\n", "no tiers given" },
		{ "05-reduction/sum.tiers = 1.5:x\n",
		  "tier '1.5:x' is not two numbers >= 0" },
		{ "05-reduction/sum.tiers =\n", "no tiers given" },
		{ "05-reduction/sum.tiers = 1:1 2:2 3:3 4:4 5:5 6:6 7:7 8:8 9:9\n",
		  "more than 8 tiers" },
		{ "/sum.tiers = 1:1\n", "expected lab/exercise.knob" },
		{ "05-reduction/.tiers = 1:1\n", "expected lab/exercise.knob" },
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (!course_parse(cases[i].text, "c.conf", &course, err, sizeof(err)))
			fail_msg("'%s' parsed", cases[i].text);
		assert_contains(err, cases[i].want);
	}
}

static void new_tiers_bring_their_points(void **state)
{
	struct g_spec s = speed_spec("05-reduction", "sum");
	char note[512], err[512];

	(void)state;
	parse_ok("05-reduction/sum.tiers = 1.5:10 3:30 5:50\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), 0);
	assert_int_equal(s.ntiers, 3);
	assert_int_equal(s.tier_unit, G_TIERS_SPEEDUP);
	assert_near(s.tiers[0].x, 1.5, 0);
	assert_near(s.points_speed, 50, 0);
	assert_near(s.points_correct, 40, 0);
	assert_string_equal(note, "points 40+60 -> 40+50; tiers share 0.3:20 "
				  "0.54:40 0.78:60 -> speedup 1.5:10 3:30 5:50");
}

/* "shares" are shares of the speed of light, as the lab's own tiers. */
static void shares_are_shares(void **state)
{
	struct g_spec s = speed_spec("05-reduction", "sum");
	char note[512], err[512];

	(void)state;
	parse_ok("05-reduction/sum.tiers = 1.5:10 3:30 5:50\n"
		 "05-reduction/sum.shares = 0.35:20 0.6:40 0.85:60\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), 0);
	assert_int_equal(s.tier_unit, G_TIERS_SHARE);
	assert_near(s.tiers[1].x, 0.6, 0);
	assert_near(s.points_speed, 60, 0);
	assert_string_equal(note, "tiers share 0.3:20 0.54:40 0.78:60 -> "
				  "share 0.35:20 0.6:40 0.85:60");
	/* The same numbers in the other unit are other tiers. */
	s = speed_spec("05-reduction", "sum");
	parse_ok("05-reduction/sum.tiers = 0.3:20 0.54:40 0.78:60\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), 0);
	assert_int_equal(s.tier_unit, G_TIERS_SPEEDUP);
	assert_string_equal(note, "tiers share 0.3:20 0.54:40 0.78:60 -> "
				  "speedup 0.3:20 0.54:40 0.78:60");
	/* The lab's own shares again: nothing changed. */
	s = speed_spec("05-reduction", "sum");
	parse_ok("05-reduction/sum.shares = 0.3:20 0.54:40 0.78:60\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), 0);
	assert_string_equal(note, "");
}

static void points_speed_scales_the_labs_tiers(void **state)
{
	struct g_spec s = speed_spec("05-reduction", "sum");
	char note[512], err[512];

	(void)state;
	parse_ok("05-reduction/sum.points_speed = 30\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), 0);
	assert_near(s.tiers[0].points, 10, 1e-12);
	assert_near(s.tiers[1].points, 20, 1e-12);
	assert_near(s.tiers[2].points, 30, 1e-12);
	assert_near(s.tiers[1].x, 0.54, 0);
	assert_int_equal(s.tier_unit, G_TIERS_SHARE); /* still the lab's */
	assert_contains(note, "tiers share 0.3:20 0.54:40 0.78:60 -> share "
			      "0.3:10 0.54:20 0.78:30");
}

static void later_lines_win_and_short_names_match(void **state)
{
	struct g_spec s = speed_spec("05-reduction", "sum");
	char note[512], err[512];

	(void)state;
	parse_ok("*/*.timeout_s = 90\n"
		 "reduction/sum.timeout_s = 120\n"
		 "05-reduction/*.points_correct = 55\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), 0);
	assert_near(s.timeout_s, 120, 0);
	assert_near(s.points_correct, 55, 0);
	assert_string_equal(note, "points 40+60 -> 55+60; timeout 60 s -> 120 s");
}

static void rules_for_others_change_nothing(void **state)
{
	struct g_spec s = speed_spec("05-reduction", "sum"), before = s;
	char note[512], err[512];

	(void)state;
	parse_ok("05-reduction/argmax.timeout_s = 90\n"
		 "06-rmsnorm/*.points_correct = 10\n"
		 "fusion/sum.timeout_s = 5\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), 0);
	assert_string_equal(note, "");
	assert_memory_equal(&s, &before, sizeof(s));
}

/* The result must pass g_spec_validate: the reason names file and line. */
static void invalid_results_are_refused(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "x/y.timeout_s = 9\n05-reduction/sum.tiers = 3:20 2:40 5:60\n",
		  "c.conf:2: 05-reduction/sum: tier 2 does not rise above tier 1" },
		{ "05-reduction/sum.tiers = 2:40 3:20 5:60\n", "tier 2 does not rise" },
		{ "05-reduction/sum.tiers = 2:20 3:40\n05-reduction/sum.points_speed = 60\n",
		  "c.conf:2: 05-reduction/sum: the top tier's points (40) differ from points_speed (60)" },
		{ "05-reduction/sum.tiers = 0:20 3:40\n", "tier 1 does not rise" },
		{ "05-reduction/sum.shares = 0.4:20 0.3:40 0.8:60\n",
		  "tier 2 does not rise" },
		/* A speedup written where a share belongs. */
		{ "05-reduction/sum.shares = 2:20 4.5:40 7.1:60\n",
		  "c.conf:1: 05-reduction/sum: tier 1 asks for 200% of the speed "
		  "of light" },
	};
	char note[512], err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct g_spec s = speed_spec("05-reduction", "sum");

		parse_ok(cases[i].text);
		if (!apply(&s, note, sizeof(note), err, sizeof(err)))
			fail_msg("'%s' was accepted", cases[i].text);
		assert_contains(err, cases[i].want);
	}
}

static void correctness_exercises_take_no_tiers(void **state)
{
	struct g_spec s = correctness_spec("01-warps", "branch");
	char note[512], err[512];

	(void)state;
	/* A star means every timed exercise: this one is left alone... */
	parse_ok("*/*.tiers = 1.5:20 3:60\n01-warps/*.points_speed = 10\n"
		 "*/*.shares = 0.5:20 0.8:60\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), 0);
	assert_string_equal(note, "");
	/* ...but naming it is a mistake worth stopping for. */
	parse_ok("01-warps/branch.tiers = 1.5:20 3:60\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), -1);
	assert_contains(err, "c.conf:1: 01-warps/branch: a correctness exercise has tiers");
	s = correctness_spec("01-warps", "branch");
	parse_ok("01-warps/branch.shares = 0.5:20 0.8:60\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), -1);
	assert_contains(err, "a correctness exercise has tiers");
	s = correctness_spec("01-warps", "branch");
	parse_ok("01-warps/branch.points_correct = 25\n");
	assert_int_equal(apply(&s, note, sizeof(note), err, sizeof(err)), 0);
	assert_string_equal(note, "points 100+0 -> 25+0");
}

/* A labs folder with two labs, for the name checks. */
static char *make_labs(void)
{
	char *dir = unit_tmpdir(), path[600];
	static const char *const labs[][2] = {
		{ "05-reduction",
		  "# EXERCISES in a comment\nEXERCISES := sum argmax\nLAB_SRCS := lab.c\n" },
		{ "07-fusion", "EXERCISES\t:= gelu\tsoftmax\n" },
	};

	assert_non_null(dir);
	for (int i = 0; i < 2; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, labs[i][0]);
		assert_int_equal(mkdir(path, 0755), 0);
		snprintf(path, sizeof(path), "%s/%s/lab.mk", dir, labs[i][0]);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(labs[i][1], f);
		fclose(f);
	}
	return dir;
}

static void remove_labs(char *dir)
{
	char path[600];

	for (int i = 0; i < 2; i++) {
		static const char *const names[] = { "05-reduction", "07-fusion" };

		snprintf(path, sizeof(path), "%s/%s/lab.mk", dir, names[i]);
		remove(path);
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		rmdir(path);
	}
	unit_rmdir(dir);
}

static void names_are_checked_against_lab_mk(void **state)
{
	static const struct {
		const char *text, *want; /* want NULL: accepted */
	} cases[] = {
		{ "05-reduction/sum.timeout_s = 9\nreduction/argmax.timeout_s = 9\n"
		  "fusion/softmax.timeout_s = 9\n*/gelu.timeout_s = 9\n"
		  "07-fusion/*.timeout_s = 9\n*/*.timeout_s = 9\n", NULL },
		{ "\n05-reduction/summ.timeout_s = 9\n",
		  "c.conf:2: lab 05-reduction has no exercise 'summ' (its exercises: sum argmax)" },
		{ "06-scan/sum.timeout_s = 9\n",
		  "c.conf:1: no lab named '06-scan' (the labs:" },
		{ "*/scan.timeout_s = 9\n", "c.conf:1: no lab has an exercise 'scan'" },
		{ "fusion/sum.timeout_s = 9\n", "lab 07-fusion has no exercise 'sum'" },
	};
	char *dir = make_labs(), err[1024];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc;

		parse_ok(cases[i].text);
		err[0] = '\0';
		rc = course_check_names(&course, dir, err, sizeof(err));
		if (!cases[i].want) {
			if (rc)
				fail_msg("refused: %s", err);
			continue;
		}
		assert_int_equal(rc, -1);
		assert_contains(err, cases[i].want);
	}
	remove_labs(dir);
}

/* labs = / exercises = / assignment =: what a course grades. */
static void a_course_names_what_it_grades(void **state)
{
	char *dir = make_labs(), err[1024] = "";

	(void)state;
	parse_ok("assignment = hw-3.b\nlabs = reduction\n"
		 "exercises = 07-fusion/gelu, fusion/softmax\n");
	assert_string_equal(course.assignment, "hw-3.b");
	assert_int_equal(course.npicks, 3);
	assert_int_equal(course_check_names(&course, dir, err, sizeof(err)), 0);
	assert_true(course_grades_lab(&course, "05-reduction"));
	assert_true(course_grades_lab(&course, "07-fusion"));
	assert_false(course_grades_lab(&course, "06-rmsnorm"));
	assert_true(course_grades(&course, "05-reduction", "argmax"));
	assert_true(course_grades(&course, "07-fusion", "softmax"));
	assert_false(course_grades(&course, "07-fusion", "bias_gelu"));
	/* Naming nothing grades everything, as before. */
	parse_ok("*/*.timeout_s = 9\n");
	assert_true(course_grades(&course, "06-rmsnorm", "rmsnorm"));
	/* A name that is not there is refused as a rule's would be. */
	parse_ok("exercises = reduction/summ\n");
	assert_int_equal(course_check_names(&course, dir, err, sizeof(err)), -1);
	assert_contains(err, "c.conf:1: lab 05-reduction has no exercise 'summ'");
	remove_labs(dir);
}

static void what_it_grades_is_refused_when_wrong(void **state)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{ "labs = reduction\nlabs = fusion\n",
		  "c.conf:2: labs is given twice (line 1)" },
		{ "labs = reduction/sum\n", "labs names labs" },
		{ "exercises = reduction\n", "exercises names lab/exercise" },
		{ "exercises = reduction/*\n", "is not a lab/exercise name" },
		{ "labs =\n", "labs names nothing" },
		{ "assignment = a b\n", "assignment must be a short name" },
		{ "assignment = ../up\n", "assignment must be a short name" },
		{ "assignment = a\nassignment = b\n", "c.conf:2: assignment is given twice" },
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		assert_int_equal(course_parse(cases[i].text, "c.conf", &course, err,
					      sizeof(err)), -1);
		assert_contains(err, cases[i].want);
	}
}

static void a_missing_file_is_an_error(void **state)
{
	char err[512] = "";

	(void)state;
	assert_int_equal(course_load("/no/such/course.conf", &course, err,
				     sizeof(err)), -1);
	assert_contains(err, "/no/such/course.conf: cannot read");
}

/* Three rows: one changed, one not, one from a lab that did not build. */
static void fill_run(struct g_run *run, struct g_row *rows)
{
	memset(rows, 0, 3 * sizeof(*rows));
	rows[0].spec = speed_spec("05-reduction", "sum");
	rows[1].spec = speed_spec("05-reduction", "argmax");
	rows[2].spec = speed_spec("07-fusion", "gelu");
	memset(&rows[2].spec, 0, sizeof(rows[2].spec));
	snprintf(rows[2].spec.lab, G_NAME_LEN, "07-fusion");
	snprintf(rows[2].spec.name, G_NAME_LEN, "gelu");
	rows[2].res.verdict = WB_V_ERROR;
	g_detail(&rows[2].res, "the lab's own code did not build");
	*run = (struct g_run){ .source = "labs", .seed = 7, .mode = G_BUILD_ONLY,
			       .rows = rows, .nrows = 3 };
}

static void a_run_records_what_changed(void **state)
{
	struct g_row rows[3];
	struct g_run run;
	char err[512] = "";

	(void)state;
	fill_run(&run, rows);
	parse_ok("course = Fall course\n05-reduction/sum.timeout_s = 30\n"
		 "*/*.tiers = 1.5:20 3:40 5:60\n"
		 "05-reduction/argmax.shares = 0.3:20 0.54:40 0.78:60\n");
	assert_int_equal(course_apply_run(&course, &run, err, sizeof(err)), 0);
	assert_int_equal(rows[0].course_changed, 1);
	assert_int_equal(rows[1].course_changed, 0); /* set back to the lab's */
	assert_int_equal(rows[2].course_changed, 0);
	assert_string_equal(run.course, "c.conf");
	assert_string_equal(run.course_name, "Fall course");
	assert_string_equal(run.course_changes,
			    "  05-reduction/sum: tiers share 0.3:20 0.54:40 "
			    "0.78:60 -> speedup 1.5:20 3:40 5:60; timeout 60 s "
			    "-> 30 s");
	/* Where each exercise's tiers come from, for the report. */
	assert_string_equal(rows[0].spec.tiers_from, "Fall course, c.conf");
	assert_string_equal(rows[1].spec.tiers_from, "lab");
	free((char *)run.course_changes);
}

/* A course without a name, changing only a time limit and then tiers. */
/* The reports name the file, never the folders it lies in. */
static void reports_name_the_file_not_its_folders(void **state)
{
	struct g_row rows[3];
	struct g_run run;
	char err[512] = "";

	(void)state;
	fill_run(&run, rows);
	assert_int_equal(course_parse("05-reduction/argmax.shares = 0.4:20 0.6:40 0.8:60\n",
				      "/home/prof/secret/gpu101.conf", &course,
				      err, sizeof(err)), 0);
	assert_int_equal(course_apply_run(&course, &run, err, sizeof(err)), 0);
	assert_string_equal(run.course, "gpu101.conf");
	assert_string_equal(rows[1].spec.tiers_from, "course settings gpu101.conf");
	free((char *)run.course_changes);
}

static void tiers_from_names_the_file(void **state)
{
	struct g_row rows[3];
	struct g_run run;
	char err[512] = "";

	(void)state;
	fill_run(&run, rows);
	parse_ok("05-reduction/sum.timeout_s = 30\n"
		 "05-reduction/argmax.shares = 0.4:20 0.6:40 0.8:60\n");
	assert_int_equal(course_apply_run(&course, &run, err, sizeof(err)), 0);
	assert_int_equal(rows[0].course_changed, 1);
	assert_string_equal(rows[0].spec.tiers_from, "lab"); /* same tiers */
	assert_int_equal(rows[1].course_changed, 1);
	assert_string_equal(rows[1].spec.tiers_from, "course settings c.conf");
	assert_null(run.course_name);
	free((char *)run.course_changes);
}

/* Line `line` (0: the header) of a TSV, the field under column `name`,
 * wherever other columns put it; "" when there is none. */
static const char *tsv_field(const char *tsv, int line, const char *name)
{
	static char out[256];
	char head[1024];
	const char *l = tsv;
	int col = -1, i = 0;

	sscanf(tsv, "%1023[^\n]", head);
	for (char *save = NULL, *f = strtok_r(head, "\t", &save); f;
	     f = strtok_r(NULL, "\t", &save), i++)
		if (!strcmp(f, name))
			col = i;
	out[0] = '\0';
	for (int k = 0; k < line && l; k++)
		l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL;
	for (i = 0; l && *l && col >= 0 && i < col; i++)
		l = strpbrk(l, "\t\n") && *strpbrk(l, "\t\n") == '\t' ?
			    strpbrk(l, "\t\n") + 1 : NULL;
	if (l && col >= 0)
		sscanf(l, "%255[^\t\n]", out);
	return out;
}

/* Table footer, results.json header and the TSV column all say it. */
static void reports_show_the_settings(void **state)
{
	struct g_row rows[3];
	struct g_run run;
	char err[512] = "", *dir = unit_tmpdir(), path[600], *text = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	assert_non_null(dir);
	fill_run(&run, rows);
	parse_ok("course = Fall course\n05-reduction/sum.timeout_s = 30\n");
	assert_int_equal(course_apply_run(&course, &run, err, sizeof(err)), 0);

	m = open_memstream(&text, &len);
	report_table(m, &run);
	fclose(m);
	assert_contains(text, "course settings c.conf (Fall course): changed\n"
			      "  05-reduction/sum: timeout 60 s -> 30 s\n");
	free(text);

	unit_path(path, sizeof(path), dir, "r.json");
	assert_int_equal(report_json(path, &run), 0);
	text = unit_read(path);
	assert_non_null(text);
	assert_contains(text, "Graded with course settings c.conf (Fall course), "
			      "which changed:\\n  05-reduction/sum: timeout 60 s -> 30 s");
	free(text);

	unit_path(path, sizeof(path), dir, "r.tsv");
	assert_int_equal(report_tsv(path, &run), 0);
	text = unit_read(path);
	assert_non_null(text);
	assert_string_equal(tsv_field(text, 0, "settings"), "settings");
	assert_string_equal(tsv_field(text, 1, "settings"), "c.conf");
	assert_string_equal(tsv_field(text, 2, "settings"), "lab");
	assert_string_equal(tsv_field(text, 3, "settings"), "lab");
	free(text);
	free((char *)run.course_changes);
	unit_rmdir(dir);
}

static void no_course_says_the_labs_own(void **state)
{
	struct g_row rows[3];
	struct g_run run;
	char *text = NULL, line[128];
	size_t len = 0;
	FILE *m;

	(void)state;
	fill_run(&run, rows);
	m = open_memstream(&text, &len);
	report_table(m, &run);
	fclose(m);
	assert_null(strstr(text, "course settings"));
	free(text);
	report_settings_line(line, sizeof(line), &run);
	assert_string_equal(line, "the labs' own settings");
}

/* The shipped example parses and names only real exercises. */
static void the_example_course_file_is_valid(void **state)
{
	char err[1024] = "";

	(void)state;
	if (access("courses/example.conf", R_OK) || access("labs", R_OK))
		skip(); /* run from elsewhere than the repository root */
	if (course_load("courses/example.conf", &course, err, sizeof(err)) ||
	    course_check_names(&course, "labs", err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(course.nrules > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_every_knob),
		cmocka_unit_test(empty_file_is_valid),
		cmocka_unit_test(refuses_bad_lines),
		cmocka_unit_test(new_tiers_bring_their_points),
		cmocka_unit_test(shares_are_shares),
		cmocka_unit_test(points_speed_scales_the_labs_tiers),
		cmocka_unit_test(later_lines_win_and_short_names_match),
		cmocka_unit_test(rules_for_others_change_nothing),
		cmocka_unit_test(invalid_results_are_refused),
		cmocka_unit_test(correctness_exercises_take_no_tiers),
		cmocka_unit_test(names_are_checked_against_lab_mk),
		cmocka_unit_test(a_course_names_what_it_grades),
		cmocka_unit_test(what_it_grades_is_refused_when_wrong),
		cmocka_unit_test(reports_name_the_file_not_its_folders),
		cmocka_unit_test(a_missing_file_is_an_error),
		cmocka_unit_test(a_run_records_what_changed),
		cmocka_unit_test(tiers_from_names_the_file),
		cmocka_unit_test(reports_show_the_settings),
		cmocka_unit_test(no_course_says_the_labs_own),
		cmocka_unit_test(the_example_course_file_is_valid),
	};

	return cmocka_run_group_tests_name("course", tests, NULL, NULL);
}
