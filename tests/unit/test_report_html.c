/* SPDX-License-Identifier: MIT */
/*
 * test_report_html.c - report.html and what it is drawn from: report.run
 * written and read back field for field (grader/report/runfile.c), results.tsv
 * and a recorded calibration's all.tsv read back, files that are not
 * either refused; the history appended in one write per file and never
 * rewritten, parsed, tabled in 80 columns (grader/report/history.c); and the page
 * itself, where no text a submission controls can become markup
 * (grader/report/html.c, grader/report/chart.c).
 */
#include "unit.h"

#include <sys/stat.h>
#include <sys/wait.h>

#include "formats.h"
#include "grade.h"
#include "history.h"
#include "html.h"
#include "record.h"
#include "report.h"
#include "runfile.h"
#include "score.h"
#include "spec_fixture.h"

#define NROWS 4

/* What a hostile submission might print or name a folder: markup, an
 * attribute break-out, a quote, tab, newline, backslash, a control byte
 * and a byte that is not UTF-8. */
static const char evil[] =
	"<script>alert(1)</script>\"><img src=x onerror=alert(2)>'\t\\n\n"
	"</pre><b>x</b> \x01 \xff &amp;";

struct fixture {
	char *dir;
	struct g_row rows[NROWS];
	struct g_run run;
};

static void set_time(struct g_timing *t, double us)
{
	*t = (struct g_timing){ .have = 1, .median_us = us, .q1_us = us * 0.99,
				.q3_us = us * 1.01, .samples = 31 };
}

/* spec_fixture.h's, with a title and where its tiers come from. */
static struct g_spec spec(const char *lab, const char *name, int speed)
{
	struct g_spec s = unit_spec(lab, name, speed);

	snprintf(s.title, sizeof(s.title), "the %s exercise", name);
	snprintf(s.tiers_from, sizeof(s.tiers_from), "lab");
	return s;
}

/* sum PASS at 5x (memory-bound), matmul PASS (FLOPs, a library peer),
 * argmax WRONG with evil diagnostics, gelu NOT IMPLEMENTED. */
static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	struct g_row *w;

	if (!fx || !(fx->dir = unit_tmpdir()))
		return -1;
	w = fx->rows;
	w[0].spec = spec("05-reduction", "sum", 1);
	w[0].res.verdict = WB_V_PASS;
	set_time(&w[0].res.t[G_NAIVE], 500);
	set_time(&w[0].res.t[G_STUDENT], 100);
	set_time(&w[0].res.t[G_IDEAL], 90);
	snprintf(w[0].res.sol, sizeof(w[0].res.sol), "dram");
	w[0].res.bytes = 256e6;
	g_detail(&w[0].res, "technique: ok (shuffles)");
	g_detail(&w[0].res, "sanitizers: memcheck, racecheck and synccheck found "
			    "nothing at the small sizes");
	w[1].spec = spec("04-tiling", "matmul", 1);
	w[1].res.verdict = WB_V_PASS;
	set_time(&w[1].res.t[G_NAIVE], 44000);
	set_time(&w[1].res.t[G_STUDENT], 3100);
	set_time(&w[1].res.t[G_PEER], 2700);
	w[1].res.bytes = 201326592;
	w[1].res.flops = 137438953472.0;
	w[2].spec = spec("05-reduction", "argmax", 1);
	w[2].res.verdict = WB_V_WRONG;
	g_detail(&w[2].res, "%s", evil);
	w[3].spec = spec("07-fusion", "gelu", 1);
	w[3].res.verdict = WB_V_NOT_IMPLEMENTED;
	for (int i = 0; i < NROWS; i++)
		g_score(&w[i].spec, &w[i].res, 3000, 3350);
	fx->run = (struct g_run){ .source = "labs", .seed = 4242, .mode = G_GRADE,
				  .rows = fx->rows, .nrows = NROWS };
	snprintf(fx->run.dev.name, sizeof(fx->run.dev.name), "NVIDIA H100 80GB HBM3");
	fx->run.dev.cc = 90;
	fx->run.dev.sms = 132;
	fx->run.dev.copy_gbps = 3000;
	fx->run.dev.dram_gbps = 3350;
	fx->run.dev.fp32_tflops = 66.9;
	fx->run.dev.launch_us = 2.5;
	fx->run.dev.launch_sync_us = 7;
	snprintf(fx->run.condition, sizeof(fx->run.condition),
		 "GPU at start: 35 C\nGPU at end: 52 C");
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

