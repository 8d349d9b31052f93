/* SPDX-License-Identifier: MIT */
/*
 * html.c - report.html (html.h): the run at a glance (what to work on
 * next, every exercise's verdict, points and speedup against its tiers),
 * then each lab's roofline and each exercise's card (its figures, the
 * diagnostics of a failure, technique, sanitizer and profile lines, its
 * attempts), then the GPU, its condition, the seed and how to reproduce.
 */
#include "html.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runfile.h"

/* An element's id for lab/exercise: "ex-05-reduction-sum", letters,
 * digits, '-' and '_' only. */
static void anchor(FILE *f, const struct g_row *row)
{
	const char *parts[2] = { row->spec.lab, row->spec.name };

	fputs("ex", f);
	for (int k = 0; k < 2; k++) {
		fputc('-', f);
		for (const char *s = parts[k]; *s; s++)
			fputc((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			      (*s >= '0' && *s <= '9') || *s == '_' ? *s : '-', f);
	}
}

static void badge(FILE *f, enum wb_verdict v)
{
	fprintf(f, "<span class=\"v v-%s\" data-verdict=\"%s\">%s</span>",
		wb_verdict_key(v), wb_verdict_key(v), wb_verdict_label(v));
}

static void fmt_us(char *buf, size_t n, double us)
{
	if (us >= 1e6)
		snprintf(buf, n, "%.2f s", us / 1e6);
	else if (us >= 1e4)
		snprintf(buf, n, "%.2f ms", us / 1e3);
	else
		snprintf(buf, n, "%.1f \xc2\xb5s", us);
}

/* ---- what to work on next ----------------------------------------------- */

/* The row with the most points still to earn; the first of equals. */
static const struct g_row *next_row(const struct g_run *run)
{
	const struct g_row *best = NULL;
	double gain = 0.005;

	for (int i = 0; i < run->nrows; i++) {
		const struct g_result *r = &run->rows[i].res;

		if (r->max_points - r->points > gain) {
			gain = r->max_points - r->points;
			best = &run->rows[i];
		}
	}
	return best;
}

/* The speedup of the next tier: the run's, else the tier list's (a
 * results.tsv does not keep the next target). 0 when none is left. */
static double next_tier(const struct g_row *row)
{
	const struct g_result *r = &row->res;

	if (r->next_target > 0)
		return r->next_target;
	if (r->tier >= 0 && r->tier < row->spec.ntiers && r->at[r->tier] > 0)
		return r->at[r->tier];
	return 0;
}

static void next_why(FILE *f, const struct g_row *row)
{
	const struct g_result *r = &row->res;

	switch (r->verdict) {
	case WB_V_PASS:
		if (r->technique == G_TECH_FAILED)
			fprintf(f, "it passes, but a technique rule failed and "
				   "withheld its speed points: see its card");
		else if (next_tier(row) > 0)
			fprintf(f, "it passes at %.2fx; tier %d is at %.2fx",
				r->speedup, r->tier + 1, next_tier(row));
		else
			fprintf(f, "it passes at %.2fx, below the top of its last "
				   "tier", r->speedup);
		break;
	case WB_V_NOT_IMPLEMENTED:
		fprintf(f, "not started yet: delete its WB_TODO line and write it");
		break;
	case WB_V_WRONG:
		fprintf(f, "it gives wrong results: its card shows the first "
			   "mismatches and how to reproduce them");
		break;
	default:
		fprintf(f, "%s: its card says why", wb_verdict_label(r->verdict));
	}
}

static void next_box(FILE *f, const struct g_run *run)
{
	const struct g_row *row = next_row(run);

	fprintf(f, "<p class=\"next\" id=\"next\">");
	if (!row) {
		fprintf(f, "Every point is earned. Nothing left to work on here.</p>\n");
		return;
	}
	fprintf(f, "<b>Work on next:</b> <a href=\"#");
	anchor(f, row);
	fprintf(f, "\">");
	html_str(f, row->spec.lab);
	fputc('/', f);
	html_str(f, row->spec.name);
	fprintf(f, "</a>, %g of %g points to gain: ",
		row->res.max_points - row->res.points, row->res.max_points);
	next_why(f, row);
	fprintf(f, ".</p>\n");
}

/* ---- the overview --------------------------------------------------------- */

static void overview_row(FILE *f, const struct g_row *row)
{
	const struct g_result *r = &row->res;

	fprintf(f, "<tr class=\"ex\" data-lab=\"");
	html_str(f, row->spec.lab);
	fprintf(f, "\" data-ex=\"");
	html_str(f, row->spec.name);
	fprintf(f, "\"><td><a href=\"#");
	anchor(f, row);
	fprintf(f, "\">");
	html_str(f, row->spec.lab);
	fputc('/', f);
	html_str(f, row->spec.name);
	fprintf(f, "</a></td><td>");
	badge(f, r->verdict);
	fprintf(f, "</td><td class=\"num points\" data-points=\"%g\" "
		   "data-max=\"%g\">%g / %g</td>", r->points, r->max_points,
		r->points, r->max_points);
	if (r->speedup > 0)
		fprintf(f, "<td class=\"num\">%.2fx</td>", r->speedup);
	else
		fprintf(f, "<td class=\"num\">-</td>");
	if (r->share > 0)
		fprintf(f, "<td class=\"num sol\">%.0f%%</td><td>", 100 * r->share);
	else
		fprintf(f, "<td class=\"num sol\">-</td><td>");
	if (row->spec.speed && r->speedup > 0)
		chart_speedup(f, row, 260, 0);
	else if (!row->spec.speed)
		fprintf(f, "correctness only");
	fprintf(f, "</td></tr>\n");
}

static void overview(FILE *f, const struct g_run *run)
{
	fprintf(f, "<table class=\"overview\"><tr><th>exercise</th><th>verdict"
		   "</th><th>points</th><th>speedup</th><th>%% SOL</th>"
		   "<th>speedup: naive | tiers T1..T3 (log scale)</th>"
		   "</tr>\n");
	for (int i = 0; i < run->nrows; i++)
		overview_row(f, &run->rows[i]);
	fprintf(f, "</table>\n");
}

/* ---- an exercise's card --------------------------------------------------- */

/* Which list a detail line goes to; indented lines follow the line above. */
enum kind { K_DIAG, K_TECH, K_SAN, K_PROF, K_NKINDS };

static enum kind kind_of(const char *line, enum kind prev)
{
	if (line[0] == ' ')
		return prev;
	if (!strncmp(line, "technique", 9) ||
	    !strncmp(line, "performance points withheld", 28))
		return K_TECH;
	if (!strncmp(line, "sanitizers", 10) ||
	    !strncmp(line, "compute-sanitizer", 17))
		return K_SAN;
	if (!strncmp(line, "profile", 7))
		return K_PROF;
	return K_DIAG;
}

static void detail_lists(FILE *f, const struct g_result *r)
{
	static const char *const head[K_NKINDS] = {
		"Diagnostics", "Technique", "Sanitizers", "Profile (Nsight Compute)"
	};
	static const char *const cls[K_NKINDS] = { "diag", "tech", "san", "prof" };
	enum kind k[G_MAX_DETAILS], prev = K_DIAG;

	for (int d = 0; d < r->ndetails; d++)
		k[d] = prev = kind_of(r->details[d], prev);
	for (int want = 0; want < K_NKINDS; want++) {
		int any = 0;

		for (int d = 0; d < r->ndetails; d++) {
			if (k[d] != (enum kind)want)
				continue;
			if (!any++)
				fprintf(f, "<div class=\"lines\"><b>%s</b><pre class=\"%s\">",
					head[want], want == K_DIAG &&
					r->verdict != WB_V_PASS ? "diag" : cls[want]);
			else
				fputc('\n', f);
			html_str(f, r->details[d]);
		}
		if (any)
			fprintf(f, "</pre></div>\n");
	}
}

/* The solution's time in its own last run, against this run's naive. */
static void solution_line(FILE *f, const struct g_run *run,
			  const struct g_row *row)
{
	double us = chart_solution_us(run, row);
	char t[32];

	if (us <= 0)
		return;
	fmt_us(t, sizeof(t), us);
	fprintf(f, "<p class=\"fig\">The solution took %s in the last make "
		   "grade-solutions here (about %.2fx over this naive).</p>\n", t,
		row->res.t[G_NAIVE].median_us / us);
}

static void figures(FILE *f, const struct g_run *run, const struct g_row *row)
{
	const struct g_result *r = &row->res;
	char t[32], nv[32];

	if (!r->t[G_STUDENT].have || !r->t[G_NAIVE].have)
		return;
	fmt_us(t, sizeof(t), r->t[G_STUDENT].median_us);
	fmt_us(nv, sizeof(nv), r->t[G_NAIVE].median_us);
	fprintf(f, "<p class=\"fig\">%s against the naive's %s: <b>%.2fx</b>", t,
		nv, r->speedup);
	if (r->r_speedup.have && r->r_speedup.hi > 0)
		fprintf(f, " (95%%: %.2f-%.2fx)", r->r_speedup.lo, r->r_speedup.hi);
	if (r->share > 0)
		fprintf(f, "; <b>%.0f%% of the speed of light</b>", 100 * r->share);
	if (r->gbps > 0)
		fprintf(f, "; %.0f GB/s", r->gbps);
	if (r->gbps > 0 && run->dev.copy_gbps > 0)
		fprintf(f, " (%.0f%% of the copy bandwidth)",
			100 * r->gbps / run->dev.copy_gbps);
	if (r->tflops > 0)
		fprintf(f, "; %.2f TFLOP/s", r->tflops);
	if (r->pct_peer > 0)
		fprintf(f, ", %.0f%% of the library's", r->pct_peer);
	if (row->spec.speed)
		fprintf(f, "; tier %d of %d", r->tier, row->spec.ntiers);
	if (next_tier(row) > 0 && r->verdict == WB_V_PASS)
		fprintf(f, ", next at %.2fx", next_tier(row));
	fprintf(f, ".</p>\n");
	solution_line(f, run, row);
}

/* Each tier as a speedup on this GPU, and its points where known. */
static void tiers_line(FILE *f, const struct g_row *row)
{
	const struct g_spec *s = &row->spec;

	if (!s->speed || !s->ntiers || row->res.at[0] <= 0)
		return;
	fprintf(f, "<p class=\"fig tiers\">Tiers on this GPU:");
	for (int k = 0; k < s->ntiers; k++) {
		fprintf(f, "%s T%d <b>%.2fx</b>", k ? ";" : "", k + 1, row->res.at[k]);
		if (s->tier_unit == G_TIERS_SHARE)
			fprintf(f, " (%.0f%% of the speed of light)", 100 * s->tiers[k].x);
		if (s->tiers[k].points > 0)
			fprintf(f, " = %g points", s->tiers[k].points);
	}
	fprintf(f, " (");
	html_str(f, !strcmp(s->tiers_from, "lab") || !s->tiers_from[0] ?
		 "the lab's tiers" : s->tiers_from);
	fprintf(f, ").</p>\n");
}

static void history(FILE *f, const struct g_row *row)
{
	struct hist_entry *e;
	int n;

	if (!row->history[0])
		return;
	e = malloc(CHART_MAX_ATTEMPTS * sizeof(*e));
	if (!e)
		return;
	n = hist_read(row->history, row->spec.lab, row->spec.name, e,
		      CHART_MAX_ATTEMPTS);
	if (n)
		chart_history(f, row, e, n);
	free(e);
}

static void card(FILE *f, const struct g_run *run, const struct g_row *row)
{
	const struct g_result *r = &row->res;

	fprintf(f, "<div class=\"card\" id=\"");
	anchor(f, row);
	fprintf(f, "\"><h3>");
	html_str(f, row->spec.name);
	fputc(' ', f);
	badge(f, r->verdict);
	fprintf(f, " <span class=\"points\">%g / %g points</span></h3>\n",
		r->points, r->max_points);
	if (row->spec.title[0]) {
		fprintf(f, "<div class=\"sub\">");
		html_str(f, row->spec.title);
		fprintf(f, "</div>\n");
	}
	figures(f, run, row);
	if (row->spec.speed && r->speedup > 0)
		chart_speedup(f, row, 500, 1);
	tiers_line(f, row);
	detail_lists(f, r);
	if (r->audit[0]) {
		fprintf(f, "<div class=\"lines\"><b>Audit</b> ");
		html_str(f, r->audit);
		fprintf(f, "</div>\n");
	}
	history(f, row);
	fprintf(f, "</div>\n");
}

/* ---- the labs ------------------------------------------------------------- */

static void legend(FILE *f, const struct g_run *run)
{
	int sol = run->mode == G_BENCH ||
		  (run->source && !strcmp(run->source, "solutions"));

	fprintf(f, "<p class=\"legend\"><span style=\"color:#8c959f\">&#9679; "
		   "naive</span><span style=\"color:#0969da\">&#9679; %s</span>"
		   "%s<span style=\"color:#bf8700\">&#9670; library</span>"
		   "<span style=\"color:#1a7f37\">&#9644; the exercise's speed of "
		   "light</span><span>&#9473; roofs: this run's copy bandwidth, the "
		   "DRAM's and fp32 peaks</span></p>\n",
		sol ? "solution" : "your kernel", sol ? "" :
		"<span style=\"color:#8250df\">&#9679; the solution (where "
		"make grade-solutions ran)</span>");
}

static void lab_section(FILE *f, const struct g_run *run, int first, int end)
{
	fprintf(f, "<section class=\"lab\"><h2>");
	html_str(f, run->rows[first].spec.lab);
	fprintf(f, "</h2>\n<div class=\"labgrid\"><div class=\"charts\">\n");
	chart_lab(f, run, run->rows[first].spec.lab);
	fprintf(f, "</div><div class=\"cards\">\n");
	for (int i = first; i < end; i++)
		card(f, run, &run->rows[i]);
	fprintf(f, "</div></div></section>\n");
}

static void lab_sections(FILE *f, const struct g_run *run)
{
	legend(f, run);
	for (int i = 0, j; i < run->nrows; i = j) {
		for (j = i + 1; j < run->nrows &&
				!strcmp(run->rows[j].spec.lab, run->rows[i].spec.lab);
		     j++)
			;
		lab_section(f, run, i, j);
	}
}

/* ---- the head and the foot ------------------------------------------------ */

static void head(FILE *f, const struct g_run *run, const struct html_opts *o)
{
	double points, max;

	g_totals(run, &points, &max);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
		   "\n<meta name=\"viewport\" content=\"width=device-width\">"
		   "\n<title>Workbook report: ");
	html_str(f, run->source);
	fprintf(f, "</title>\n<style>%s</style></head>\n<body>\n", html_css);
	fprintf(f, "<h1>CUDA performance workbook: ");
	html_str(f, run->source);
	fprintf(f, "</h1>\n<p class=\"sub\">%s on ", run->mode == G_BENCH ?
		"Benchmarked" : run->mode == G_BUILD_ONLY ? "Built only, not run," :
		"Graded");
	html_str(f, run->dev.name[0] ? run->dev.name : "a GPU (its name is not in "
		 "this file)");
	if (o && o->no_seed)
		fprintf(f, ", seed not recorded.");
	else
		fprintf(f, ", seed %llu.", run->seed);
	fprintf(f, " <span class=\"total\" data-points=\"%g\" data-max=\"%g\">"
		   "Total: %g / %g points</span></p>\n", points, max, points, max);
}

