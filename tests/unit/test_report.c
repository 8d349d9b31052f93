/* SPDX-License-Identifier: MIT */
/*
 * test_report.c - grader/report/report.c, and grader/report/formats.c's first two
 * writers: the Gradescope results.json (checked with jansson against the
 * fields Gradescope reads), the TSV for scripts (results.tsv's first 16
 * columns, then the speed of light's), the human table (80 columns,
 * whatever the names and verdicts) and the figures under it (the tiers as
 * speedups on this GPU, what they stand for and where they come from),
 * JSON string escaping, and that report files are written whole or not at
 * all.
 */
#include "unit.h"

#include <sys/stat.h>

#include "grade.h"
#include "record.h"

#include "formats.h"
#include "report.h"
#include "score.h"
#include <jansson.h>

#define NROWS 5

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
	snprintf(s.tiers_from, sizeof(s.tiers_from), "lab");
	if (speed) {
		/* A lab's tiers: shares of the speed of light (lab 05). */
		s.tiers[0] = (struct g_tier){ 0.30, 20 };
		s.tiers[1] = (struct g_tier){ 0.54, 40 };
		s.tiers[2] = (struct g_tier){ 0.78, 60 };
		s.ntiers = 3;
		s.tier_unit = G_TIERS_SHARE;
		snprintf(s.ideal, sizeof(s.ideal), "dram");
	}
	return s;
}

/* The same, under a course's fixed speedups. */
static struct g_spec course_spec(const char *lab, const char *name)
{
	struct g_spec s = spec(lab, name, 1);

	s.tiers[0] = (struct g_tier){ 2, 20 };
	s.tiers[1] = (struct g_tier){ 3.5, 40 };
	s.tiers[2] = (struct g_tier){ 5.2, 60 };
	s.tier_unit = G_TIERS_SPEEDUP;
	snprintf(s.tiers_from, sizeof(s.tiers_from), "Fall course, c.conf");
	return s;
}

static void set_time(struct g_timing *t, double us)
{
	*t = (struct g_timing){ .have = 1, .median_us = us, .q1_us = us * 0.99,
				.q3_us = us * 1.01, .samples = 20 };
}

/* What a runner's record says of a timed PASS (result.h): medians, the
 * paired ratios, the speed of light, the rounds. */
static void timed_pass(struct g_result *r, double naive_us, double us,
		       double ideal_us)
{
	double sp = naive_us / us, q = ideal_us / us;

	r->verdict = WB_V_PASS;
	r->complete = 1;
	set_time(&r->t[G_NAIVE], naive_us);
	set_time(&r->t[G_STUDENT], us);
	set_time(&r->t[G_IDEAL], ideal_us);
	r->r_speedup = (struct g_ratio){ 1, sp, sp * 0.975, sp * 1.025 };
	r->r_share = (struct g_ratio){ 1, q, q * 0.975, q * 1.025 };
	r->naive_ideal = naive_us / ideal_us;
	snprintf(r->sol, sizeof(r->sol), "dram");
	r->rounds = 31;
	r->verified = 3;
	r->mhz_min = 1755;
	r->mhz_med = r->mhz_max = 1980;
	r->bytes = 1e6;
}