/* fn's output for run, as a string (malloc'd). noinline: inlined, gcc 12
 * takes the memstream's buffer for a pointer to the local that held it. */
static __attribute__((noinline)) char *print_run(void (*fn)(FILE *, const struct g_run *),
		       const struct g_run *run)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	assert_non_null(m);
	fn(m, run);
	assert_int_equal(fclose(m), 0);
	return text;
}

static void html_of_run(FILE *f, const struct g_run *run)
{
	html_page(f, run, NULL);
}

/* ---- report.run --------------------------------------------------------- */

static void runfile_reads_back_what_it_wrote(void **state)
{
	struct fixture *fx = *state;
	char *once = print_run(runfile_print, &fx->run), *again, err[256];
	struct runfile rf;

	assert_int_equal(runfile_parse(once, NULL, &rf, err, sizeof(err)), 0);
	assert_string_equal(rf.from, "report data");
	assert_int_equal(rf.run.nrows, NROWS);
	assert_int_equal(rf.run.seed, 4242);
	assert_string_equal(rf.run.source, "labs");
	assert_string_equal(rf.run.dev.name, "NVIDIA H100 80GB HBM3");
	assert_near(rf.run.dev.fp32_tflops, 66.9, 0);
	assert_near(rf.run.dev.launch_us, 2.5, 0);
	assert_near(rf.run.dev.launch_sync_us, 7, 0);
	assert_string_equal(rf.run.condition, fx->run.condition);
	/* Every byte of the hostile detail survives the escaping. */
	assert_string_equal(rf.run.rows[2].res.details[0], evil);
	assert_int_equal(rf.run.rows[2].res.verdict, WB_V_WRONG);
	assert_near(rf.run.rows[0].res.speedup, fx->rows[0].res.speedup, 0);
	assert_near(rf.run.rows[0].res.at[2], fx->rows[0].res.at[2], 0);
	assert_near(rf.run.rows[1].res.flops, 137438953472.0, 0);
	assert_int_equal(rf.run.rows[1].spec.ntiers, 3);
	/* Written again, it is the same file: no field is lost. */
	free(once);
	once = print_run(runfile_print, &fx->run);
	again = print_run(runfile_print, &rf.run);
	assert_string_equal(again, once);
	free(once);
	free(again);
	/* And make report draws the page the grader drew. */
	once = print_run(html_of_run, &fx->run);
	again = print_run(html_of_run, &rf.run);
	assert_string_equal(again, once);
	free(once);
	free(again);
	runfile_free(&rf);
}

static void runfile_refuses_what_it_cannot_read(void **state)
{
	struct fixture *fx = *state;
	char *text = print_run(runfile_print, &fx->run), err[256], *cut;
	char junk[] = "hello\nworld\n";
	struct runfile rf;

	/* Cut short: no "end" line. */
	cut = strstr(text, "\nend\n");
	assert_non_null(cut);
	cut[1] = '\0';
	assert_int_equal(runfile_parse(text, NULL, &rf, err, sizeof(err)), -1);
	assert_contains(err, "ends early");
	runfile_free(&rf);
	free(text);
	/* A key it does not know (a newer grader's, or a typo). */
	text = strdup(RUNFILE_MAGIC "\nrun.seed\t1\nrun.nonsense\t2\nend\n");
	assert_int_equal(runfile_parse(text, NULL, &rf, err, sizeof(err)), -1);
	assert_contains(err, "line 3");
	runfile_free(&rf);
	free(text);
	/* Not a results file at all. */
	assert_int_equal(runfile_parse(junk, NULL, &rf, err, sizeof(err)), -1);
	runfile_free(&rf);
}

/* ---- results.tsv and all.tsv -------------------------------------------- */

