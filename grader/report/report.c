/* SPDX-License-Identifier: MIT */
/*
 * report.c - what a grading run shows on the terminal: the table of
 * exercises (report_table) or make bench's times (report_bench), and the
 * text a student sees for one exercise (report_row_text), which the files
 * of formats.c carry too.
 */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void g_totals(const struct g_run *run, double *points, double *max)
{
	*points = *max = 0;
	for (int i = 0; i < run->nrows; i++) {
		*points += run->rows[i].res.points;
		*max += run->rows[i].res.max_points;
	}
}

static void full_name(const struct g_row *row, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s", row->spec.lab, row->spec.name);
}

static void fmt_us(char *buf, size_t n, const struct g_timing *t)
{
	if (!t->have)
		snprintf(buf, n, "-");
	else if (t->median_us >= 1e6)
		snprintf(buf, n, "%.2f s", t->median_us / 1e6);
	else if (t->median_us >= 10000)
		snprintf(buf, n, "%.2f ms", t->median_us / 1000);
	else
		snprintf(buf, n, "%.1f us", t->median_us);
}

static void fmt_or_dash(char *buf, size_t n, const char *fmt, double x)
{
	if (x > 0)
		snprintf(buf, n, fmt, x);
	else
		snprintf(buf, n, "-");
}

/* Built in build-only mode (no GPU) and never run: it has no points yet. */
static int never_run(enum wb_verdict v)
{
	return v == WB_V_BUILT || v == WB_V_SKELETON;
}

/*
 * Everything the terminal shows fits REPORT_COLS columns. The table's
 * columns after the name take TABLE_REST of them; the name's column is
 * as wide as the longest name of the run (at least NAME_MIN), so that no
 * name is cut while it fits (25 columns: 08-tensor-cores/attention).
 */
#define REPORT_COLS 80
#define TABLE_REST 55
#define NAME_MIN 23

static int name_width(const struct g_run *run)
{
	int w = NAME_MIN;

	for (int i = 0; i < run->nrows; i++) {
		char name[2 * G_NAME_LEN + 2];

		full_name(&run->rows[i], name, sizeof(name));
		if ((int)strlen(name) > w)
			w = (int)strlen(name);
	}
	return w < REPORT_COLS - TABLE_REST ? w : REPORT_COLS - TABLE_REST;
}

/*
 * One row of the table: 80 columns. The naive's time, GB/s and each tier
 * as a speedup on this GPU are in the exercise's lines below the table.
 */
static void row_line(FILE *f, const struct g_row *row, int nw)
{
	const struct g_result *r = &row->res;
	char name[2 * G_NAME_LEN + 2], tm[32], sp[32], sol[32], tier[32];
	char pts[32];

	full_name(row, name, sizeof(name));
	/* Cut to its column, the cut marked (the files keep it whole). */
	if ((int)strlen(name) > nw)
		snprintf(name + nw - 1, sizeof(name) - (size_t)(nw - 1), "~");
	fmt_us(tm, sizeof(tm), &r->t[G_STUDENT]);
	fmt_or_dash(sp, sizeof(sp), "%.2fx", r->speedup);
	fmt_or_dash(sol, sizeof(sol), "%.0f%%", 100 * r->share);
	if (row->spec.speed && !never_run(r->verdict))
		snprintf(tier, sizeof(tier), "%d/%d", r->tier, row->spec.ntiers);
	else
		snprintf(tier, sizeof(tier), "-");
	/* built, not run (no GPU): no points either way yet */
	if (never_run(r->verdict))
		snprintf(pts, sizeof(pts), "-/%g", r->max_points);
	else
		snprintf(pts, sizeof(pts), "%g/%g", r->points, r->max_points);
	fprintf(f, "%-*s %-15s %9s %7s %4s %4s %10s\n", nw, name,
		wb_verdict_label(r->verdict), tm, sp, sol, tier, pts);
}

/*
 * text, each of its lines folded at the last blank that keeps it within
 * REPORT_COLS columns (a word longer than that, a path, is cut at the
 * edge); the rest of a folded line is indented by two more columns than
 * the line.
 */