static void device(FILE *f, const struct g_run *run)
{
	const struct g_device *d = &run->dev;

	fprintf(f, "<h2>The GPU and this run</h2>\n<p class=\"device\">");
	html_str(f, d->name[0] ? d->name : "The GPU's name is not in this file");
	if (d->cc)
		fprintf(f, ": sm_%d, %d SMs, %.0f MB L2, %.0f GB, driver ", d->cc,
			d->sms, d->l2_mb, d->mem_gb);
	if (d->cc)
		html_str(f, d->driver);
	fprintf(f, ". Measured in this run: ");
	if (d->read_gbps > 0)
		fprintf(f, "read %.0f, write %.0f, ", d->read_gbps, d->write_gbps);
	fprintf(f, "copy <span data-copy-gbps=\"%g\">%.0f GB/s</span>",
		d->copy_gbps, d->copy_gbps);
	if (d->dram_gbps > 0)
		fprintf(f, "; DRAM peak %.0f GB/s (NVML)", d->dram_gbps);
	if (d->launch_us > 0)
		fprintf(f, "; a kernel launch <span data-launch-us=\"%g\">%.1f "
			   "us</span> (an empty kernel queued behind others; "
			   "%.1f us launched and waited for)", d->launch_us,
			d->launch_us, d->launch_sync_us);
	if (d->fp32_tflops > 0)
		fprintf(f, "; fp32 peak <span data-fp32-tflops=\"%g\">%.1f "
			   "TFLOP/s</span> (the device's clock and cores)",
			d->fp32_tflops, d->fp32_tflops);
	else
		fprintf(f, "; fp32 peak: not in this file, so the FLOP roofline "
			   "has no compute roof");
	fprintf(f, ".</p>\n");
}

