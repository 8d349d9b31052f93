/* SPDX-License-Identifier: MIT */
/*
 * chart.c - report.html's charts, as inline SVG (html.h): each lab's
 * roofline, each exercise's speedup against its tiers, and its attempts.
 *
 * Every number drawn comes from the run: the roofs from what this run
 * measured (the copy bandwidth, devinfo's fp32 peak, the library's time),
 * the points from the exercise's bytes, FLOPs and median times. Axis ticks
 * carry data-value and points data-x and data-y, in the axis' units.
 */
#include <math.h>
#include <string.h>

#include "html.h"

#define W 530
#define H 300
#define ML 64 /* margins: left (tick labels), right, top, bottom */
#define MR 120
#define MT 34
#define MB 40

#define C_NAIVE "#8c959f"
#define C_YOURS "#0969da"
#define C_PEER "#bf8700"
#define C_SOLN "#8250df"

/* The solutions' last run, for the "solution" points (html.h). */
static const struct g_run *solutions;

/* A value range drawn over a pixel range, linear or log10. */
struct axis {
	double lo, hi;
	int log;
	double p0, p1; /* pixels of lo and hi */
};

static double pos(const struct axis *a, double v)
{
	double t;

	if (a->log)
		t = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	else
		t = (v - a->lo) / (a->hi - a->lo);
	return a->p0 + t * (a->p1 - a->p0);
}

/* 10^floor(log10(v)) and 10^ceil(log10(v)). */
static double dec_floor(double v) { return pow(10, floor(log10(v) + 1e-9)); }
static double dec_ceil(double v) { return pow(10, ceil(log10(v) - 1e-9)); }

/* A round step giving about five ticks from 0 to hi. */
static double nice_step(double hi)
{
	double base = dec_floor(hi / 5), m = hi / 5 / base;

	return base * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10);
}

/* A tick's label: "0.1", "10", "2500". */
static void tick_label(char *buf, size_t n, double v)
{
	snprintf(buf, n, "%g", v);
}

static void x_tick(FILE *f, const struct axis *x, const struct axis *y, double v)
{
	char lab[32];
	double px = pos(x, v);

	tick_label(lab, sizeof(lab), v);
	fprintf(f, "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		   "y2=\"%.2f\"/>\n", px, y->p0, px, y->p1);
	fprintf(f, "<text class=\"xtick\" data-value=\"%g\" data-pos=\"%.2f\" "
		   "x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n", v,
		px, px, y->p0 + 14, lab);
}

static void y_tick(FILE *f, const struct axis *x, const struct axis *y, double v)
{
	char lab[32];
	double py = pos(y, v);

	tick_label(lab, sizeof(lab), v);
	fprintf(f, "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
		   "y2=\"%.2f\"/>\n", x->p0, py, x->p1, py);
	fprintf(f, "<text class=\"ytick\" data-value=\"%g\" data-pos=\"%.2f\" "
		   "x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n", v, py,
		x->p0 - 5, py + 4, lab);
}

static void log_ticks(FILE *f, const struct axis *x, const struct axis *y,
		      int which)
{
	const struct axis *a = which ? y : x;

	for (double v = a->lo; v <= a->hi * 1.001; v *= 10)
		(which ? y_tick : x_tick)(f, x, y, v);
}

/* An <svg> of class cls, for lab (data-lab; NULL: none). */
static void svg_open(FILE *f, const char *cls, const char *lab, int w, int h,
		     const char *label)
{
	fprintf(f, "<svg class=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		   "aria-label=\"", cls, w, h, w, h);
	html_str(f, label);
	if (lab) {
		fprintf(f, "\" data-lab=\"");
		html_str(f, lab);
	}
	fprintf(f, "\">\n");
}

/* A point: a circle (or a diamond for the library), its label beside it. */
static void point(FILE *f, const char *kind, const char *ex, double px,
		  double py, double vx, double vy, const char *label)
{
	const char *c = !strcmp(kind, "naive") ? C_NAIVE :
			!strcmp(kind, "peer") ? C_PEER :
			!strcmp(kind, "solution") ? C_SOLN : C_YOURS;

	fprintf(f, "<g class=\"pt\" data-kind=\"%s\" data-ex=\"", kind);
	html_str(f, ex);
	fprintf(f, "\" data-x=\"%.6g\" data-y=\"%.6g\" data-px=\"%.2f\" "
		   "data-py=\"%.2f\">", vx, vy, px, py);
	if (!strcmp(kind, "peer"))
		fprintf(f, "<path d=\"M%.2f %.2fl6 6-6 6-6-6z\" fill=\"%s\"/>",
			px, py - 6, c);
	else
		fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"5\" fill=\"%s\"/>",
			px, py, c);
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" fill=\"%s\">", px + 9,
		py + (!strcmp(kind, "peer") ? -4 : !strcmp(kind, "student") ? 12 :
		      !strcmp(kind, "solution") ? -6 : 4), c);
	html_str(f, label);
	fprintf(f, "</text></g>\n");
}