static void results_tsv_reads_back(void **state)
{
	struct fixture *fx = *state;
	char path[600], err[256];
	struct runfile rf;

	unit_path(path, sizeof(path), fx->dir, "results.tsv");
	assert_int_equal(report_tsv(path, &fx->run), 0);
	assert_int_equal(runfile_read(path, NULL, &rf, err, sizeof(err)), 0);
	assert_string_equal(rf.from, "results.tsv");
	assert_int_equal(rf.run.nrows, NROWS);
	for (int i = 0; i < NROWS; i++) {
		const struct g_result *a = &fx->rows[i].res, *b = &rf.run.rows[i].res;

		assert_int_equal(b->verdict, a->verdict);
		assert_near(b->points, a->points, 1e-9);
		assert_near(b->speedup, a->speedup, 1e-4);
	}
	/* The bytes are the GB/s times the time (both rounded in the file). */
	assert_near(rf.run.rows[0].res.bytes, 256e6, 256e6 * 1e-3);
	assert_near(rf.run.rows[1].res.flops, 137438953472.0, 137438953472.0 * 1e-3);
	/* The copy bandwidth is the GB/s over the %copy. */
	assert_near(rf.run.dev.copy_gbps, 3000, 3000 * 0.01);
	assert_near(rf.run.rows[0].res.at[1], fx->rows[0].res.at[1], 1e-3);
	runfile_free(&rf);
}

/* The recording tests/calibrate holds: 21 solutions, then ladder steps. */
static void recorded_all_tsv_reads_by_source(void **state)
{
	const char *path = "tests/calibrate/h100-2026-11-25-all.tsv";
	struct runfile rf;
	char err[256];

	(void)state;
	if (access(path, R_OK)) /* the student handout has no recordings */
		skip();
	assert_int_equal(runfile_read(path, NULL, &rf, err, sizeof(err)), 0);
	assert_string_equal(rf.run.source, "solutions");
	assert_int_equal(rf.run.nrows, 21);
	assert_string_equal(rf.run.rows[12].spec.name, "matmul");
	assert_near(rf.run.rows[12].res.speedup, 14.2593, 1e-9);
	assert_near(rf.run.rows[12].res.t[G_IDEAL].median_us, 2662.720, 1e-9);
	assert_contains(rf.notes, "Recorded on an NVIDIA H100");
	assert_true(rf.run.dev.copy_gbps > 2800 && rf.run.dev.copy_gbps < 3000);
	runfile_free(&rf);
	assert_int_equal(runfile_read(path, "ladder/1-sequential", &rf, err,
				      sizeof(err)), 0);
	assert_int_equal(rf.run.nrows, 2);
	assert_near(rf.run.rows[0].res.points, 49.8, 1e-9);
	runfile_free(&rf);
	assert_int_equal(runfile_read(path, "no-such", &rf, err, sizeof(err)), -1);
	runfile_free(&rf);
}

/* ---- the page ------------------------------------------------------------ */

/* No element but the page's own: every '<' is followed by one of ours. */
static void only_our_tags(const char *html)
{
	static const char *const ours[] = {
		"!DOCTYPE", "html", "head", "meta", "title", "style", "body", "h1",
		"h2", "h3", "p", "span", "b", "a ", "table", "tr", "th", "td", "div",
		"pre", "section", "svg", "line", "text", "g ", "circle", "path",
		"rect", "code", "footer", "/",
	};

	for (const char *s = strchr(html, '<'); s; s = strchr(s + 1, '<')) {
		size_t k = 0;

		for (; k < sizeof(ours) / sizeof(ours[0]); k++)
			if (!strncmp(s + 1, ours[k], strlen(ours[k])))
				break;
		if (k == sizeof(ours) / sizeof(ours[0]))
			fail_msg("an element the page does not write: %.40s", s);
	}
}

static void page_escapes_what_a_submission_controls(void **state)
{
	struct fixture *fx = *state;
	char *html;

	/* The folder's name, the exercise's name and its output, all evil. */
	fx->run.source = evil;
	snprintf(fx->rows[3].spec.name, G_NAME_LEN, "%s", "x\"><script>y</script>");
	html = print_run(html_of_run, &fx->run);
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<img"));
	assert_null(strstr(html, "onerror=alert(2)>"));
	assert_contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;");
	assert_contains(html, "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;&#39;");
	assert_contains(html, "&amp;amp;");
	/* The byte that is not UTF-8 and the control byte are replaced. */
	assert_null(strstr(html, "\xff"));
	assert_null(strstr(html, "\x01"));
	/* An id made of the name keeps letters, digits, '-' and '_' only. */
	assert_contains(html, "id=\"ex-07-fusion-x---script-y--script-\"");
	only_our_tags(html);
	free(html);
}

