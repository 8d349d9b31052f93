/* SPDX-License-Identifier: MIT */
/*
 * test_formats.c - grader/report/formats.c: GitHub Classroom JSON (checked with
 * jansson against the fields the Classroom reporter reads: version,
 * status, max_score, tests[].name/status/score/message) and JUnit XML
 * (counts, failure versus error, escaping, and that no byte XML 1.0
 * forbids gets through), both written whole or not at all.
 *
 * With WB_FORMATS_OUT=DIR, the fixture's results.json, classroom.json and
 * junit.xml are also left in DIR, where tests/run.sh validates them
 * against the schemas in tests/formats/ (section formats).
 */
#include "unit.h"

#include <sys/stat.h>

#include "formats.h"
#include "grade.h"
#include "record.h"
#include "report.h"
#include "score.h"
#include "spec_fixture.h"

#include <jansson.h>

#define NROWS 5

/* Everything text must survive: quotes, backslashes, tab, newline, a
 * control byte, markup, a byte that is not UTF-8, valid UTF-8, and
 * U+FFFE (well-formed UTF-8, yet no XML character). */
static const char nasty[] =
	"got \"1.5\" at C:\\tmp\tcol 2\nline 2 \x01 <b> & 'x' ]]> \xff end "
	"\xe2\x80\x98ok\xe2\x80\x99 \xef\xbf\xbe.";

struct fixture {
	char *dir;
	struct g_row rows[NROWS];
	struct g_run run;
};

static void set_time(struct g_timing *t, double us)
{
	*t = (struct g_timing){ .have = 1, .median_us = us, .q1_us = us,
				.q3_us = us, .samples = 20 };
}

/*
 * 05-reduction: sum PASS (5x: 90 points), argmax WRONG (nasty detail);
 * 07-fusion: gelu COMPILE ERROR, softmax NOT IMPLEMENTED (correctness
 * only here), add_rmsnorm GRADER ERROR.
 */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct g_row *w;

	if (!fx || !(fx->dir = unit_tmpdir()))
		return -1;
	w = fx->rows;
	w[0].spec = unit_spec("05-reduction", "sum", 1);
	w[0].res.verdict = WB_V_PASS;
	set_time(&w[0].res.t[G_NAIVE], 500);
	set_time(&w[0].res.t[G_STUDENT], 100);
	w[0].res.bytes = 256e6;
	w[0].res.wall_s = 2.5;
	w[1].spec = unit_spec("05-reduction", "argmax", 1);
	w[1].res.verdict = WB_V_WRONG;
	g_detail(&w[1].res, "%s", nasty);
	w[1].res.wall_s = 1.25;
	w[2].spec = unit_spec("07-fusion", "gelu", 1);
	w[2].res.verdict = WB_V_COMPILE_ERROR;
	g_detail(&w[2].res, "  gelu.cu(3): error: expected a \";\"");
	w[3].spec = unit_spec("07-fusion", "softmax", 0);
	w[3].res.verdict = WB_V_NOT_IMPLEMENTED;
	w[4].spec = unit_spec("07-fusion", "add_rmsnorm", 1);
	w[4].res.verdict = WB_V_ERROR;
	g_detail(&w[4].res, "the lab's table is inconsistent");
	for (int i = 0; i < NROWS; i++)
		g_score(&w[i].spec, &w[i].res, 3000, 0);
	fx->run = (struct g_run){ .source = "labs", .seed = 99, .mode = G_GRADE,
				  .rows = fx->rows, .nrows = NROWS,
				  .course = "courses/x.conf", .course_name = "Fall",
				  .course_changes = "  05-reduction/sum: timeout 60 s -> 30 s" };
	fx->rows[0].course_changed = 1;
	snprintf(fx->run.dev.name, sizeof(fx->run.dev.name), "NVIDIA H200");
	fx->run.dev.copy_gbps = 3000;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char path[600];

	static const char *const files[] = { "classroom.json", "junit.xml" };

	for (int i = 0; i < 2; i++)
		remove(unit_path(path, sizeof(path), fx->dir, files[i]));
	unit_rmdir(fx->dir);
	free(fx);
	return 0;
}

