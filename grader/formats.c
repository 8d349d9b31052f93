/* SPDX-License-Identifier: MIT */
/*
 * formats.c - GitHub Classroom JSON and JUnit XML from a grading run.
 *
 * Both carry what results.json carries (report.c): per exercise the
 * verdict, the points and the text a student sees, plus which settings
 * were used. Neither is parsed back by the grader; tests/formats/ holds
 * the schemas they are validated against (make test).
 */
#include "formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NAME_LEN (2 * G_NAME_LEN + 2)

/* ---- GitHub Classroom -------------------------------------------------- */

/*
 * The reporter counts "pass", "fail" and "error", and adds up the tests'
 * scores against the top-level max_score. A grader error is "error": the
 * student's code did not cause it.
 */
static const char *classroom_status(enum wb_verdict v)
{
	if (v == WB_V_PASS || v == WB_V_BUILT)
		return "pass";
	return v == WB_V_ERROR ? "error" : "fail";
}

static const char *classroom_overall(const struct g_run *run)
{
	const char *worst = "pass";

	for (int i = 0; i < run->nrows; i++) {
		const char *s = classroom_status(run->rows[i].res.verdict);

		if (!strcmp(s, "error"))
			return s;
		if (!strcmp(s, "fail"))
			worst = s;
	}
	return worst;
}

/* One line for the whole run: device, seed and settings. */
static void run_summary(char *buf, size_t n, const struct g_run *run)
{
	char settings[768];

	report_settings_line(settings, sizeof(settings), run);
	if (run->mode == G_BUILD_ONLY)
		snprintf(buf, n, "Built only: no GPU code was run; %s.", settings);
	else
		snprintf(buf, n, "Graded on %s, seed %llu; %s.", run->dev.name,
			 run->seed, settings);
}

static void classroom_test(FILE *f, const struct g_run *run,
			   const struct g_row *row)
{
	char name[NAME_LEN], cmd[NAME_LEN + 96];
	char *text = report_row_text(row);

	snprintf(name, sizeof(name), "%s/%s", row->spec.lab, row->spec.name);
	snprintf(cmd, sizeof(cmd), "make grade LAB=%s EX=%s SEED=%llu",
		 row->spec.lab, row->spec.name, run->seed);
	fprintf(f, "    {\"name\": ");
	report_json_str(f, name);
	fprintf(f, ", \"status\": \"%s\", \"score\": %g, \"max_score\": %g, "
		   "\"message\": ",
		classroom_status(row->res.verdict), row->res.points,
		row->res.max_points);
	report_json_str(f, text ? text : wb_verdict_label(row->res.verdict));
	fprintf(f, ", \"test_code\": ");
	report_json_str(f, cmd);
	fputc('}', f);
	free(text);
}

static void classroom_body(FILE *f, const struct g_run *run)
{
	double points, max;
	char head[1024];

	g_totals(run, &points, &max);
	run_summary(head, sizeof(head), run);
	fprintf(f, "{\n  \"version\": 1,\n  \"status\": \"%s\",\n"
		   "  \"max_score\": %g,\n  \"message\": ",
		classroom_overall(run), max);
	report_json_str(f, head);
	fprintf(f, ",\n  \"tests\": [");
	for (int i = 0; i < run->nrows; i++) {
		fprintf(f, "%s\n", i ? "," : "");
		classroom_test(f, run, &run->rows[i]);
	}
	fprintf(f, "\n  ]\n}\n");
}

int report_classroom(const char *path, const struct g_run *run)
{
	return report_write_atomic(path, classroom_body, run);
}

/* ---- JUnit XML --------------------------------------------------------- */

/* A compile error, a crash or the grader failing is an "error" (the test
 * could not run as meant); any other verdict but PASS is a "failure". */
static int junit_error(enum wb_verdict v)
{
	return v == WB_V_COMPILE_ERROR || v == WB_V_CRASH || v == WB_V_ERROR;
}

static int junit_failure(enum wb_verdict v)
{
	return v != WB_V_PASS && v != WB_V_BUILT && !junit_error(v);
}

/* U+FFFE and U+FFFF are not XML characters even when well encoded. */
static int xml_nonchar(const unsigned char *s)
{
	return s[0] == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf);
}

/*
 * s escaped for XML 1.0 text or (attr) an attribute value. Control
 * characters other than tab and newline cannot appear in XML 1.0 at all,
 * not even as references, and invalid UTF-8 cannot either: both become
 * U+FFFD. In attributes, newlines and tabs are kept as references, since
 * a parser would fold them into spaces.
 */
