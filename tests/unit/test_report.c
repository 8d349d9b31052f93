/* SPDX-License-Identifier: MIT */
/*
 * test_report.c - grader/report.c: the Gradescope results.json (checked
 * with jansson against the fields Gradescope reads), the TSV for scripts,
 * the human table, JSON string escaping, and that report files are
 * written whole or not at all.
 */
#include "unit.h"

#include <sys/stat.h>

#include "grade.h"

#include "report.h"
#include <jansson.h>

#define NROWS 4

/* A detail with everything JSON must escape: " \ tab newline and ^A. */
static const char nasty[] =
	"out[3] = \"1.5\" in C:\\tmp\\x\tcol 2\nsecond line \x01 end";

static const char compile_msg[] =
	"  sum.cu(11): error: identifier \"total\" is undefined";

struct fixture {
	char *dir;
	struct g_row rows[NROWS];
	struct g_run run;
};

static struct g_spec spec(const char *lab, const char *name, int speed)
{
	struct g_spec s;

	memset(&s, 0, sizeof(s));
	snprintf(s.lab, sizeof(s.lab), "%s", lab);
	snprintf(s.name, sizeof(s.name), "%s", name);
	snprintf(s.bench, sizeof(s.bench), "%s", speed ? "n=64M" : "-");
	s.speed = speed;
	s.points_correct = speed ? 40 : 10;
	s.points_speed = speed ? 60 : 0;
	s.timeout_s = 60;
	if (speed) {
		s.tiers[0] = (struct g_tier){ 2, 20 };
		s.tiers[1] = (struct g_tier){ 3.5, 40 };
		s.tiers[2] = (struct g_tier){ 5.2, 60 };
		s.ntiers = 3;
	}
	return s;
}

static void set_time(struct g_timing *t, double us)
{
	*t = (struct g_timing){ .have = 1, .median_us = us, .q1_us = us * 0.99,
				.q3_us = us * 1.01, .samples = 20 };
}

/* PASS speed, WRONG with a nasty detail, COMPILE ERROR, NOT IMPLEMENTED. */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct g_result *r;

	if (!fx || !(fx->dir = unit_tmpdir()))
		return -1;
	fx->rows[0].spec = spec("05-reduction", "sum", 1);
	r = &fx->rows[0].res;
	r->verdict = WB_V_PASS;
	r->complete = 1;
	set_time(&r->t[G_NAIVE], 100);
	set_time(&r->t[G_STUDENT], 25);
	r->bytes = 1e6;

	fx->rows[1].spec = spec("05-reduction", "argmax", 1);
	r = &fx->rows[1].res;
	r->verdict = WB_V_WRONG;
	r->complete = 1;
	snprintf(r->details[r->ndetails++], G_DETAIL_LEN, "%s", nasty);
	snprintf(r->details[r->ndetails++], G_DETAIL_LEN, "%s",
		 "UTF-8 stays: \xe2\x80\x98total\xe2\x80\x99 \xc2\xb5s");

	fx->rows[2].spec = spec("06-scan", "scan", 1);
	r = &fx->rows[2].res;
	r->verdict = WB_V_COMPILE_ERROR;
	g_detail(r, "the file did not compile; the compiler said:");
	g_detail(r, "%s", compile_msg);

	fx->rows[3].spec = spec("06-scan", "histogram", 0);
	fx->rows[3].res.verdict = WB_V_NOT_IMPLEMENTED;

	for (int i = 0; i < NROWS; i++)
		g_score(&fx->rows[i].spec, &fx->rows[i].res, 400);
	fx->run = (struct g_run){ .source = "labs", .seed = 1234,
				  .mode = G_GRADE, .rows = fx->rows,
				  .nrows = NROWS };
	snprintf(fx->run.dev.name, sizeof(fx->run.dev.name), "%s",
		 "NVIDIA H100 80GB HBM3");
	fx->run.dev.cc = 90;
	fx->run.dev.copy_gbps = 400;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unit_rmdir(fx->dir);
	free(fx);
	return 0;
}