static void foot(FILE *f, const struct g_run *run, const struct html_opts *o)
{
	char settings[768];

	fprintf(f, "<footer>\n");
	device(f, run);
	if (run->condition[0]) {
		fprintf(f, "<b>The GPU's condition at the start and the end</b>"
			   "<pre class=\"condition\">");
		html_str(f, run->condition);
		fprintf(f, "</pre>\n");
	}
	report_settings_line(settings, sizeof(settings), run);
	fprintf(f, "<p>Graded with ");
	html_str(f, settings);
	fprintf(f, ".");
	if (!o || !o->no_seed) {
		fprintf(f, " Reproduce these inputs: <code class=\"reproduce\">make "
			   "%s SRC=\"", run->mode == G_BENCH ? "bench" : "grade");
		html_str(f, run->source);
		fprintf(f, "\" SEED=%llu</code> (add LAB= and EX= for one "
			   "exercise).", run->seed);
	}
	fprintf(f, "</p>\n");
	if (o && o->results) {
		fprintf(f, "<p class=\"from\">Drawn by make report from ");
		html_str(f, o->results);
		fprintf(f, " (");
		html_str(f, o->from);
		fprintf(f, ").</p>\n");
	}
	if (o && o->notes && o->notes[0]) {
		fprintf(f, "<pre class=\"notes\">");
		html_str(f, o->notes);
		fprintf(f, "</pre>\n");
	}
	fprintf(f, "<p>How the points, tiers and speed of light are computed: "
		   "docs/grading.md.</p>\n</footer>\n");
}

void html_page(FILE *f, const struct g_run *run, const struct html_opts *o)
{
	head(f, run, o);
	next_box(f, run);
	overview(f, run);
	lab_sections(f, run);
	foot(f, run, o);
	fprintf(f, "</body></html>\n");
}

/* ---- writing it ----------------------------------------------------------- */

int html_load_solutions(const char *path)
{
	static struct runfile sol;
	char err[512];

	if (access(path, R_OK))
		return -1;
	runfile_free(&sol);
	if (runfile_read(path, NULL, &sol, err, sizeof(err))) {
		fprintf(stderr, "grader: the solutions' %s: %s (no solution "
				"points on the page)\n", path, err);
		runfile_free(&sol);
		return -1;
	}
	chart_set_solutions(&sol.run);
	return 0;
}

static const struct html_opts *write_opts;

static void page_of_run(FILE *f, const struct g_run *run)
{
	html_page(f, run, write_opts);
}

int html_write(const char *path, const struct g_run *run,
	       const struct html_opts *o)
{
	int ret;

	write_opts = o;
	ret = report_write_atomic(path, page_of_run, run);
	write_opts = NULL;
	return ret;
}

int report_html(const char *path, const struct g_run *run)
{
	return html_write(path, run, NULL);
}
