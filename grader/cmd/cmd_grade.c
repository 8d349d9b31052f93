/* SPDX-License-Identifier: MIT */
/*
 * cmd_grade.c - grader (make grade, make bench, make check): every
 * exercise asked for, each on its trip (trip.h), then the table and the
 * files asked for (formats.h), the attempts' history and the report.
 */
#include "cmd.h"

#include <stdio.h>
#include <time.h>

#include "history.h"
#include "html.h"
#include "ncu.h"
#include "report.h"
#include "trip.h"

static int finish(const struct options *o, struct g_run *run)
{
	int all_ok = 1;

	if (o->mode == G_BENCH)
		report_bench(stdout, run);
	else
		report_table(stdout, run);
	/* A graded attempt joins its roots' histories before the report
	 * draws them; a single size (SIZE=) is not an attempt. */
	if (o->history && o->mode == G_GRADE && !o->size) {
		hist_locate(run, o->build_dir, o->history);
		hist_append(run, time(NULL));
	}
	if (o->solutions_run)
		html_load_solutions(o->solutions_run);
	report_outputs_write(&o->out, run, stdout);
	for (int i = 0; i < run->nrows; i++) {
		enum wb_verdict v = run->rows[i].res.verdict;

		all_ok &= v == WB_V_PASS || (o->mode == G_BUILD_ONLY &&
					     (v == WB_V_BUILT || v == WB_V_SKELETON));
	}
	return all_ok ? 0 : 1;
}

int cmd_grade(struct cmd_state *st)
{
	static struct ncu_ctx prof; /* Nsight Compute across exercises */
	struct options *o = &st->o;
	struct g_run *run = &st->run;
	struct trip_env env = {
		o->build_dir, o->reference_dir, 0, o->mode, o->size,
		o->no_lockdown, o->timeout_cap, o->sanitizer, NULL,
		o->sanitize_all, NULL,
	};
	/* build-only takes no time an exercise: no progress lines */
	int quiet = o->mode == G_BUILD_ONLY, rc = cmd_start(st);

	if (!rc)
		rc = cmd_rows(st);
	if (rc)
		return rc;
	env.seed = o->seed;
	env.sanitizer_found = o->sanitizer_found;
	cmd_header(st);
	if (o->mode != G_BUILD_ONLY)
		gpu_report_start(&st->gpu, run, stdout);
	if (o->ncu) {
		ncu_init(&prof, o->ncu, run->seed, run->dev.copy_gbps);
		prof.shape = o->shape;
		prof.cc = run->dev.cc;
		env.ncu = &prof;
	}
	fflush(stdout); /* the heading before the progress (stderr) */
	for (int i = 0; i < run->nrows; i++) {
		struct g_row *row = &st->rows[i];

		if (!quiet)
			fprintf(stderr, "[%d/%d] %s/%s ...", i + 1, run->nrows,
				row->spec.lab, row->spec.name);
		/* A row of a lab whose code did not build is already ERROR. */
		if (row->res.verdict != WB_V_ERROR || !row->res.ndetails)
			trip_run(&env, &run->dev, row);
		gpu_after_exercise(&st->gpu);
		if (!quiet)
			fprintf(stderr, " %s (%.1f s)\n",
				wb_verdict_label(row->res.verdict),
				row->res.wall_s);
	}
	if (o->mode != G_BUILD_ONLY)
		gpu_report_end(&st->gpu, run, o->mode == G_BENCH ? stdout : NULL);
	return finish(o, run);
}