/* A string member of a JSON object, NULL if it is absent or no string. */
static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* Write results.json for fx and load it; fails the test if it won't. */
static json_t *load_json(struct fixture *fx)
{
	char path[600];
	json_error_t err;
	json_t *root;

	unit_path(path, sizeof(path), fx->dir, "results.json");
	assert_int_equal(report_json(path, &fx->run), 0);
	root = json_load_file(path, 0, &err);
	if (!root)
		fail_msg("results.json does not parse: %s at line %d col %d",
			 err.text, err.line, err.column);
	return root;
}

/* ---- results.json ---- */

static void json_parses_with_gradescope_fields(void **state)
{
	struct fixture *fx = *state;
	json_t *root = load_json(fx), *tests;

	assert_true(json_is_object(root));
	assert_true(json_is_number(json_object_get(root, "score")));
	assert_true(json_is_string(json_object_get(root, "output")));
	assert_string_equal(json_string_value(json_object_get(root,
							      "visibility")),
			    "visible");
	tests = json_object_get(root, "tests");
	assert_true(json_is_array(tests));
	assert_int_equal(json_array_size(tests), NROWS);
	json_decref(root);
}

static void json_score_is_sum_of_points(void **state)
{
	struct fixture *fx = *state;
	json_t *root = load_json(fx);
	double sum = 0, points, max;

	for (int i = 0; i < NROWS; i++)
		sum += fx->rows[i].res.points;
	g_totals(&fx->run, &points, &max);
	assert_near(points, sum, 1e-9);
	assert_near(max, 100 + 100 + 100 + 10, 1e-9);
	assert_near(sum, 85.9 + 0 + 0 + 0, 1e-9); /* only the PASS earns */
	assert_near(json_number_value(json_object_get(root, "score")), sum,
		    1e-9);
	json_decref(root);
}

static void json_one_test_per_row(void **state)
{
	struct fixture *fx = *state;
	json_t *root = load_json(fx);
	json_t *tests = json_object_get(root, "tests");

	for (int i = 0; i < NROWS; i++) {
		const struct g_row *row = &fx->rows[i];
		json_t *t = json_array_get(tests, (size_t)i);
		char name[2 * G_NAME_LEN + 2], number[16];

		snprintf(name, sizeof(name), "%s/%s", row->spec.lab,
			 row->spec.name);
		snprintf(number, sizeof(number), "%d", i + 1);
		assert_true(json_is_object(t));
		assert_string_equal(str(t, "name"), name);
		assert_true(json_is_string(json_object_get(t, "number")));
		assert_string_equal(str(t, "number"), number);
		assert_true(json_is_number(json_object_get(t, "score")));
		assert_true(json_is_number(json_object_get(t, "max_score")));
		assert_near(json_number_value(json_object_get(t, "score")),
			    row->res.points, 1e-9);
		assert_near(json_number_value(json_object_get(t, "max_score")),
			    row->res.max_points, 1e-9);
		assert_string_equal(str(t, "status"),
				    row->res.verdict == WB_V_PASS ? "passed" :
								    "failed");
		assert_string_equal(str(t, "visibility"), "visible");
		assert_true(json_is_string(json_object_get(t, "output")));
	}
	json_decref(root);
}

static void json_output_keeps_details_verbatim(void **state)
{
	struct fixture *fx = *state;
	json_t *root = load_json(fx);
	json_t *tests = json_object_get(root, "tests");
	const char *out;

	for (int i = 0; i < NROWS; i++) {
		const struct g_result *r = &fx->rows[i].res;

		out = json_string_value(json_object_get(json_array_get(tests,
							(size_t)i), "output"));
		assert_non_null(out);
		/* It opens with the verdict people read. */
		assert_int_equal(strncmp(out, wb_verdict_label(r->verdict),
					 strlen(wb_verdict_label(r->verdict))),
				 0);
		for (int d = 0; d < r->ndetails; d++)
			assert_contains(out, r->details[d]);
	}
	out = json_string_value(json_object_get(json_array_get(tests, 1),
						"output"));
	assert_contains(out, nasty);
	assert_contains(out, "\xe2\x80\x98total\xe2\x80\x99");
	out = json_string_value(json_object_get(json_array_get(tests, 2),
						"output"));
	assert_contains(out, compile_msg);
	/* A timed PASS says how fast, and what the next tier needs. */
	out = json_string_value(json_object_get(json_array_get(tests, 0),
						"output"));
	assert_contains(out, "speedup 4.00x");
	assert_contains(out, "next tier at 5.20x");
	json_decref(root);
}