static json_t *load_classroom(struct fixture *fx)
{
	char path[600];
	json_error_t err;
	json_t *root;

	unit_path(path, sizeof(path), fx->dir, "classroom.json");
	assert_int_equal(report_classroom(path, &fx->run), 0);
	root = json_load_file(path, 0, &err);
	if (!root)
		fail_msg("classroom.json does not parse: %s at line %d col %d",
			 err.text, err.line, err.column);
	return root;
}

static const char *sget(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static void classroom_has_the_reporters_fields(void **state)
{
	struct fixture *fx = *state;
	json_t *root = load_classroom(fx), *tests;
	double points, max, sum = 0;

	g_totals(&fx->run, &points, &max);
	assert_true(json_is_integer(json_object_get(root, "version")));
	assert_int_equal(json_integer_value(json_object_get(root, "version")), 1);
	assert_string_equal(sget(root, "status"), "error");
	assert_near(json_number_value(json_object_get(root, "max_score")), max, 1e-9);
	assert_contains(sget(root, "message"), "Graded on NVIDIA H200, seed 99");
	assert_contains(sget(root, "message"), "course settings courses/x.conf (Fall)");
	tests = json_object_get(root, "tests");
	assert_true(json_is_array(tests));
	assert_int_equal(json_array_size(tests), NROWS);
	for (size_t i = 0; i < NROWS; i++) {
		json_t *t = json_array_get(tests, i);
		const char *st = sget(t, "status");

		assert_non_null(sget(t, "name"));
		assert_non_null(st);
		assert_true(!strcmp(st, "pass") || !strcmp(st, "fail") ||
			    !strcmp(st, "error"));
		assert_true(json_is_number(json_object_get(t, "score")));
		assert_non_null(sget(t, "message"));
		assert_non_null(sget(t, "test_code"));
		sum += json_number_value(json_object_get(t, "score"));
	}
	/* The reporter's total is the sum of the tests' scores. */
	assert_near(sum, points, 1e-9);
	assert_near(points, 90, 1e-9);
	json_decref(root);
}

static void classroom_statuses_follow_verdicts(void **state)
{
	struct fixture *fx = *state;
	static const char *const want[NROWS] = { "pass", "fail", "fail", "fail",
						 "error" };
	json_t *root = load_classroom(fx), *tests = json_object_get(root, "tests");

	for (size_t i = 0; i < NROWS; i++)
		assert_string_equal(sget(json_array_get(tests, i), "status"), want[i]);
	assert_string_equal(sget(json_array_get(tests, 0), "name"), "05-reduction/sum");
	assert_string_equal(sget(json_array_get(tests, 0), "test_code"),
			    "make grade LAB=05-reduction EX=sum SEED=99");
	json_decref(root);

	fx->run.nrows = 4; /* without the grader error: the worst is a fail */
	root = load_classroom(fx);
	assert_string_equal(sget(root, "status"), "fail");
	json_decref(root);

	fx->run.nrows = 1; /* the sum alone passed */
	root = load_classroom(fx);
	assert_string_equal(sget(root, "status"), "pass");
	assert_near(json_number_value(json_object_get(root, "max_score")), 100, 0);
	json_decref(root);

	/* A grader error stays the run's status whatever follows it. */
	fx->rows[0].res.verdict = WB_V_ERROR;
	fx->run.nrows = 4;
	root = load_classroom(fx);
	assert_string_equal(sget(root, "status"), "error");
	json_decref(root);
}

/*
 * make check (no GPU): BUILT is what a finished exercise can be there, a
 * pass with no points; SKELETON, an untouched file, is a fail.
 */
static void classroom_build_only_built_is_a_pass(void **state)
{
	struct fixture *fx = *state;
	json_t *root, *tests;

	fx->run.mode = G_BUILD_ONLY;
	fx->rows[0].res.verdict = WB_V_BUILT;
	fx->rows[1].res.verdict = WB_V_BUILT;
	fx->rows[2].res.verdict = WB_V_SKELETON;
	fx->run.nrows = 3;
	root = load_classroom(fx);
	tests = json_object_get(root, "tests");
	assert_string_equal(sget(json_array_get(tests, 0), "status"), "pass");
	assert_string_equal(sget(json_array_get(tests, 1), "status"), "pass");
	assert_string_equal(sget(json_array_get(tests, 2), "status"), "fail");
	assert_string_equal(sget(root, "status"), "fail");
	assert_contains(sget(root, "message"),
			"Built only: no GPU code was run");
	json_decref(root);

	fx->run.nrows = 2; /* everything built: the run passes */
	root = load_classroom(fx);
	assert_string_equal(sget(root, "status"), "pass");
	json_decref(root);
}

static void classroom_message_keeps_the_details(void **state)
{
	struct fixture *fx = *state;
	json_t *root = load_classroom(fx), *tests = json_object_get(root, "tests");
	const char *wrong = sget(json_array_get(tests, 1), "message");
	const char *pass = sget(json_array_get(tests, 0), "message");

	assert_contains(wrong, "WRONG\ngot \"1.5\" at C:\\tmp\tcol 2\nline 2 \x01 <b>");
	assert_contains(wrong, "\xef\xbf\xbd end \xe2\x80\x98ok\xe2\x80\x99");
	assert_contains(pass, "speedup 5.00x");
	json_decref(root);
}

static char *write_junit(struct fixture *fx)
{
	char path[600], *text;

	unit_path(path, sizeof(path), fx->dir, "junit.xml");
	assert_int_equal(report_junit(path, &fx->run), 0);
	text = unit_read(path);
	assert_non_null(text);
	return text;
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void junit_counts_and_kinds(void **state)
{
	struct fixture *fx = *state;
	char *x = write_junit(fx);

	assert_int_equal(strncmp(x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				    "<testsuites", 50), 0);
	assert_contains(x, "<testsuites name=\"cuda-workbook labs\" tests=\"5\" "
			   "failures=\"2\" errors=\"2\" time=\"3.750\">");
	assert_int_equal(count(x, "<testsuite "), 2);
	assert_contains(x, "<testsuite name=\"05-reduction\" tests=\"2\" "
			   "failures=\"1\" errors=\"0\" skipped=\"0\" time=\"3.750\"");
	assert_contains(x, "<testsuite name=\"07-fusion\" tests=\"3\" "
			   "failures=\"1\" errors=\"2\"");
	assert_int_equal(count(x, "<testcase "), NROWS);
	assert_int_equal(count(x, "</testcase>"), NROWS);
	assert_contains(x, "<testcase name=\"sum\" classname=\"05-reduction\" "
			   "time=\"2.500\">\n      <system-out>90 of 100 points\nPASS");
	assert_contains(x, "<failure type=\"WRONG\" message=\"WRONG, 0 of 100 points\">");
	assert_contains(x, "<error type=\"COMPILE_ERROR\" message=\"COMPILE ERROR, 0 of 100 points\">");
	assert_contains(x, "<failure type=\"NOT_IMPLEMENTED\"");
	assert_contains(x, "<error type=\"GRADER_ERROR\"");
	assert_contains(x, "<property name=\"device\" value=\"NVIDIA H200\"/>");
	assert_contains(x, "<property name=\"settings\" value=\"course settings "
			   "courses/x.conf (Fall)\"/>");
	assert_contains(x, "</testsuites>\n");
	free(x);
}

/* A CRASH, like a compile error, is an error (the test could not run as
 * meant); OUT OF BOUNDS, a wrong write caught, is a failure. */
static void junit_crash_is_an_error(void **state)
{
	struct fixture *fx = *state;
	char *x;

	fx->rows[1].res.verdict = WB_V_CRASH;
	fx->rows[3].res.verdict = WB_V_OUT_OF_BOUNDS;
	x = write_junit(fx);
	assert_contains(x, "<testsuite name=\"05-reduction\" tests=\"2\" "
			   "failures=\"0\" errors=\"1\"");
	assert_contains(x, "<error type=\"CRASH\" "
			   "message=\"CRASH, 0 of 100 points\">");
	assert_contains(x, "<testsuite name=\"07-fusion\" tests=\"3\" "
			   "failures=\"1\" errors=\"2\"");
	assert_contains(x, "<failure type=\"OUT_OF_BOUNDS\"");
	free(x);
}

/* Every byte is allowed in XML 1.0 and every sequence is UTF-8. */
static void junit_is_clean_utf8_xml(void **state)
{
	struct fixture *fx = *state;
	char *x = write_junit(fx);

	for (const unsigned char *p = (const unsigned char *)x; *p; p++) {
		if (*p >= 0x80) {
			int n = report_utf8_len(p);

			assert_true(n > 0);
			assert_false(n == 3 && p[0] == 0xef && p[1] == 0xbf &&
				     p[2] >= 0xbe);
			p += n - 1;
		} else if (*p < 0x20) {
			assert_true(*p == '\n' || *p == '\t');
		}
	}
	assert_contains(x, "got \"1.5\" at C:\\tmp\tcol 2\nline 2 \xef\xbf\xbd "
			   "&lt;b&gt; &amp; 'x' ]]&gt; \xef\xbf\xbd end "
			   "\xe2\x80\x98ok\xe2\x80\x99 \xef\xbf\xbd.");
	free(x);
}

static void junit_build_only_has_no_device(void **state)
{
	struct fixture *fx = *state;
	char *x;

	fx->run.mode = G_BUILD_ONLY;
	fx->rows[0].res.verdict = WB_V_BUILT;
	x = write_junit(fx);
	assert_null(strstr(x, "name=\"device\""));
	assert_contains(x, "<property name=\"mode\" value=\"build-only\"/>");
	assert_contains(x, "<testsuite name=\"05-reduction\" tests=\"2\" failures=\"1\"");
	free(x);
}

static void empty_run_is_still_valid(void **state)
{
	struct fixture *fx = *state;
	char *x;
	json_t *root;

	fx->run.nrows = 0;
	x = write_junit(fx);
	assert_contains(x, "tests=\"0\" failures=\"0\" errors=\"0\" time=\"0.000\">\n"
			   "</testsuites>\n");
	free(x);
	root = load_classroom(fx);
	assert_string_equal(sget(root, "status"), "pass");
	assert_int_equal(json_array_size(json_object_get(root, "tests")), 0);
	json_decref(root);
}

static void unwritable_path_leaves_nothing(void **state)
{
	struct fixture *fx = *state;
	char path[600];

	unit_path(path, sizeof(path), fx->dir, "no/such/junit.xml");
	assert_int_equal(report_junit(path, &fx->run), -1);
	unit_path(path, sizeof(path), fx->dir, "no/such/classroom.json");
	assert_int_equal(report_classroom(path, &fx->run), -1);
	assert_int_equal(unit_dir_entries(fx->dir), 0);
}

/* For tests/run.sh: leave the fixture's files where it validates them. */
static void writes_fixture_files_when_asked(void **state)
{
	struct fixture *fx = *state;
	const char *out = getenv("WB_FORMATS_OUT");
	char path[600];

	if (!out || !*out)
		skip();
	mkdir(out, 0755);
	assert_int_equal(report_json(unit_path(path, sizeof(path), out,
					       "results.json"), &fx->run), 0);
	assert_int_equal(report_classroom(unit_path(path, sizeof(path), out,
						    "classroom.json"), &fx->run), 0);
	assert_int_equal(report_junit(unit_path(path, sizeof(path), out,
						"junit.xml"), &fx->run), 0);
}

/* The table: every row whole, no option or variable twice. */
static void table_rows_are_whole_and_distinct(void **state)
{
	(void)state;
	assert_true(report_nformats > 0 && report_nformats <= REPORT_MAX_FORMATS);
	for (int i = 0; i < report_nformats; i++) {
		const struct report_format *f = &report_formats[i];

		assert_non_null(f->name);
		assert_non_null(f->what);
		assert_non_null(f->write);
		assert_true(!strncmp(f->option, "--", 2));
		assert_true(*f->var);
		for (int k = 0; k < i; k++) {
			assert_string_not_equal(f->option, report_formats[k].option);
			assert_string_not_equal(f->var, report_formats[k].var);
		}
	}
}

/* The options the Makefile passes reach the writers the tests above check. */
static void table_options_name_their_writers(void **state)
{
	static const struct {
		const char *option;
		int (*write)(const char *, const struct g_run *);
	} want[] = {
		{ "--json", report_json }, { "--tsv", report_tsv },
		{ "--classroom", report_classroom }, { "--junit", report_junit },
	};
	struct report_outputs o;

	(void)state;
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		int found = 0;

		memset(&o, 0, sizeof(o));
		assert_int_equal(report_outputs_set(&o, want[k].option, "x"), 1);
		for (int i = 0; i < report_nformats; i++)
			if (o.path[i]) {
				assert_ptr_equal(report_formats[i].write,
						 want[k].write);
				found++;
			}
		assert_int_equal(found, 1);
	}
	assert_int_equal(report_outputs_set(&o, "--course", "x"), 0);
}

/* Every file asked for is written and listed; "" asks for none. */
static void outputs_write_what_was_asked(void **state)
{
	struct fixture *fx = *state;
	char paths[4][600], *said = NULL;
	static const char *const opt[] = { "--json", "--tsv", "--classroom",
					   "--junit" };
	static const char *const name[] = { "r.json", "r.tsv", "c.json",
					    "j.xml" };
	struct report_outputs o;
	struct stat st;
	size_t len = 0;
	FILE *say = open_memstream(&said, &len);

	assert_non_null(say);
	memset(&o, 0, sizeof(o));
	for (int i = 0; i < 4; i++)
		report_outputs_set(&o, opt[i], unit_path(paths[i], sizeof(paths[i]),
							 fx->dir, name[i]));
	report_outputs_set(&o, "--tsv", "");
	assert_int_equal(report_outputs_write(&o, &fx->run, say), 0);
	fclose(say);
	assert_true(!strncmp(said, "results: ", 9));
	for (int i = 0; i < 4; i++) {
		assert_int_equal(stat(paths[i], &st) == 0, i != 1);
		if (i != 1)
			assert_contains(said, paths[i]);
	}
	assert_null(strstr(said, paths[1]));
	for (const char *l = said; *l;) {
		size_t n = strcspn(l, "\n");

		assert_true(n <= 80); /* wrapped */
		l += n + (l[n] == '\n');
	}
	report_outputs_remove(&o);
	assert_int_equal(unit_dir_entries(fx->dir), 0);
	free(said);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(classroom_has_the_reporters_fields),
		T(classroom_statuses_follow_verdicts),
		T(classroom_build_only_built_is_a_pass),
		T(classroom_message_keeps_the_details),
		T(junit_counts_and_kinds),
		T(junit_crash_is_an_error),
		T(junit_is_clean_utf8_xml),
		T(junit_build_only_has_no_device),
		T(empty_run_is_still_valid),
		T(unwritable_path_leaves_nothing),
		T(writes_fixture_files_when_asked),
		T(table_rows_are_whole_and_distinct),
		T(table_options_name_their_writers),
		T(outputs_write_what_was_asked),
	};

	return cmocka_run_group_tests_name("formats", tests, NULL, NULL);
}