/* PASS speed, WRONG with a nasty detail, COMPILE ERROR, NOT IMPLEMENTED,
 * PASS under a course's speedups. */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct g_result *r;

	if (!fx || !(fx->dir = unit_tmpdir()))
		return -1;
	fx->rows[0].spec = spec("05-reduction", "sum", 1);
	/* 4x over the naive at 40% of the speed of light, R = 10. */
	timed_pass(&fx->rows[0].res, 100, 25, 10);

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

	fx->rows[4].spec = course_spec("07-fusion", "gelu");
	fx->rows[4].course_changed = 1;
	timed_pass(&fx->rows[4].res, 100, 25, 10);

	for (int i = 0; i < NROWS; i++)
		g_score(&fx->rows[i].spec, &fx->rows[i].res, 400, 0);
	fx->run = (struct g_run){ .source = "labs", .seed = 1234,
				  .mode = G_GRADE, .rows = fx->rows,
				  .nrows = NROWS, .course = "c.conf",
				  .course_name = "Fall course",
				  .course_changes = "  07-fusion/gelu: ..." };
	snprintf(fx->run.dev.name, sizeof(fx->run.dev.name), "%s",
		 "NVIDIA H100 80GB HBM3");
	fx->run.dev.cc = 90;
	fx->run.dev.copy_gbps = 400;
	fx->run.dev.launch_us = 2.3;
	fx->run.dev.launch_sync_us = 6.5;
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
	json_t *root = load_json(fx), *tests, *dev;

	assert_true(json_is_object(root));
	assert_true(json_is_number(json_object_get(root, "score")));
	assert_true(json_is_string(json_object_get(root, "output")));
	assert_string_equal(json_string_value(json_object_get(root,
							      "visibility")),
			    "visible");
	/* The device, for scripts, and its launch cost in the header text
	 * beside the copy bandwidth (issue 17: small shapes). */
	dev = json_object_get(json_object_get(root, "extra_data"), "device");
	assert_true(json_is_object(dev));
	assert_string_equal(str(dev, "name"), "NVIDIA H100 80GB HBM3");
	assert_near(json_number_value(json_object_get(dev, "copy_gbps")), 400, 0);
	assert_near(json_number_value(json_object_get(dev, "launch_us")), 2.3,
		    0);
	assert_near(json_number_value(json_object_get(dev, "launch_sync_us")),
		    6.5, 0);
	assert_non_null(strstr(str(root, "output"),
			       "copy 400 GB/s, a kernel launch 2.3 us measured "
			       "now"));
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
	assert_near(max, 100 + 100 + 100 + 10 + 100, 1e-9);
	/* Only the PASSes earn: 40% of the speed of light (68.3) and 4x
	 * under the course's speedups (85.9). */
	assert_near(sum, 68.3 + 0 + 0 + 0 + 85.9, 1e-9);
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
	/* A timed PASS says how fast, and what the next tier needs here:
	 * 54% of the speed of light, 5.4x over this naive. */
	out = json_string_value(json_object_get(json_array_get(tests, 0),
						"output"));
	assert_contains(out, "speedup 4.00x");
	assert_contains(out, "next tier at 5.40x");
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

/* The columns of results.tsv: the first 16 as they always were, then the
 * speed of light's, at the end where old scripts never look. */
static const char *const tsv_columns[] = {
	"lab", "exercise", "verdict", "points", "max_points", "speedup",
	"time_us", "naive_us", "peer_us", "gbps", "pct_copy", "tier",
	"tflops", "pct_peer", "settings", "technique",
	"share", "share_lo", "share_hi", "ideal_us", "sol", "tiers_from",
	"tier_speedups", "audit", "wall_s", "ref_s", "phases",
};

#define NCOLS (int)(sizeof(tsv_columns) / sizeof(tsv_columns[0]))

/* Split line at tabs in place, empty fields kept; the number of fields. */
static int split_fields(char *line, char **f, int max)
{
	int n = 0;

	for (char *p = line; n < max; p++) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p = '\0';
	}
	return n;
}

static void tsv_header_and_rows(void **state)
{
	struct fixture *fx = *state;
	static const char *const verdicts[NROWS] = {
		"PASS", "WRONG", "COMPILE_ERROR", "NOT_IMPLEMENTED", "PASS"
	};
	char path[600], *text, *line, *save = NULL, *f[NCOLS + 4];
	int n = 0;

	unit_path(path, sizeof(path), fx->dir, "results.tsv");
	assert_int_equal(report_tsv(path, &fx->run), 0);
	text = unit_read(path);
	assert_non_null(text);
	assert_int_equal(count_char(text, '\n'), NROWS + 1);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), n++) {
		char *end;

		/* Every line has the header's number of fields. */
		assert_int_equal(count_char(line, '\t'), NCOLS - 1);
		assert_int_equal(split_fields(line, f, NCOLS + 4), NCOLS);
		if (n == 0) {
			for (int c = 0; c < NCOLS; c++)
				assert_string_equal(f[c], tsv_columns[c]);
			continue;
		}
		for (int c = 0; c < NCOLS; c++)
			if (!*f[c])
				fail_msg("row %d: column %s is empty", n,
					 tsv_columns[c]);
		assert_string_equal(f[0], fx->rows[n - 1].spec.lab);
		assert_string_equal(f[1], fx->rows[n - 1].spec.name);
		assert_string_equal(f[2], verdicts[n - 1]);
		assert_near(strtod(f[3], &end), fx->rows[n - 1].res.points,
			    1e-9);
		assert_near(strtod(f[4], &end), fx->rows[n - 1].res.max_points,
			    1e-9);
	}
	assert_int_equal(n, NROWS + 1);
	free(text);
}