static void json_header_names_device_and_seed(void **state)
{
	struct fixture *fx = *state;
	json_t *root = load_json(fx);
	const char *out = json_string_value(json_object_get(root, "output"));

	assert_contains(out, "NVIDIA H100 80GB HBM3");
	assert_contains(out, "seed 1234");
	json_decref(root);
}

static void json_empty_run(void **state)
{
	struct fixture *fx = *state;
	json_t *root;

	fx->run.nrows = 0;
	root = load_json(fx);
	assert_near(json_number_value(json_object_get(root, "score")), 0, 0);
	assert_int_equal(json_array_size(json_object_get(root, "tests")), 0);
	json_decref(root);
}

/*
 * Details quote what compilers and programs print, in whatever bytes they
 * used, and G_DETAIL_LEN cuts lines wherever the limit falls: here in the
 * middle of a UTF-8 quote, as gcc prints them. Gradescope must still get
 * a results.json it can read. Exposes a bug.
 */
static void json_valid_with_bytes_that_are_not_utf8(void **state)
{
	struct fixture *fx = *state;
	struct g_result *r = &fx->rows[2].res;
	char line[3 * G_DETAIL_LEN];
	json_t *root;

	line[0] = '\0';
	while (strlen(line) + 3 < sizeof(line))
		strcat(line, "\xe2\x80\x98"); /* U+2018, 3 bytes */
	g_detail(r, "%s", line); /* 319 bytes: the last quote cut short */
	g_detail(r, "a program printed \xff\xfe then crashed");
	/* Bytes no UTF-8 text has, even followed by continuation bytes:
	 * leads 0xf5-0xff and 0xc0-0xc1, a surrogate, an overlong. */
	g_detail(r, "leads \xf5\x80\x80\x80 \xff\x80\x80 "
		    "\xf8\x88\x80\x80\x80 \xc0\x80 surrogate \xed\xa0\x80 "
		    "overlong \xe0\x80\xaf");
	root = load_json(fx);
	/* What was valid stays, next to the replacements. */
	assert_contains(json_string_value(json_object_get(json_array_get(
		json_object_get(root, "tests"), 2), "output")),
		"a program printed ");
	json_decref(root);
}

/* ---- escaping ---- */

static void json_every_ascii_byte_round_trips(void **state)
{
	struct fixture *fx = *state;
	struct g_result *r = &fx->rows[3].res;
	json_t *root;
	const char *out;

	/* Controls, quote, backslash, DEL: all must decode as written. */
	for (int c = 1; c < 128; c++)
		r->details[0][c - 1] = (char)c;
	r->details[0][127] = '\0';
	r->ndetails = 1;
	root = load_json(fx);
	out = json_string_value(json_object_get(json_array_get(
		json_object_get(root, "tests"), 3), "output"));
	assert_contains(out, r->details[0]);
	json_decref(root);
}

/* ---- results.tsv ---- */