double chart_peer_us(const struct g_result *r)
{
	if (r->t[G_PEER].have && r->t[G_PEER].median_us > 0)
		return r->t[G_PEER].median_us;
	if (!strcmp(r->sol, "peer") && r->t[G_IDEAL].have)
		return r->t[G_IDEAL].median_us;
	return 0;
}

void chart_set_solutions(const struct g_run *sol)
{
	solutions = sol;
}

/* Is run the solutions' own (make grade-solutions, make bench)? */
static int is_solutions(const struct g_run *run)
{
	return run->mode == G_BENCH ||
	       (run->source && !strcmp(run->source, "solutions"));
}

double chart_solution_us(const struct g_run *run, const struct g_row *row)
{
	if (!solutions || is_solutions(run))
		return 0;
	for (int i = 0; i < solutions->nrows; i++) {
		const struct g_row *s = &solutions->rows[i];

		if (!strcmp(s->spec.lab, row->spec.lab) &&
		    !strcmp(s->spec.name, row->spec.name) &&
		    s->res.verdict == WB_V_PASS && s->res.t[G_STUDENT].have)
			return s->res.t[G_STUDENT].median_us;
	}
	return 0;
}

/* "yours", or "solution" when the solutions are what was graded. */
static const char *yours(const struct g_run *run)
{
	return is_solutions(run) ? "solution" : "yours";
}

/* ---- the FLOP/s roofline ------------------------------------------------ */

static int counts_flops(const struct g_row *row, const char *lab)
{
	const struct g_result *r = &row->res;

	return !strcmp(row->spec.lab, lab) && r->flops > 0 && r->bytes > 0 &&
	       (r->t[G_STUDENT].have || r->t[G_NAIVE].have);
}

static double tflops_at(const struct g_result *r, double us)
{
	return us > 0 ? r->flops / (us * 1e-6) / 1e12 : 0;
}

/* The ranges: every point, the ridge and the peaks fit, in decades. */
static void flops_ranges(const struct g_run *run, const char *lab,
			 struct axis *x, struct axis *y)
{
	double amin = 1e30, amax = 0, vmin = 1e30, vmax = 0;
	double bw = run->dev.copy_gbps, peak = run->dev.fp32_tflops;

	for (int i = 0; i < run->nrows; i++) {
		const struct g_result *r = &run->rows[i].res;
		double ai, v[4];

		if (!counts_flops(&run->rows[i], lab))
			continue;
		ai = r->flops / r->bytes;
		amin = fmin(amin, ai);
		amax = fmax(amax, ai);
		v[0] = tflops_at(r, r->t[G_STUDENT].median_us);
		v[1] = tflops_at(r, r->t[G_NAIVE].median_us);
		v[2] = tflops_at(r, chart_peer_us(r));
		v[3] = tflops_at(r, chart_solution_us(run, &run->rows[i]));
		for (int k = 0; k < 4; k++)
			if (v[k] > 0) {
				vmin = fmin(vmin, v[k]);
				vmax = fmax(vmax, v[k]);
			}
	}
	if (bw > 0 && peak > 0) {
		amin = fmin(amin, peak * 1e3 / bw);
		amax = fmax(amax, peak * 1e3 / bw);
		vmax = fmax(vmax, peak);
	}
	x->lo = dec_floor(amin / 100);
	x->hi = dec_ceil(amax * 3);
	if (bw > 0)
		vmin = fmin(vmin, bw * x->lo / 1e3 * 3);
	y->lo = dec_floor(vmin);
	y->hi = dec_ceil(vmax * 1.5);
	x->log = y->log = 1;
	x->p0 = ML;
	x->p1 = W - MR;
	y->p0 = H - MB;
	y->p1 = MT;
}

