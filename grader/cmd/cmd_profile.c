/* SPDX-License-Identifier: MIT */
/*
 * cmd_profile.c - grader --mode profile (make profile): every exercise
 * asked for under Nsight Compute, beside the naive and the solution where
 * WITH= asks, its table printed; nothing graded (ncu.h).
 */
#include "cmd.h"

#include <stdio.h>

#include "ncu.h"

int cmd_profile(struct cmd_state *st)
{
	static struct ncu_ctx prof;
	struct options *o = &st->o;
	int rc = cmd_start(st);

	if (!rc)
		rc = cmd_rows(st);
	if (rc)
		return rc;
	cmd_header(st);
	if (o->mode != G_BUILD_ONLY)
		gpu_report_start(&st->gpu, &st->run, stdout);
	ncu_init(&prof, o->ncu, st->run.seed, st->run.dev.copy_gbps);
	prof.shape = o->shape;
	prof.cc = st->run.dev.cc;
	return ncu_all(&prof, st->rows, st->run.nrows, o->build_dir,
		       o->sol_build, o->with, o->profile_tsv);
}