static void print_folded(FILE *f, const char *text)
{
	while (*text) {
		size_t len = strcspn(text, "\n"), indent = strspn(text, " ");
		const char *p = text, *end = text + len;
		size_t room = REPORT_COLS, lead = 0;

		while ((size_t)(end - p) + lead > room) {
			const char *cut = p + room - lead, *b = cut;

			while (b > p && *b != ' ')
				b--;
			if (b > p + (lead ? 0 : indent))
				cut = b;
			fprintf(f, "%*s%.*s\n", (int)lead, "", (int)(cut - p), p);
			p = cut;
			while (*p == ' ' && p < end)
				p++;
			lead = indent + 2;
		}
		fprintf(f, "%*s%.*s\n", (int)lead, "", (int)(end - p), p);
		text = *end ? end + 1 : end;
	}
}

/* What each tier asks on this GPU: "2.41x (35%)", a list. */
static void tiers_line(FILE *m, const struct g_row *row)
{
	const struct g_spec *s = &row->spec;
	const struct g_result *r = &row->res;

	fprintf(m, "tiers on this GPU:");
	for (int i = 0; i < s->ntiers; i++) {
		if (r->at[i] > 0)
			fprintf(m, " %.2fx", r->at[i]);
		if (s->tier_unit == G_TIERS_SHARE)
			fprintf(m, "%s%.0f%% of the speed of light%s",
				r->at[i] > 0 ? " (" : " ", 100 * s->tiers[i].x,
				r->at[i] > 0 ? ")" : "");
		fprintf(m, " = %g points%s", s->tiers[i].points,
			i + 1 < s->ntiers ? ";" : "");
	}
	fprintf(m, " [%s]", !strcmp(s->tiers_from, "lab") ?
		"the lab's tiers" : s->tiers_from);
}

/* The figures of a timed exercise, before its details. */
static void figures(FILE *m, const struct g_row *row)
{
	const struct g_result *r = &row->res;

	fprintf(m, ": %.1f us vs naive %.1f us, speedup %.2fx",
		r->t[G_STUDENT].median_us, r->t[G_NAIVE].median_us, r->speedup);
	if (r->r_speedup.have)
		fprintf(m, " (95%%: %.2f-%.2fx)", r->r_speedup.lo,
			r->r_speedup.hi);
	if (r->share > 0)
		fprintf(m, ", %.0f%% of the speed of light", 100 * r->share);
	if (r->gbps > 0)
		fprintf(m, ", %.0f GB/s", r->gbps);
	if (r->pct_dram > 0)
		fprintf(m, " (%.0f%% of the DRAM's peak)", r->pct_dram);
	fprintf(m, ", tier %d of %d", r->tier, row->spec.ntiers);
	if (row->spec.speed && r->next_target > 0 && r->verdict == WB_V_PASS)
		fprintf(m, "; next tier at %.2fx", r->next_target);
	if (r->tflops > 0)
		fprintf(m, "\n%.2f TFLOP/s", r->tflops);
	if (r->tflops > 0 && r->peak_tflops > 0)
		fprintf(m, ", %.0f%% of the %s peak measured in the same rounds "
			   "(%.0f TFLOP/s)", 100 * r->tflops / r->peak_tflops,
			!strcmp(r->peak, "fma") ? "fp32 FMA" :
			!strcmp(r->peak, "mma") ? "tensor cores' (mma.sync)" :
			"tensor cores' (wgmma)", r->peak_tflops);
	if (r->tflops > 0 && r->pct_peer > 0)
		fprintf(m, ", %.0f%% of the library peer (%.1f us, the grader's "
			   "reference run)", r->pct_peer, r->t[G_PEER].median_us);
	fputc('\n', m);
	tiers_line(m, row);
	if (r->rounds)
		fprintf(m, "\ntimed in %d rounds (%d outputs checked%s%s), SM "
			   "clock %.0f-%.0f MHz", r->rounds, r->verified,
			r->dropped ? ", throttled rounds dropped: " : "",
			r->dropped ? "yes" : "", r->mhz_min, r->mhz_max);
}