/* The memory roof up to the ridge (or the top), the compute roof after. */
static void flops_roofs(FILE *f, const struct g_run *run, const struct axis *x,
			const struct axis *y)
{
	double bw = run->dev.copy_gbps, peak = run->dev.fp32_tflops, end;

	if (bw > 0) {
		end = peak > 0 ? peak * 1e3 / bw : fmin(x->hi, y->hi * 1e3 / bw);
		fprintf(f, "<line class=\"roof\" data-roof=\"copy\" data-gbps=\"%g\" "
			   "x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", bw,
			pos(x, x->lo), pos(y, bw * x->lo / 1e3), pos(x, end),
			pos(y, bw * end / 1e3));
		fprintf(f, "<text class=\"rooflabel\" x=\"%.2f\" y=\"%.2f\">copy "
			   "%.0f GB/s</text>\n", pos(x, x->lo) + 4,
			pos(y, bw * x->lo / 1e3) - 8, bw);
	}
	if (peak > 0 && bw > 0) {
		double ridge = peak * 1e3 / bw;

		fprintf(f, "<line class=\"roof\" data-roof=\"fp32\" "
			   "data-tflops=\"%g\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			   "y2=\"%.2f\"/>\n", peak, pos(x, ridge), pos(y, peak),
			pos(x, x->hi), pos(y, peak));
		fprintf(f, "<text class=\"rooflabel\" x=\"%.2f\" y=\"%.2f\">fp32 "
			   "peak %.1f TFLOP/s</text>\n", pos(x, ridge), pos(y, peak) - 6,
			peak);
	}
}

/* The library's rate as a dashed roof of its own. */
static void flops_peer_roof(FILE *f, const struct g_result *r,
			    const struct axis *x, const struct axis *y)
{
	double v = tflops_at(r, chart_peer_us(r));

	if (v <= 0)
		return;
	fprintf(f, "<line class=\"roof peer\" data-roof=\"peer\" data-tflops=\"%g\" "
		   "x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", v,
		pos(x, x->lo), pos(y, v), pos(x, x->hi), pos(y, v));
	fprintf(f, "<text class=\"rooflabel peer\" x=\"%.2f\" y=\"%.2f\">"
		   "library, timed now: %.1f TFLOP/s</text>\n", pos(x, x->lo) + 4,
		pos(y, v) + 13, v);
}

static void flops_points(FILE *f, const struct g_run *run,
			 const struct g_row *row, const struct axis *x,
			 const struct axis *y)
{
	const struct g_result *r = &row->res;
	double ai = r->flops / r->bytes, v;
	char label[160];
	const char *kind[4] = { "naive", "peer", "solution", "student" };
	double us[4] = {
		r->t[G_NAIVE].have ? r->t[G_NAIVE].median_us : 0,
		chart_peer_us(r), chart_solution_us(run, row),
		r->t[G_STUDENT].have && r->verdict == WB_V_PASS ?
			r->t[G_STUDENT].median_us : 0,
	};

	for (int k = 0; k < 4; k++) {
		v = tflops_at(r, us[k]);
		if (v <= 0)
			continue;
		snprintf(label, sizeof(label), "%s %s %.1f", row->spec.name,
			 k == 0 ? "naive" : k == 1 ? "library" : k == 2 ?
			 "solution" : yours(run), v);
		point(f, kind[k], row->spec.name, pos(x, ai), pos(y, v), ai, v,
		      label);
	}
}

static void chart_flops(FILE *f, const struct g_run *run, const char *lab)
{
	struct axis x, y;

	flops_ranges(run, lab, &x, &y);
	svg_open(f, "roofline flops", lab, W, H, "roofline: FLOP/s against "
		 "arithmetic intensity");
	fprintf(f, "<text class=\"title\" x=\"%d\" y=\"16\">Roofline: TFLOP/s "
		   "against FLOPs per byte</text>\n", ML);
	log_ticks(f, &x, &y, 0);
	log_ticks(f, &x, &y, 1);
	fprintf(f, "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		   "arithmetic intensity (FLOP/byte)</text>\n", (ML + W - MR) / 2,
		H - 6);
	fprintf(f, "<text class=\"axis\" transform=\"rotate(-90)\" x=\"%d\" "
		   "y=\"14\" text-anchor=\"middle\">TFLOP/s</text>\n",
		-(MT + H - MB) / 2);
	flops_roofs(f, run, &x, &y);
	for (int i = 0; i < run->nrows; i++)
		if (counts_flops(&run->rows[i], lab)) {
			flops_peer_roof(f, &run->rows[i].res, &x, &y);
			flops_points(f, run, &run->rows[i], &x, &y);
		}
	fprintf(f, "</svg>\n");
}