static int count_char(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static void tsv_header_and_rows(void **state)
{
	struct fixture *fx = *state;
	static const char head[] = "lab\texercise\tverdict\tpoints\t"
				   "max_points\t";
	static const char *const verdicts[NROWS] = {
		"PASS", "WRONG", "COMPILE_ERROR", "NOT_IMPLEMENTED"
	};
	char path[600], *text, *line, *save = NULL;
	int n = 0, tabs = -1;

	unit_path(path, sizeof(path), fx->dir, "results.tsv");
	assert_int_equal(report_tsv(path, &fx->run), 0);
	text = unit_read(path);
	assert_non_null(text);
	assert_int_equal(count_char(text, '\n'), NROWS + 1);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		char lab[64], ex[64], verdict[64];
		double points, max;

		/* Every line has the header's number of columns. */
		if (tabs < 0)
			tabs = count_char(line, '\t');
		assert_int_equal(count_char(line, '\t'), tabs);
		if (n == 0) {
			assert_int_equal(strncmp(line, head, strlen(head)), 0);
			continue;
		}
		assert_int_equal(sscanf(line, "%63[^\t]\t%63[^\t]\t%63[^\t]\t"
					"%lf\t%lf", lab, ex, verdict, &points,
					&max), 5);
		assert_string_equal(lab, fx->rows[n - 1].spec.lab);
		assert_string_equal(ex, fx->rows[n - 1].spec.name);
		assert_string_equal(verdict, verdicts[n - 1]);
		assert_near(points, fx->rows[n - 1].res.points, 1e-9);
		assert_near(max, fx->rows[n - 1].res.max_points, 1e-9);
	}
	assert_int_equal(n, NROWS + 1);
	assert_int_equal(tabs, 15);
	free(text);
}

/* ---- the human table ---- */

static void table_names_verdicts_total(void **state)
{
	struct fixture *fx = *state;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	report_table(m, &fx->run);
	fclose(m);
	for (int i = 0; i < NROWS; i++) {
		char name[2 * G_NAME_LEN + 2];

		snprintf(name, sizeof(name), "%s/%s", fx->rows[i].spec.lab,
			 fx->rows[i].spec.name);
		assert_contains(buf, name);
		assert_contains(buf, wb_verdict_label(fx->rows[i].res.verdict));
	}
	assert_contains(buf, "NOT IMPLEMENTED");
	assert_contains(buf, "COMPILE ERROR");
	assert_contains(buf, "85.9/100"); /* the PASS row's points */
	assert_contains(buf, "total: 85.9 / 310 points");
	assert_contains(buf, "SEED=1234");
	/* Details follow under their exercise. */
	assert_contains(buf, "05-reduction/argmax: WRONG\n");
	assert_contains(buf, compile_msg);
	free(buf);
}

/* ---- written whole or not at all ---- */

static void report_json_missing_directory(void **state)
{
	struct fixture *fx = *state;
	char path[600];

	unit_path(path, sizeof(path), fx->dir, "no/such/results.json");
	assert_int_equal(report_json(path, &fx->run), -1);
	assert_int_equal(report_tsv(path, &fx->run), -1);
	assert_int_equal(unit_dir_entries(fx->dir), 0); /* nothing left */
}

static void report_json_unrenamable_leaves_no_tmp(void **state)
{
	struct fixture *fx = *state;
	char path[600];
	struct stat st;

	/* The target is a directory: the rename fails after the write. */
	unit_path(path, sizeof(path), fx->dir, "results.json");
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(report_json(path, &fx->run), -1);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(unit_dir_entries(fx->dir), 1); /* no .tmp file */
	rmdir(path);
}

static void report_json_replaces_old_file(void **state)
{
	struct fixture *fx = *state;
	char path[600];
	FILE *f;
	json_t *root;

	unit_path(path, sizeof(path), fx->dir, "results.json");
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"score\": 999, \"stale\": true, \"padding\": \"", f);
	for (int i = 0; i < 20000; i++)
		fputc('x', f);
	fputs("\"}\n", f);
	fclose(f);
	root = load_json(fx);
	assert_null(json_object_get(root, "stale"));
	assert_near(json_number_value(json_object_get(root, "score")), 85.9,
		    1e-9);
	json_decref(root);
	assert_int_equal(unit_dir_entries(fx->dir), 1);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(json_parses_with_gradescope_fields),
		T(json_score_is_sum_of_points),
		T(json_one_test_per_row),
		T(json_output_keeps_details_verbatim),
		T(json_header_names_device_and_seed),
		T(json_empty_run),
		T(json_valid_with_bytes_that_are_not_utf8),
		T(json_every_ascii_byte_round_trips),
		T(tsv_header_and_rows),
		T(table_names_verdicts_total),
		T(report_json_missing_directory),
		T(report_json_unrenamable_leaves_no_tmp),
		T(report_json_replaces_old_file),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