/* Did any exercise run? Not in build-only mode, where each is BUILT or
 * was stopped before running (it did not compile, or was rejected). */
static int ran_any(const struct g_run *run)
{
	for (int i = 0; i < run->nrows; i++) {
		enum wb_verdict v = run->rows[i].res.verdict;

		if (v != WB_V_BUILT && v != WB_V_SKELETON &&
		    v != WB_V_COMPILE_ERROR && v != WB_V_REJECTED)
			return 1;
	}
	return 0;
}

/* The course or calibration file's line, and what it changed. */
static void course_lines(FILE *f, const struct g_run *run)
{
	char line[768];

	char *text = NULL;
	size_t len = 0;
	FILE *m;

	if (!run->course)
		return;
	report_settings_line(line, sizeof(line), run);
	m = open_memstream(&text, &len);
	if (!m)
		return;
	fprintf(m, "%s: %s%s", line,
		run->course_changes ? "changed\n" : "changed nothing here",
		run->course_changes ? run->course_changes : "");
	if (fclose(m) == 0) {
		char *folded = NULL;
		size_t flen = 0;

		/* 80 columns; the caller ends the last line */
		m = open_memstream(&folded, &flen);
		if (m) {
			print_folded(m, text);
			if (fclose(m) == 0) {
				if (flen && folded[flen - 1] == '\n')
					folded[flen - 1] = '\0';
				fprintf(f, "\n%s", folded);
			}
			free(folded);
		}
	}
	free(text);
}

void report_table(FILE *f, const struct g_run *run)
{
	double points, max;
	int nw = name_width(run), nskel = 0;

	fprintf(f, "\n%-*s %-15s %9s %7s %4s %4s %10s\n", nw, "exercise",
		"verdict", "time", "speedup", "%SOL", "tier", "points");
	for (int i = 0; i < run->nrows; i++)
		row_line(f, &run->rows[i], nw);
	for (int i = 0; i < run->nrows; i++) {
		const struct g_row *row = &run->rows[i];
		char name[2 * G_NAME_LEN + 2], *text, *line = NULL;

		if (!row->res.ndetails && !row->res.t[G_STUDENT].have)
			continue;
		/* Code not written yet: one paragraph for all, below. */
		if (row->res.verdict == WB_V_SKELETON && run->mode == G_BUILD_ONLY) {
			nskel++;
			continue;
		}
		full_name(row, name, sizeof(name));
		text = report_row_text(row);
		line = malloc(strlen(name) + 3 + (text ? strlen(text) : 0));
		if (line)
			sprintf(line, "%s: %s", name, text ? text : "");
		fputc('\n', f);
		print_folded(f, line ? line : name);
		free(line);
		free(text);
	}
	if (nskel) {
		char *line = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&line, &len);

		if (m) {
			fprintf(m, "\n%s still the skeleton (SKELETON above): "
				   "its file calls WB_TODO. Write the function, "
				   "then delete that line; make check then checks "
				   "its rules and its kernels, and a host "
				   "exercise's answers.", nskel == run->nrows ?
				"Every exercise is" : nskel == 1 ?
				"One exercise is" : "Each exercise marked so is");
			if (fclose(m) == 0)
				print_folded(f, line);
			free(line);
		}
	}
	if (run->mode == G_BUILD_ONLY || !ran_any(run)) {
		print_folded(f, run->mode == G_BUILD_ONLY ?
			"\nChecked without a GPU: no kernel ran, so no timing, "
			"tiers or speed points yet (a host exercise's PASS shows "
			"the points a grade gives it). Next: write an exercise, "
			"make check EX=<name> again, then make grade on a machine "
			"with a GPU." :
			"\nNot run: built and checked only (no GPU code ran), so "
			"no points, no tiers and no timing yet. make grade on a "
			"machine with a GPU grades it.");
		course_lines(f, run);
		fputc('\n', f);
		return;
	}
	g_totals(run, &points, &max);
	fprintf(f, "\ntotal: %g / %g points\n", points, max);
	if (run->dev.read_gbps > 0)
		fprintf(f, "%s: read %.0f, write %.0f, copy %.0f GB/s measured "
			   "now", run->dev.name, run->dev.read_gbps,
			run->dev.write_gbps, run->dev.copy_gbps);
	else if (run->dev.copy_gbps > 0)
		fprintf(f, "%s: copy %.0f GB/s measured now", run->dev.name,
			run->dev.copy_gbps);
	if (run->dev.dram_gbps > 0)
		fprintf(f, "; DRAM peak %.0f GB/s", run->dev.dram_gbps);
	if (run->dev.launch_us > 0)
		fprintf(f, "; a kernel launch %.1f us", run->dev.launch_us);
	fprintf(f, "\n%%SOL: the share of each exercise's speed of light, "
		   "timed beside it (docs/grading.md, section 4)");
	course_lines(f, run);
	if (run->condition[0])
		fprintf(f, "\n%s", run->condition);
	fprintf(f, "\nreproduce with SEED=%llu\n", run->seed);
}