/* Row `row` (1: the first exercise) of results.tsv, split into f. */
static char *tsv_row(struct fixture *fx, int row, char **f)
{
	char path[600], *text, *l;

	unit_path(path, sizeof(path), fx->dir, "results.tsv");
	assert_int_equal(report_tsv(path, &fx->run), 0);
	text = unit_read(path);
	assert_non_null(text);
	l = text;
	for (int i = 0; i < row; i++)
		l = strchr(l, '\n') + 1;
	*strchr(l, '\n') = '\0';
	assert_int_equal(split_fields(l, f, NCOLS), NCOLS);
	return text;
}

static void tsv_speed_of_light_columns(void **state)
{
	struct fixture *fx = *state;
	char *f[NCOLS], *text;

	/* The lab's shares: 40% (39-41%) of a 10 us ideal, each tier as a
	 * speedup over this naive. */
	text = tsv_row(fx, 1, f);
	assert_string_equal(f[5], "4.0000");
	assert_string_equal(f[14], "lab");
	assert_string_equal(f[16], "0.4000");
	assert_string_equal(f[17], "0.3900");
	assert_string_equal(f[18], "0.4100");
	assert_string_equal(f[19], "10.000");
	assert_string_equal(f[20], "dram");
	assert_string_equal(f[21], "lab");
	assert_string_equal(f[22], "3.000 5.400 7.800");
	assert_string_equal(f[23], "-");
	free(text);
	/* Correctness only, never timed. */
	text = tsv_row(fx, 4, f);
	assert_string_equal(f[16], "0.0000");
	assert_string_equal(f[20], "-");
	assert_string_equal(f[22], "-");
	free(text);
	/* A course's speedups, and where they come from. */
	text = tsv_row(fx, 5, f);
	assert_string_equal(f[14], "c.conf");
	assert_string_equal(f[21], "Fall course, c.conf");
	assert_string_equal(f[22], "2.000 3.500 5.200");
	free(text);
}

/* ---- the human table ---- */

/* report_table's text (free it). */
static char *table_text(const struct g_run *run)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	report_table(m, run);
	assert_int_equal(fclose(m), 0);
	return buf;
}

static void table_names_verdicts_total(void **state)
{
	struct fixture *fx = *state;
	char *buf = table_text(&fx->run);

	for (int i = 0; i < NROWS; i++) {
		char name[2 * G_NAME_LEN + 2];

		snprintf(name, sizeof(name), "%s/%s", fx->rows[i].spec.lab,
			 fx->rows[i].spec.name);
		assert_contains(buf, name);
		assert_contains(buf, wb_verdict_label(fx->rows[i].res.verdict));
	}
	assert_contains(buf, "NOT IMPLEMENTED");
	assert_contains(buf, "COMPILE ERROR");
	assert_contains(buf, "68.3/100"); /* the PASS rows' points */
	assert_contains(buf, "85.9/100");
	assert_contains(buf, "total: 154.2 / 410 points");
	assert_contains(buf, "SEED=1234");
	/* Details follow under their exercise. */
	assert_contains(buf, "05-reduction/argmax: WRONG\n");
	assert_contains(buf, compile_msg);
	free(buf);
}

/* The header names the columns, in order, and each row sits under them. */
static void table_columns(void **state)
{
	static const char *const heads[] = {
		"exercise", "verdict", "time", "speedup", "%SOL", "tier",
		"points",
	};
	struct fixture *fx = *state;
	char *buf = table_text(&fx->run), *head = buf + 1, *row, *p = head;

	assert_int_equal(buf[0], '\n');
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		char *at = strstr(p, heads[i]);

		if (!at || at > strchr(head, '\n'))
			fail_msg("header \"%.80s\" lacks %s after column %d",
				 head, heads[i], (int)(p - head));
		p = at + strlen(heads[i]);
	}
	/* The PASS row: 25 us, 4x, 40% of the speed of light, tier 1/3. */
	row = strchr(head, '\n') + 1;
	assert_int_equal(strncmp(row, "05-reduction/sum ", 17), 0);
	assert_contains(row, "PASS");
	assert_contains(row, "25.0 us");
	assert_contains(row, "4.00x");
	assert_contains(row, "40%");
	assert_contains(row, "1/3");
	/* The verdict column starts where the header's does. */
	assert_int_equal(strstr(row, "PASS") - row,
			 strstr(head, "verdict") - head);
	free(buf);
}

/* What the lines under the table say of a timed exercise: the naive, the
 * interval, the share, GB/s, the tiers as speedups on this GPU with what
 * each stands for, and where the tiers come from. */