static void page_shows_the_run(void **state)
{
	struct fixture *fx = *state;
	char *html = print_run(html_of_run, &fx->run), total[64];
	double points, max;

	assert_contains(html, "<!DOCTYPE html>");
	assert_null(strstr(html, "<script"));
	/* Nothing fetched: the only address is SVG's namespace, a name. */
	for (const char *s = strstr(html, "http"); s; s = strstr(s + 1, "http"))
		assert_int_equal(strncmp(s, "http://www.w3.org/2000/svg\"", 27), 0);
	assert_null(strstr(html, "<link"));
	assert_null(strstr(html, "url("));
	assert_null(strstr(html, "@import"));
	only_our_tags(html); /* so no <img>, <iframe>, <object> either */
	g_totals(&fx->run, &points, &max);
	snprintf(total, sizeof(total), "Total: %g / %g points", points, max);
	assert_contains(html, total);
	assert_near(max, 400, 0);
	assert_true(points > 100 && points < 200);
	/* The most points to gain: argmax (WRONG, 100), before gelu. */
	assert_contains(html, "Work on next:</b> <a href=\"#ex-05-reduction-argmax\">");
	assert_contains(html, "data-verdict=\"WRONG\"");
	assert_contains(html, "data-verdict=\"NOT_IMPLEMENTED\"");
	assert_contains(html, "data-roof=\"fp32\" data-tflops=\"66.9\"");
	assert_contains(html, "data-roof=\"copy\" data-gbps=\"3000\"");
	/* The launch cost beside the copy bandwidth (issue 17). */
	assert_contains(html, "a kernel launch <span data-launch-us=\"2.5\">"
			"2.5 us</span>");
	assert_contains(html, "<b>Technique</b><pre class=\"tech\">technique: ok");
	assert_contains(html, "<b>Sanitizers</b>");
	assert_contains(html, "GPU at start: 35 C\nGPU at end: 52 C");
	assert_contains(html, "make grade SRC=\"labs\" SEED=4242");
	free(html);
}

/* The roofline's points sit where the axes' ticks say their values are. */
static double attr(const char *s, const char *name)
{
	const char *p = strstr(s, name);

	assert_non_null(p);
	return strtod(p + strlen(name), NULL);
}

static void roofline_points_follow_the_axes(void **state)
{
	struct fixture *fx = *state;
	char *html = print_run(html_of_run, &fx->run);
	const char *svg = strstr(html, "<svg class=\"roofline flops\"");
	const char *t1, *t2, *pt;
	double v1, v2, p1, p2, want;

	assert_non_null(svg);
	/* Two y ticks: log10(value) is linear in the pixel. */
	t1 = strstr(svg, "class=\"ytick\"");
	t2 = strstr(t1 + 1, "class=\"ytick\"");
	v1 = attr(t1, "data-value=\"");
	v2 = attr(t2, "data-value=\"");
	p1 = attr(t1, "data-pos=\"");
	p2 = attr(t2, "data-pos=\"");
	pt = strstr(svg, "data-kind=\"student\"");
	assert_non_null(pt);
	want = fx->rows[1].res.flops / 3100e-6 / 1e12;
	assert_near(attr(pt, "data-y=\""), want, want * 1e-5);
	assert_near(attr(pt, "data-py=\""),
		    p1 + (log10(want) - log10(v1)) / (log10(v2) - log10(v1)) *
			    (p2 - p1), 0.02);
	free(html);
}

/* The solutions' last run gives "solution" points: sum's at its bytes over
 * the solution's time; none on the solutions' own page. */