static void xml_str(FILE *f, const char *s, int attr)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int n;

		if (c >= 0x80) {
			n = report_utf8_len((const unsigned char *)s);
			if (n && !(n == 3 && xml_nonchar((const unsigned char *)s)))
				fwrite(s, 1, n, f);
			else
				fputs("\xef\xbf\xbd", f);
			s += n ? n - 1 : 0;
		} else if (c == '&') {
			fputs("&amp;", f);
		} else if (c == '<') {
			fputs("&lt;", f);
		} else if (c == '>') {
			fputs("&gt;", f);
		} else if (c == '"' && attr) {
			fputs("&quot;", f);
		} else if ((c == '\n' || c == '\t') && attr) {
			fprintf(f, "&#%d;", c);
		} else if (c < 0x20 && c != '\n' && c != '\t') {
			fputs("\xef\xbf\xbd", f);
		} else {
			fputc(c, f);
		}
	}
}

static void xml_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	xml_str(f, value, 1);
	fputc('"', f);
}

static void xml_property(FILE *f, const char *name, const char *value)
{
	fprintf(f, "      <property");
	xml_attr(f, "name", name);
	xml_attr(f, "value", value);
	fprintf(f, "/>\n");
}

struct counts {
	int tests, failures, errors;
	double time_s;
};

static struct counts count_rows(const struct g_row *rows, int n)
{
	struct counts c = { 0 };

	for (int i = 0; i < n; i++) {
		c.tests++;
		c.failures += junit_failure(rows[i].res.verdict);
		c.errors += junit_error(rows[i].res.verdict);
		c.time_s += rows[i].res.wall_s;
	}
	return c;
}

static void junit_case(FILE *f, const struct g_row *row)
{
	const struct g_result *r = &row->res;
	char *text = report_row_text(row), msg[160], pts[96];
	const char *tag = junit_error(r->verdict) ? "error" : "failure";

	snprintf(pts, sizeof(pts), "%g of %g points", r->points, r->max_points);
	fprintf(f, "    <testcase");
	xml_attr(f, "name", row->spec.name);
	xml_attr(f, "classname", row->spec.lab);
	fprintf(f, " time=\"%.3f\">\n", r->wall_s);
	if (junit_error(r->verdict) || junit_failure(r->verdict)) {
		snprintf(msg, sizeof(msg), "%s, %s", wb_verdict_label(r->verdict),
			 pts);
		fprintf(f, "      <%s", tag);
		xml_attr(f, "type", wb_verdict_key(r->verdict));
		xml_attr(f, "message", msg);
		fputc('>', f);
		xml_str(f, text ? text : "", 0);
		fprintf(f, "</%s>\n", tag);
	}
	fprintf(f, "      <system-out>");
	xml_str(f, pts, 0);
	if (text && !junit_error(r->verdict) && !junit_failure(r->verdict)) {
		fputc('\n', f);
		xml_str(f, text, 0);
	}
	fprintf(f, "</system-out>\n    </testcase>\n");
	free(text);
}

/* The rows of one lab (consecutive: the driver grades lab by lab). */
static void junit_suite(FILE *f, const struct g_run *run, const struct g_row *rows,
			int n, const char *stamp, const char *host)
{
	struct counts c = count_rows(rows, n);
	char seed[32], settings[768];

	report_settings_line(settings, sizeof(settings), run);
	snprintf(seed, sizeof(seed), "%llu", run->seed);
	fprintf(f, "  <testsuite");
	xml_attr(f, "name", rows[0].spec.lab);
	fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" "
		   "time=\"%.3f\"", c.tests, c.failures, c.errors, c.time_s);
	xml_attr(f, "timestamp", stamp);
	xml_attr(f, "hostname", host);
	fprintf(f, ">\n    <properties>\n");
	xml_property(f, "source", run->source ? run->source : "");
	xml_property(f, "mode", run->mode == G_BUILD_ONLY ? "build-only" : "grade");
	if (run->mode != G_BUILD_ONLY)
		xml_property(f, "device", run->dev.name);
	xml_property(f, "seed", seed);
	xml_property(f, "settings", settings);
	fprintf(f, "    </properties>\n");
	for (int i = 0; i < n; i++)
		junit_case(f, &rows[i]);
	fprintf(f, "  </testsuite>\n");
}

static void junit_body(FILE *f, const struct g_run *run)
{
	struct counts all = count_rows(run->rows, run->nrows);
	char stamp[32] = "", host[256] = "localhost", name[256];
	time_t now = time(NULL);
	struct tm tm;

	if (localtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	snprintf(name, sizeof(name), "cuda-workbook %s",
		 run->source ? run->source : "");
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	xml_attr(f, "name", name);
	fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
		all.tests, all.failures, all.errors, all.time_s);
	for (int i = 0, j; i < run->nrows; i = j) {
		for (j = i + 1; j < run->nrows &&
				!strcmp(run->rows[j].spec.lab, run->rows[i].spec.lab);
		     j++)
			;
		junit_suite(f, run, &run->rows[i], j - i, stamp, host);
	}
	fprintf(f, "</testsuites>\n");
}

int report_junit(const char *path, const struct g_run *run)
{
	return report_write_atomic(path, junit_body, run);
}