/* ---- the GB/s roofline, for exercises that count no FLOPs --------------- */

static int counts_bytes(const struct g_row *row, const char *lab)
{
	const struct g_result *r = &row->res;

	return !strcmp(row->spec.lab, lab) && row->spec.speed && r->flops <= 0 &&
	       r->bytes > 0 && (r->t[G_STUDENT].have || r->t[G_NAIVE].have);
}

static double gbps_at(const struct g_result *r, double us)
{
	return us > 0 ? r->bytes / (us * 1e3) : 0;
}

static double bytes_top(const struct g_run *run, const char *lab)
{
	double top = fmax(run->dev.copy_gbps, run->dev.dram_gbps);

	for (int i = 0; i < run->nrows; i++) {
		const struct g_result *r = &run->rows[i].res;

		if (!counts_bytes(&run->rows[i], lab))
			continue;
		for (int k = 0; k < G_IMPLS; k++)
			if (r->t[k].have)
				top = fmax(top, gbps_at(r, r->t[k].median_us));
		top = fmax(top, gbps_at(r, chart_solution_us(run, &run->rows[i])));
	}
	return top * 1.08;
}

/* A horizontal roof across the plot, labelled at its right end. */
static void gbps_roof(FILE *f, const char *key, const char *cls, double v,
		      const struct axis *x, const struct axis *y, const char *what)
{
	if (v <= 0)
		return;
	fprintf(f, "<line class=\"%s\" data-roof=\"%s\" data-gbps=\"%g\" x1=\"%.2f\" "
		   "y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", cls, key, v, x->p0,
		pos(y, v), x->p1, pos(y, v));
	fprintf(f, "<text class=\"rooflabel\" x=\"%.2f\" y=\"%.2f\">%s %.0f GB/s"
		   "</text>\n", x->p1 + 4, pos(y, v) + 4, what, v);
}

/* One exercise's column: its speed of light, the naive, the library, yours. */
static void gbps_column(FILE *f, const struct g_run *run,
			const struct g_row *row, double cx, const struct axis *y)
{
	const struct g_result *r = &row->res;
	double sol = r->t[G_IDEAL].have ? gbps_at(r, r->t[G_IDEAL].median_us) : 0;
	double v, pv = 0;
	char label[96];

	if (sol > 0) {
		fprintf(f, "<line class=\"sol\" data-ex=\"");
		html_str(f, row->spec.name);
		fprintf(f, "\" data-gbps=\"%.6g\" x1=\"%.2f\" y1=\"%.2f\" "
			   "x2=\"%.2f\" y2=\"%.2f\"/>\n", sol, cx - 22,
			pos(y, sol), cx + 22, pos(y, sol));
	}
	if (r->t[G_NAIVE].have) {
		v = gbps_at(r, r->t[G_NAIVE].median_us);
		snprintf(label, sizeof(label), "%.0f", v);
		point(f, "naive", row->spec.name, cx - 10, pos(y, v), 0, v, label);
	}
	if ((v = gbps_at(r, chart_peer_us(r))) > 0) {
		snprintf(label, sizeof(label), "%.0f", v);
		point(f, "peer", row->spec.name, cx - 10, pos(y, v), 0, v, label);
	}
	if ((v = gbps_at(r, chart_solution_us(run, row))) > 0) {
		snprintf(label, sizeof(label), "%.0f", v);
		point(f, "solution", row->spec.name, cx - 10, pos(y, v), 0, v, label);
	}
	if (r->t[G_STUDENT].have && r->verdict == WB_V_PASS) {
		pv = gbps_at(r, r->t[G_STUDENT].median_us);
		snprintf(label, sizeof(label), "%.0f", pv);
		point(f, "student", row->spec.name, cx - 10, pos(y, pv), 0, pv, label);
	}
	if (sol > 0 && pv > 0 && r->share > 0)
		fprintf(f, "<line class=\"gap\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" "
			   "y2=\"%.2f\"/>\n", cx - 10, pos(y, pv), cx - 10,
			pos(y, sol));
	fprintf(f, "<text class=\"colname\" x=\"%.2f\" y=\"%.2f\" "
		   "text-anchor=\"middle\">", cx, y->p0 + 16);
	html_str(f, row->spec.name);
	fprintf(f, "</text>\n");
	if (r->share > 0 && r->verdict == WB_V_PASS)
		fprintf(f, "<text class=\"colsol\" x=\"%.2f\" y=\"%.2f\" "
			   "text-anchor=\"middle\">%.0f%% of SOL</text>\n", cx,
			y->p0 + 30, 100 * r->share);
}