static void solution_points_come_from_their_run(void **state)
{
	struct fixture *fx = *state;
	static struct g_row srows[NROWS];
	struct g_run sol = fx->run;
	char *html, want[64];

	memcpy(srows, fx->rows, sizeof(srows));
	sol.rows = srows;
	sol.source = "solutions";
	set_time(&srows[0].res.t[G_STUDENT], 92);
	chart_set_solutions(&sol);
	html = print_run(html_of_run, &fx->run);
	snprintf(want, sizeof(want), "data-kind=\"solution\" data-ex=\"sum\" "
		 "data-x=\"0\" data-y=\"%.6g\"", 256e6 / (92 * 1e3));
	assert_contains(html, want);
	assert_contains(html, "The solution took 92.0");
	/* argmax's solution is as WRONG as the student's: no point. */
	assert_null(strstr(html, "data-kind=\"solution\" data-ex=\"argmax\""));
	free(html);
	html = print_run(html_of_run, &sol);
	assert_null(strstr(html, "data-kind=\"solution\""));
	free(html);
	chart_set_solutions(NULL);
}

/* ---- the history ---------------------------------------------------------- */

static void history_appends_and_never_rewrites(void **state)
{
	struct fixture *fx = *state;
	char build[600], src[1400], root[600], path[1400], *first, *second;
	struct hist_entry e[16];
	struct g_run run = fx->run;

	run.nrows = 2; /* sum and matmul, from one root */
	unit_path(root, sizeof(root), fx->dir, "mine");
	unit_path(build, sizeof(build), fx->dir, "build");
	for (int i = 0; i < 2; i++) {
		const struct g_spec *s = &run.rows[i].spec;

		snprintf(src, sizeof(src), "%s/%s", root, s->lab);
		mkdir(root, 0755);
		mkdir(src, 0755);
		snprintf(src, sizeof(src), "%s/%s/%s.cu", root, s->lab, s->name);
		unit_write(src, s->name);
		snprintf(path, sizeof(path), "%s/%s", build, s->lab);
		mkdir(build, 0755);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%s/%s.src", build, s->lab, s->name);
		unit_write(path, src);
	}
	hist_locate(&run, build, "h.tsv");
	snprintf(path, sizeof(path), "%s/h.tsv", root);
	assert_string_equal(run.rows[0].history, path);
	assert_int_equal(strlen(run.rows[0].hash), 16);
	assert_int_equal(hist_append(&run, 1800000000), 0);
	first = unit_read(path);
	assert_int_equal(hist_append(&run, 1800000060), 0);
	second = unit_read(path);
	/* The first attempt's lines are kept as they were. */
	assert_int_equal(strncmp(second, first, strlen(first)), 0);
	assert_int_equal(hist_read(path, "05-reduction", "sum", e, 16), 2);
	assert_string_equal(e[0].time, "2027-01-15T08:00:00Z");
	assert_string_equal(e[1].time, "2027-01-15T08:01:00Z");
	assert_string_equal(e[0].verdict, "PASS");
	assert_near(e[0].speedup, fx->rows[0].res.speedup, 1e-4);
	assert_int_equal(e[0].seed, 4242);
	assert_int_equal(hist_read(path, NULL, NULL, e, 16), 4);
	/* A grader error is not an attempt. */
	run.rows[1].res.verdict = WB_V_ERROR;
	assert_int_equal(hist_append(&run, 1800000120), 0);
	assert_int_equal(hist_read(path, NULL, NULL, e, 16), 5);
	run.rows[1].res.verdict = WB_V_PASS;
	/* At most max: the newest kept. */
	assert_int_equal(hist_read(path, NULL, NULL, e, 3), 3);
	assert_string_equal(e[2].time, "2027-01-15T08:02:00Z");
	free(first);
	free(second);
}

/* Eight graders appending at once: every line whole, none lost. */
static void history_appends_do_not_interleave(void **state)
{
	struct fixture *fx = *state;
	struct g_run run = fx->run;
	char path[400], line[600];
	int lines = 0, status;
	FILE *f;

	unit_path(path, sizeof(path), fx->dir, "h.tsv");
	for (int i = 0; i < NROWS; i++) {
		snprintf(run.rows[i].history, sizeof(run.rows[i].history), "%s", path);
		snprintf(run.rows[i].hash, sizeof(run.rows[i].hash), "%016x", i);
	}
	for (int p = 0; p < 8; p++)
		if (fork() == 0) {
			for (int k = 0; k < 50; k++)
				if (hist_append(&run, 1800000000 + p))
					_exit(1);
			_exit(0);
		}
	for (int p = 0; p < 8; p++) {
		wait(&status);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		struct hist_entry e;

		assert_int_equal(hist_parse(line, &e), 0);
		lines++;
	}
	fclose(f);
	assert_int_equal(lines, 8 * 50 * NROWS);
}

