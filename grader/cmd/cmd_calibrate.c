/* SPDX-License-Identifier: MIT */
/*
 * cmd_calibrate.c - the two commands over a calibration's recording
 * (make calibrate, docs/grading.md): --propose-tiers ALL.TSV proposes
 * each exercise's tiers from it, --score-recording ALL.TSV scores its
 * rows with the labs' own tiers. Nothing runs on a GPU.
 */
#include "cmd.h"

#include <stdio.h>

#include "calibrate.h"

int cmd_propose(struct cmd_state *st)
{
	int rc = cmd_start(st);

	if (!rc)
		rc = cmd_rows(st);
	return rc ? rc : calib_run(st->o.propose, st->rows, st->run.nrows,
				   stdout);
}

int cmd_score(struct cmd_state *st)
{
	int rc = cmd_start(st);

	if (!rc)
		rc = cmd_rows(st);
	return rc ? rc : calib_score(st->o.score, st->rows, st->run.nrows,
				     stdout);
}