static void chart_bytes(FILE *f, const struct g_run *run, const char *lab, int n)
{
	struct axis x = { 0, n, 0, ML, W - MR }, y;
	double step;
	int k = 0;

	y = (struct axis){ 0, bytes_top(run, lab), 0, H - MB, MT };
	step = nice_step(y.hi);
	svg_open(f, "roofline bytes", lab, W, H + 14, "memory roofline: GB/s against "
		 "this GPU's copy bandwidth");
	fprintf(f, "<text class=\"title\" x=\"%d\" y=\"16\">Memory roofline: "
		   "GB/s moved (these exercises count no FLOPs)</text>\n", ML);
	for (double v = 0; v <= y.hi; v += step)
		y_tick(f, &x, &y, v);
	fprintf(f, "<text class=\"axis\" transform=\"rotate(-90)\" x=\"%d\" "
		   "y=\"14\" text-anchor=\"middle\">GB/s</text>\n",
		-(MT + H - MB) / 2);
	gbps_roof(f, "copy", "roof", run->dev.copy_gbps, &x, &y, "copy");
	gbps_roof(f, "dram", "roof dram", run->dev.dram_gbps, &x, &y, "DRAM");
	for (int i = 0; i < run->nrows; i++)
		if (counts_bytes(&run->rows[i], lab))
			gbps_column(f, run, &run->rows[i], pos(&x, k++ + 0.5), &y);
	fprintf(f, "</svg>\n");
}

void chart_lab(FILE *f, const struct g_run *run, const char *lab)
{
	int nbytes = 0, nflops = 0;

	for (int i = 0; i < run->nrows; i++) {
		nbytes += counts_bytes(&run->rows[i], lab);
		nflops += counts_flops(&run->rows[i], lab);
	}
	if (nbytes)
		chart_bytes(f, run, lab, nbytes);
	if (nflops)
		chart_flops(f, run, lab);
}

/* ---- an exercise's speedup against its tiers ---------------------------- */

static const char *tier_colour(int tier, int ntiers)
{
	if (tier <= 0)
		return "#cf222e";
	return tier >= ntiers ? "#1a7f37" : tier * 2 >= ntiers ? "#4d9a2a" : "#bf8700";
}

/* The speedup axis: log, from below the naive (or the speedup) to past
 * the last tier, so that tiers close to the naive stay apart. */
static struct axis speedup_axis(const struct g_row *row, int w)
{
	const struct g_result *r = &row->res;
	double lo = 0.8, hi = 1.5;

	for (int k = 0; k < row->spec.ntiers; k++)
		hi = fmax(hi, r->at[k] * 1.25);
	if (r->speedup > 0) {
		hi = fmax(hi, r->speedup * 1.15);
		lo = fmin(lo, r->speedup * 0.8);
	}
	return (struct axis){ lo, hi, 1, 4, w - 8 };
}

/* A vertical mark across the bar at v, labelled above (big bars only). */
static void bar_mark(FILE *f, const char *cls, const struct axis *x, double v,
		     int tier, const char *label)
{
	fprintf(f, "<line class=\"%s\" data-tier=\"%d\" data-value=\"%.4f\" "
		   "x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>", cls, tier, v,
		pos(x, v), label ? 14 : 2, pos(x, v), label ? 34 : 20);
	if (label)
		fprintf(f, "<text class=\"mark\" x=\"%.2f\" y=\"11\" "
			   "text-anchor=\"middle\">%s</text>", pos(x, v), label);
	fputc('\n', f);
}

void chart_speedup(FILE *f, const struct g_row *row, int w, int big)
{
	const struct g_result *r = &row->res;
	int nt = row->spec.ntiers, h = big ? 40 : 22, y0 = big ? 18 : 5;
	struct axis x = speedup_axis(row, w);
	char label[16];

	fprintf(f, "<svg class=\"speedup\" data-ex=\"");
	html_str(f, row->spec.name);
	fprintf(f, "\" data-speedup=\"%.4f\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", r->speedup,
		w, h, w, h);
	fprintf(f, "<rect class=\"track\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
		   "height=\"12\" rx=\"3\"/>\n", x.p0, y0, x.p1 - x.p0);
	if (r->speedup > 0)
		fprintf(f, "<rect class=\"bar\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
			   "height=\"12\" rx=\"3\" fill=\"%s\"/>\n", x.p0, y0,
			pos(&x, r->speedup) - x.p0, tier_colour(r->tier, nt));
	bar_mark(f, "naive", &x, 1, 0, big ? "naive" : NULL);
	for (int k = 0; k < nt && r->at[k] > 0; k++) {
		snprintf(label, sizeof(label), "T%d", k + 1);
		bar_mark(f, "tier", &x, r->at[k], k + 1, big ? label : NULL);
	}
	fprintf(f, "</svg>");
}