static void table_figures_under_it(void **state)
{
	struct fixture *fx = *state;
	char *buf = table_text(&fx->run);

	/* Folded at 80 columns, the rest of a line two columns in. */
	assert_contains(buf, "05-reduction/sum: PASS: 25.0 us vs naive 100.0 "
			     "us, speedup 4.00x (95%:\n  3.90-4.10x), 40% of "
			     "the speed of light, 40 GB/s, tier 1 of 3; next "
			     "tier at\n  5.40x\n");
	assert_contains(buf, "tiers on this GPU: 3.00x (30% of the speed of "
			     "light) = 20 points; 5.40x (54% of\n  the speed of "
			     "light) = 40 points; 7.80x (78% of the speed of "
			     "light) = 60 points\n  [the lab's tiers]");
	assert_contains(buf, "timed in 31 rounds (3 outputs checked)");
	/* A course's speedups stand for themselves. */
	assert_contains(buf, "tiers on this GPU: 2.00x = 20 points; 3.50x = 40 "
			     "points; 5.20x = 60 points [Fall\n  course, c.conf]");
	free(buf);
}

/* Longest line among lines [from, to) of text; fails on a shorter text. */
static size_t widest(const char *text, int from, int to, int *which)
{
	size_t most = 0;
	const char *l = text;

	for (int i = 0; i < to; i++) {
		const char *nl = strchr(l, '\n');

		assert_non_null(nl);
		if (i >= from && (size_t)(nl - l) > most) {
			most = (size_t)(nl - l);
			*which = i;
		}
		l = nl + 1;
	}
	return most;
}

/*
 * The table fits 80 columns (report.c): every verdict, names as long as a
 * lab and an exercise may be (G_NAME_LEN), and the widest figures an
 * honest run gives: a time in seconds, a SUSPICIOUS share, three-digit
 * speedups, points to a tenth.
 */
static void table_fits_80_columns(void **state)
{
	static struct g_row rows[WB_V_COUNT + 2];
	struct fixture *fx = *state;
	struct g_run run = fx->run;
	char *buf;
	int n = 0, which = -1;
	size_t most;

	for (int v = 0; v < WB_V_COUNT; v++, n++) {
		struct g_row *row = &rows[n];

		memset(row, 0, sizeof(*row));
		row->spec = spec("08-a-lab-with-a-long-name-for-its-folder",
				 "x", v % 3 != 0);
		memset(row->spec.name, 'e', G_NAME_LEN - 1);
		row->spec.name[G_NAME_LEN - 1] = '\0';
		if (v % 2)
			memset(row->spec.lab, 'l', G_NAME_LEN - 1);
		if (row->spec.speed) {
			/* 2.5 s against a 2.5 ms naive; or 250x, at 999%. */
			if (v % 2)
				timed_pass(&row->res, 2500, 2.5e6, 1000);
			else
				timed_pass(&row->res, 2500, 9.999, 99.9);
		}
		row->res.verdict = (enum wb_verdict)v;
		g_score(&row->spec, &row->res, 400, 0);
		row->res.points = 99.9;
		row->res.max_points = 100.5;
	}
	/* A short name and nothing measured, for the other extreme. */
	memset(&rows[n], 0, sizeof(rows[n]));
	rows[n].spec = spec("01-warps", "x", 0);
	rows[n++].res.verdict = WB_V_CRASH;
	run.rows = rows;
	run.nrows = n;
	buf = table_text(&run);
	/* Line 0 is blank, 1 the header, then one line per row. */
	most = widest(buf, 1, 2 + n, &which);
	if (most > 80)
		fail_msg("line %d of the table is %zu columns", which, most);
	/* Each row still says which exercise it is, and its verdict. */
	for (int i = 0, line = 2; i < n; i++, line++) {
		const char *l = buf;
		char want[32];

		for (int k = 0; k < line; k++)
			l = strchr(l, '\n') + 1;
		snprintf(want, sizeof(want), "%.20s", rows[i].spec.lab);
		assert_int_equal(strncmp(l, want, strlen(want)), 0);
		snprintf(want, sizeof(want), " %s ",
			 wb_verdict_label(rows[i].res.verdict));
		if (!strstr(l, want) || strstr(l, want) > strchr(l, '\n'))
			fail_msg("row %d lacks its verdict: %.100s", i, l);
	}
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
	assert_near(json_number_value(json_object_get(root, "score")), 154.2,
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
		T(tsv_speed_of_light_columns),
		T(table_names_verdicts_total),
		T(table_columns),
		T(table_figures_under_it),
		T(table_fits_80_columns),
		T(report_json_missing_directory),
		T(report_json_unrenamable_leaves_no_tmp),
		T(report_json_replaces_old_file),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