static void history_hash_follows_the_file(void **state)
{
	struct fixture *fx = *state;
	char path[600], a[20], b[20], c[20];

	unit_path(path, sizeof(path), fx->dir, "k.cu");
	unit_write(path, "__global__ void k() {}\n");
	assert_int_equal(hist_hash_file(path, a), 0);
	assert_int_equal(hist_hash_file(path, b), 0);
	unit_write(path, "__global__ void k() { }\n");
	assert_int_equal(hist_hash_file(path, c), 0);
	assert_string_equal(a, b);
	assert_string_not_equal(a, c);
	assert_int_equal(hist_hash_file("/nonexistent/k.cu", a), -1);
}

static void history_table_fits_80_columns(void **state)
{
	struct hist_entry e[2];
	char line[] = "2026-11-27T11:02:33Z\t05-reduction\targmax_with_a_long_name\t"
		      "0123456789abcdef\tNOT_IMPLEMENTED\t123.4567\t12345.6\t100\t100\t7\n";
	char line2[] = "2026-11-27T11:02:34Z\t05-reduction\tsum\tfedcba9876543210\t"
		       "PASS\t5.2340\t2211.0\t96.6\t100\t7\n";
	char *text = NULL, *save = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	(void)state;
	assert_int_equal(hist_parse(line, &e[0]), 0);
	assert_int_equal(hist_parse(line2, &e[1]), 0);
	hist_table(m, e, 2);
	fclose(m);
	assert_contains(text, "11-27 11:02 05-reduction/sum ");
	assert_contains(text, "fedcba9 PASS");
	assert_contains(text, "5.23x  2211 96.6/100");
	assert_contains(text, "NOT IMPLEMENTED");
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		assert_true(strlen(l) <= 80);
	free(text);
}

static void history_chart_has_a_column_per_version(void **state)
{
	struct fixture *fx = *state;
	const char *hashes[5] = { "a", "a", "b", "a", "a" };
	struct hist_entry e[5];
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int versions = 0;

	for (int i = 0; i < 5; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		snprintf(e[i].hash, sizeof(e[i].hash), "%s", hashes[i]);
		snprintf(e[i].verdict, sizeof(e[i].verdict), "%s", i == 2 ? "WRONG" : "PASS");
		e[i].speedup = i == 2 ? 0 : 2 + i;
	}
	chart_history(m, &fx->rows[0], e, 5);
	fclose(m);
	/* a a | b | a a: three versions; the regrade at v1 shows its spread. */
	for (const char *s = strstr(text, ">v"); s; s = strstr(s + 1, ">v"))
		versions++;
	assert_int_equal(versions, 3);
	assert_contains(text, "(5 graded, 3 versions)");
	assert_contains(text, "data-verdict=\"WRONG\"");
	assert_contains(text, "data-value=\"4.0000\""); /* tier 2 at 4x */
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(runfile_reads_back_what_it_wrote, setup, teardown),
		cmocka_unit_test_setup_teardown(runfile_refuses_what_it_cannot_read, setup, teardown),
		cmocka_unit_test_setup_teardown(results_tsv_reads_back, setup, teardown),
		cmocka_unit_test(recorded_all_tsv_reads_by_source),
		cmocka_unit_test_setup_teardown(page_escapes_what_a_submission_controls, setup, teardown),
		cmocka_unit_test_setup_teardown(page_shows_the_run, setup, teardown),
		cmocka_unit_test_setup_teardown(roofline_points_follow_the_axes, setup, teardown),
		cmocka_unit_test_setup_teardown(solution_points_come_from_their_run, setup, teardown),
		cmocka_unit_test_setup_teardown(history_appends_and_never_rewrites, setup, teardown),
		cmocka_unit_test_setup_teardown(history_appends_do_not_interleave, setup, teardown),
		cmocka_unit_test_setup_teardown(history_hash_follows_the_file, setup, teardown),
		cmocka_unit_test(history_table_fits_80_columns),
		cmocka_unit_test_setup_teardown(history_chart_has_a_column_per_version, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