/* ---- an exercise's attempts --------------------------------------------- */

#define HW 500
#define HH 190

/* Each entry's version: 0, 1, ...; a changed hash starts the next one. */
static int versions(const struct hist_entry *e, int n, int *ver)
{
	int v = -1;

	for (int i = 0; i < n; i++) {
		if (!i || strcmp(e[i].hash, e[i - 1].hash))
			v++;
		ver[i] = v;
	}
	return v + 1;
}

static void hist_point(FILE *f, const struct hist_entry *e, double px,
		       const struct axis *y)
{
	int pass = !strcmp(e->verdict, "PASS");
	double py = pos(y, pass ? e->speedup : 0);

	fprintf(f, "<g class=\"attempt\" data-x=\"%.2f\" data-y=\"%.4f\" "
		   "data-verdict=\"", px, pass ? e->speedup : 0);
	html_str(f, e->verdict);
	fprintf(f, "\"><title>");
	html_str(f, e->time);
	fprintf(f, " ");
	html_str(f, e->verdict);
	fprintf(f, " %.2fx, %g points</title>", e->speedup, e->points);
	if (pass)
		fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"%s\"/>",
			px, py, C_YOURS);
	else
		fprintf(f, "<path d=\"M%.2f %.2fl8 8m0-8l-8 8\" stroke=\"#cf222e\" "
			   "stroke-width=\"2\"/>", px - 4, py - 4);
	fprintf(f, "</g>\n");
}

void chart_history(FILE *f, const struct g_row *row,
		   const struct hist_entry *e, int n)
{
	int ver[CHART_MAX_ATTEMPTS], nv, every;
	const struct g_result *r = &row->res;
	struct axis x, y;
	double top = 1.2;

	n = n < CHART_MAX_ATTEMPTS ? n : CHART_MAX_ATTEMPTS;
	nv = versions(e, n, ver);
	every = nv / 12 + 1; /* a label every few versions when there are many */
	for (int i = 0; i < n; i++)
		top = fmax(top, e[i].speedup);
	for (int k = 0; k < row->spec.ntiers; k++)
		top = fmax(top, r->at[k]);
	x = (struct axis){ -0.5, nv - 0.5, 0, 48, HW - 70 };
	y = (struct axis){ 0, top * 1.1, 0, HH - 34, 22 };
	svg_open(f, "history", NULL, HW, HH, "speedup over attempts");
	fprintf(f, "<text class=\"title\" x=\"48\" y=\"13\">Your attempts: "
		   "speedup per version of the file (%d graded, %d versions)"
		   "</text>\n", n, nv);
	for (double v = 0, s = nice_step(y.hi); v <= y.hi; v += s)
		y_tick(f, &x, &y, v);
	for (int k = 0; k < row->spec.ntiers && r->at[k] > 0; k++)
		fprintf(f, "<line class=\"tier\" data-value=\"%.4f\" x1=\"%.2f\" "
			   "y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/><text class=\"mark\" "
			   "x=\"%.2f\" y=\"%.2f\">T%d %.2fx</text>\n", r->at[k], x.p0,
			pos(&y, r->at[k]), x.p1, pos(&y, r->at[k]), x.p1 + 4,
			pos(&y, r->at[k]) + 4, k + 1, r->at[k]);
	for (int i = 0, first = 0; i < n; i++) {
		int m = 0;

		if (!i || ver[i] != ver[i - 1]) {
			first = i;
			if (ver[i] % every == 0)
				fprintf(f, "<text class=\"xtick\" x=\"%.2f\" y=\"%.2f\" "
					   "text-anchor=\"middle\">v%d</text>\n",
					pos(&x, ver[i]), y.p0 + 14, ver[i] + 1);
		}
		while (i + m + 1 < n && ver[i + m + 1] == ver[i])
			m++;
		/* Attempts at one version side by side, 5 px apart. */
		hist_point(f, &e[i], pos(&x, ver[i]) +
			   5 * ((i - first) - (i - first + m) / 2.0), &y);
	}
	fprintf(f, "</svg>\n");
}
