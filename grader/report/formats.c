/* SPDX-License-Identifier: MIT */
/*
 * formats.c - the files a grading run writes (formats.h): Gradescope's
 * results.json, a TSV for scripts, GitHub Classroom JSON and JUnit XML,
 * and the table of them that the driver walks.
 *
 * Each carries, per exercise, the verdict, the points and the text a
 * student sees (report_row_text()), plus which settings were used. Only
 * report.run is read back (make report, runfile.h); tests/formats/ holds
 * the schemas the others are validated against (make test). report.html
 * is html.c's.
 */
#include "formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "html.h"
#include "inspect.h"
#include "report.h"
#include "runfile.h"

#define NAME_LEN (2 * G_NAME_LEN + 2)

/* ---- JSON strings ------------------------------------------------------ */

/* Quotes and escapes included. */
void report_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x80) {
			/* Text from compilers and student programs may be any
			 * bytes; JSON must be UTF-8: keep valid sequences,
			 * replace the rest with U+FFFD. */
			int n = report_utf8_len((const unsigned char *)s);

			if (n) {
				fwrite(s, 1, n, f);
				s += n - 1;
			} else {
				fputs("\\ufffd", f);
			}
		} else if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* ---- Gradescope results.json ------------------------------------------- */

/* The text a student sees under one test: verdict, figures, details. */
static void test_output(FILE *f, const struct g_row *row)
{
	char *text = report_row_text(row);

	report_json_str(f, text ? text : wb_verdict_label(row->res.verdict));
	free(text);
}

/* The device and seed, and which settings were used and what they changed. */
static void json_head(FILE *f, const struct g_run *run)
{
	char *text = NULL, line[768];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m) {
		report_json_str(f, "");
		return;
	}
	if (run->mode == G_BUILD_ONLY)
		fprintf(m, "Built only: no GPU code was run.");
	else
		fprintf(m, "Graded on %s (read %.0f, write %.0f, copy %.0f GB/s"
			   "%s%.1f%s measured now), seed %llu.", run->dev.name,
			run->dev.read_gbps, run->dev.write_gbps,
			run->dev.copy_gbps,
			run->dev.launch_us > 0 ? ", a kernel launch " : "",
			run->dev.launch_us > 0 ? run->dev.launch_us : 0.0,
			run->dev.launch_us > 0 ? " us" : "", run->seed);
	report_settings_line(line, sizeof(line), run);
	if (run->course)
		fprintf(m, "\nGraded with %s, which %s%s", line,
			run->course_changes ? "changed:\n" : "changed nothing here.",
			run->course_changes ? run->course_changes : "");
	if (run->condition[0])
		fprintf(m, "\n%s", run->condition);
	fclose(m);
	report_json_str(f, text ? text : "");
	free(text);
}

/* The GPU and what was measured on it (0: not measured: built only, or a
 * devinfo without the figure), for scripts: tests/formats/
 * gradescope.schema.json describes it. */
static void json_device(FILE *f, const struct g_run *run)
{
	const struct g_device *d = &run->dev;

	fprintf(f, "{\"device\": {\"name\": ");
	report_json_str(f, d->name);
	fprintf(f, ", \"copy_gbps\": %.1f, \"read_gbps\": %.1f, "
		   "\"write_gbps\": %.1f, \"launch_us\": %.2f, "
		   "\"launch_sync_us\": %.2f}}", d->copy_gbps, d->read_gbps,
		d->write_gbps, d->launch_us, d->launch_sync_us);
}

static void json_body(FILE *f, const struct g_run *run)
{
	double points, max;
	char name[NAME_LEN];

	g_totals(run, &points, &max);
	fprintf(f, "{\n  \"score\": %g,\n  \"output\": ", points);
	json_head(f, run);
	fprintf(f, ",\n  \"visibility\": \"visible\",\n  \"extra_data\": ");
	json_device(f, run);
	fprintf(f, ",\n  \"tests\": [");
	for (int i = 0; i < run->nrows; i++) {
		const struct g_row *row = &run->rows[i];

		snprintf(name, sizeof(name), "%s/%s", row->spec.lab,
			 row->spec.name);
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		report_json_str(f, name);
		fprintf(f, ", \"number\": \"%d\", \"score\": %g, \"max_score\": %g, "
			   "\"status\": \"%s\", \"visibility\": \"visible\", "
			   "\"output\": ",
			i + 1, row->res.points, row->res.max_points,
			row->res.verdict == WB_V_PASS ? "passed" : "failed");
		test_output(f, row);
		fputc('}', f);
	}
	fprintf(f, "\n  ]\n}\n");
}

int report_json(const char *path, const struct g_run *run)
{
	return report_write_atomic(path, json_body, run);
}

/* ---- TSV, for scripts ------------------------------------------------- */