static void bench_cell(FILE *f, const struct g_timing *t, double bytes,
		       double flops, double copy)
{
	char tm[32];
	double gbps;

	if (!t->have) {
		fprintf(f, " %27s", "-");
		return;
	}
	fmt_us(tm, sizeof(tm), t);
	if (flops > 0) {
		fprintf(f, " %11s %6.2f TFLOP/s   ", tm,
			flops / (t->median_us * 1e-6) / 1e12);
		return;
	}
	gbps = bytes > 0 ? bytes / (t->median_us * 1e-6) / 1e9 : 0;
	if (gbps > 0 && copy > 0)
		fprintf(f, " %11s %6.0f GB/s %4.0f%%", tm, gbps,
			100 * gbps / copy);
	else
		fprintf(f, " %11s %15s", tm, "");
}

void report_bench(FILE *f, const struct g_run *run)
{
	fprintf(f, "\n%-26s %-12s %27s %27s %27s\n", "exercise", "size",
		"naive", "solution", "library peer");
	for (int i = 0; i < run->nrows; i++) {
		const struct g_row *row = &run->rows[i];
		char name[2 * G_NAME_LEN + 2];

		if (!row->spec.speed)
			continue;
		full_name(row, name, sizeof(name));
		fprintf(f, "%-26s %-12s", name, row->spec.bench);
		if (row->res.verdict != WB_V_PASS) {
			fprintf(f, " %s\n", wb_verdict_label(row->res.verdict));
			continue;
		}
		for (int k = 0; k < 3; k++) {
			static const int order[3] = { G_NAIVE, G_STUDENT, G_PEER };

			bench_cell(f, &row->res.t[order[k]], row->res.bytes,
				   row->res.flops, run->dev.copy_gbps);
		}
		fputc('\n', f);
	}
	fprintf(f, "\nmedian times; %%: of the copy bandwidth measured in this "
		   "run (%.0f GB/s)\n", run->dev.copy_gbps);
}

char *report_row_text(const struct g_row *row)
{
	const struct g_result *r = &row->res;
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	fprintf(m, "%s", wb_verdict_label(r->verdict));
	if (r->t[G_STUDENT].have && r->t[G_NAIVE].have)
		figures(m, row);
	for (int d = 0; d < r->ndetails; d++)
		fprintf(m, "\n%s", r->details[d]);
	if (fclose(m) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

void report_settings_line(char *buf, size_t n, const struct g_run *run)
{
	if (!run->course) {
		snprintf(buf, n, "the labs' own settings");
		return;
	}
	snprintf(buf, n, "%s %s%s%s%s", run->calibration ?
		 "the calibration of this GPU model," : "course settings",
		 run->course, run->course_name ? " (" : "",
		 run->course_name ? run->course_name : "",
		 run->course_name ? ")" : "");
}
