/* SPDX-License-Identifier: MIT */
/*
 * cmd_probe.c - grader --probe-only FILE: the GPU probe alone, under the
 * GPU lock, beside make grade's build (make grade then hands the file to
 * the grading run as --probe-file). Exit 2 and one line when there is no
 * usable GPU.
 */
#include "cmd.h"

#include "device.h"

int cmd_probe(struct cmd_state *st)
{
	gpu_begin(&st->gpu);
	return device_probe_to(st->o.devinfo, st->o.probe_only) ? 2 : 0;
}