/* A header line, then a line per exercise; tests/run.sh reads columns by name. */
static void tsv_body(FILE *f, const struct g_run *run)
{
	fprintf(f, "lab\texercise\tverdict\tpoints\tmax_points\tspeedup\t"
		   "time_us\tnaive_us\tpeer_us\tgbps\tpct_copy\ttier\t"
		   "tflops\tpct_peer\tsettings\ttechnique\tshare\tshare_lo\t"
		   "share_hi\tideal_us\tsol\ttiers_from\ttier_speedups\t"
		   "audit\twall_s\tref_s\tphases\n");
	for (int i = 0; i < run->nrows; i++) {
		const struct g_row *row = &run->rows[i];
		const struct g_result *r = &row->res;

		/* settings: "lab" (its own knobs) or the course file that
		 * changed them */
		fprintf(f, "%s\t%s\t%s\t%g\t%g\t%.4f\t%.3f\t%.3f\t%.3f\t%.1f\t%.1f\t%d\t%.3f\t%.1f\t%s\t%s\t",
			row->spec.lab, row->spec.name, wb_verdict_key(r->verdict),
			r->points, r->max_points, r->speedup,
			r->t[G_STUDENT].median_us, r->t[G_NAIVE].median_us,
			r->t[G_PEER].median_us, r->gbps, r->pct_copy, r->tier,
			r->tflops, r->pct_peer,
			row->course_changed ? run->course : "lab",
			g_technique_word(r->technique));
		/* share, its interval, the ideal, what it was, where the
		 * tiers come from, each tier as a speedup here, the audit */
		fprintf(f, "%.4f\t%.4f\t%.4f\t%.3f\t%s\t%s\t",
			r->share, r->r_share.lo, r->r_share.hi,
			r->t[G_IDEAL].median_us, r->sol[0] ? r->sol : "-",
			row->spec.tiers_from[0] ? row->spec.tiers_from : "lab");
		for (int k = 0; k < row->spec.ntiers && r->at[0] > 0; k++)
			fprintf(f, "%s%.3f", k ? " " : "", r->at[k]);
		fprintf(f, "%s\t%s\t", row->spec.ntiers && r->at[0] > 0 ? "" : "-",
			r->audit[0] ? r->audit : "-");
		/* where the time went: tests/gpu/phases.sh */
		fprintf(f, "%.3f\t%.3f\t", r->wall_s, r->ref_s);
		for (int k = 0; k < r->nphases; k++)
			fprintf(f, "%s%s=%.3f", k ? " " : "", r->phase_name[k],
				r->phase_s[k]);
		fprintf(f, "%s\n", r->nphases ? "" : "-");
	}
}

int report_tsv(const char *path, const struct g_run *run)
{
	return report_write_atomic(path, tsv_body, run);
}

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

/* ---- the table, and the files of one run ------------------------------- */

const struct report_format report_formats[] = {
	{ "Gradescope", "--json", "JSON", "its results.json", report_json },
	{ "TSV", "--tsv", "TSV", "a line per exercise, for scripts",
	  report_tsv },
	{ "GitHub Classroom", "--classroom", "CLASSROOM", "its reporter's JSON",
	  report_classroom },
	{ "JUnit XML", "--junit", "JUNIT", "for Jenkins, GitLab, CI",
	  report_junit },
	{ "report data", "--report-data", "REPORT_DATA",
	  "the run whole, for make report", runfile_write },
	{ "HTML report", "--html", "HTML", "rooflines, tiers, attempts",
	  report_html },
};

const int report_nformats = sizeof(report_formats) / sizeof(report_formats[0]);

_Static_assert(sizeof(report_formats) / sizeof(report_formats[0]) <=
	       REPORT_MAX_FORMATS, "struct report_outputs has no room");

int report_outputs_set(struct report_outputs *o, const char *opt,
		       const char *value)
{
	for (int i = 0; i < report_nformats; i++)
		if (!strcmp(opt, report_formats[i].option)) {
			o->path[i] = *value ? value : NULL;
			return 1;
		}
	return 0;
}

void report_outputs_remove(const struct report_outputs *o)
{
	for (int i = 0; i < report_nformats; i++)
		if (o->path[i])
			remove(o->path[i]);
}

/* Add path to the list of files written, a new line past 80 columns. */
static void list_path(FILE *say, const char *path, size_t *col)
{
	size_t len = strlen(path);

	if (!*col) {
		fputs("results: ", say);
		*col = 9;
	} else if (*col + 2 + len > 80) {
		fputs("\n         ", say);
		*col = 9;
	} else {
		fputs(", ", say);
		*col += 2;
	}
	fputs(path, say);
	*col += len;
}

int report_outputs_write(const struct report_outputs *o,
			 const struct g_run *run, FILE *say)
{
	size_t col = 0;
	int ret = 0;

	for (int i = 0; i < report_nformats; i++) {
		const char *path = o->path[i];

		if (!path)
			continue;
		if (report_formats[i].write(path, run)) {
			fprintf(stderr, "grader: cannot write %s\n", path);
			ret = -1;
		} else if (say) {
			list_path(say, path, &col);
		}
	}
	if (col)
		fputc('\n', say);
	return ret;
}

void report_outputs_usage(FILE *f)
{
	fprintf(f, "       files a run writes, each whole or not at all (make "
		   "grade's variable):\n");
	for (int i = 0; i < report_nformats; i++) {
		const struct report_format *fmt = &report_formats[i];

		fprintf(f, "              [%s FILE]%*s %-11s %s: %s\n",
			fmt->option, (int)(13 - strlen(fmt->option)), "",
			fmt->var, fmt->name, fmt->what);
	}
}
