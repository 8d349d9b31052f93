/* SPDX-License-Identifier: MIT */
/*
 * main.c - batch: grade a folder of submissions into a gradebook.
 *
 *   batch --submissions DIR [--out DIR] [options]      grade (or resume)
 *   batch ... --merge                                  gradebook only
 *   batch ... --slurm-script [--chunk N ...]           Slurm job array
 *   batch ... --exec STUDENT -- CMD [ARGS]             CMD in its sandbox
 *   batch --sandbox-exec --scratch DIR ... -- CMD       CMD in a sandbox
 *   batch --take-json FROM TO                          a results.json out
 *
 * --sandbox-exec runs one command in the sandbox every grading runs in,
 * writable folder DIR: the Gradescope autograder builds and grades in it,
 * and the tests run hostile programs in it (the test hook). --take-json
 * copies a results.json that sandboxed code wrote to where only the
 * outside may write, checked (bt_take_json()).
 *
 * Run it through make (make batch, make slurm-script): make builds the
 * grader, the labs' own objects and the harness first, once, outside any
 * sandbox, and passes where they are. docs/batch-grading.md says it all
 * from the instructor's side.
 *
 * Exit status: 0 every submission graded, 1 some could not be (see
 * failed/), 2 nothing was graded (bad arguments, no GPU, no sandbox and
 * not --sandbox off), 130 interrupted (run it again to resume).
 *
 * Floor 6 (batch.h), the top: main() reads the command line (cli.c), sets
 * up (setup.c), reads what is graded (lablist.c, selection.c, late.c,
 * roster.c) and the rules (settings.c), and runs the mode (modes.c).
 */
#include "board.h"
#include "boxstep.h"
#include "cli.h"
#include "files.h"
#include "lablist.h"
#include "late.h"
#include "modes.h"
#include "roster.h"
#include "selection.h"
#include "settings.h"
#include "setup.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* IDS=, TIMES=: an absolute path (Slurm's nodes read them too). */
static int abs_path(const char *what, const char **p, char *buf)
{
	if (!*p)
		return 0;
	if (bt_realpath(*p, buf, BT_PATH)) {
		fprintf(stderr, "batch: %s=%s: no such file\n", what, *p);
		return -1;
	}
	*p = buf;
	return 0;
}

int main(int argc, char **argv)
{
	static struct cli k;
	static char pairs[8192], ids[BT_PATH], times[BT_PATH];
	struct bt_conf *c = &k.c;
	char labs[BT_PATH];
	struct bt_sub *subs;
	int n, rc;

	/* The steps of a sandbox's command line (boxstep.c), and taking a
	 * results.json out of one: before anything else. */
	if (argc > 1 && !strcmp(argv[1], "--box-enter"))
		return bt_box_enter(argv + 2);
	if (argc > 1 && !strcmp(argv[1], "--box-init"))
		return bt_box_init(argv + 2);
	if (argc > 1 && !strcmp(argv[1], "--take-json"))
		return argc == 4 ? mode_take_json(argv[2], argv[3]) : cli_usage();
	/* Gradescope's leaderboard into a results.json taken out (the
	 * bundle's run_autograder, for a course that asks for one). */
	if (argc > 1 && !strcmp(argv[1], "--leaderboard"))
		return argc == 4 ? !!bt_json_add_leaderboard(argv[2], argv[3]) :
				   cli_usage();
	c->task = -1;
	if (cli_parse(argc, argv, &k))
		return cli_usage();
	if (setup_paths(&k))
		return 2;
	if (k.merge)
		bt_merge_settings(c);
	else if (setup_tools(&k))
		return 2;
	if (k.sandbox_exec)
		return mode_exec_boxed(&k, k.scratch_abs);
	if (c->course[0] && !k.sandbox_exec &&
	    select_course(&k, pairs, sizeof(pairs)))
		return 2;
	bt_fmt(labs, sizeof(labs), "%s/labs", c->repo);
	if (bt_read_labs(labs, c->lab, &c->labs) ||
	    (c->course[0] && bt_select_exercises(&c->labs, pairs))) {
		fprintf(stderr, "batch: no lab%s%s in %s\n", c->lab ? " named " : "s",
			c->lab ? c->lab : "", labs);
		return 2;
	}
	if (!k.merge)
		bt_rules_fingerprint(c);
	if (bt_read_late(c->course[0] ? c->course : NULL, &c->late) ||
	    abs_path("IDS", &c->ids, ids) || abs_path("TIMES", &c->times, times))
		return 2;
	if (k.slurm && c->regrade && !bt_regrade_all(c)) {
		fprintf(stderr, "batch: REGRADE=%s is for make batch (a student "
				"or two need no cluster); make slurm-script takes "
				"REGRADE=all\n", c->regrade);
		return 2;
	}
	if (!k.exec_id && !k.merge && bt_check_settings(c))
		return 2;
	n = bt_list_subs_ids(c->subs, c->ids, &subs);
	if (n < 0) {
		fprintf(stderr, "batch: the submissions in %s could not be "
				"listed (above: why)\n", c->subs);
		return 2;
	}
	if (bt_submission_times(c->times, subs, n) ||
	    select_subs(&k, &subs, &n))
		return 2;
	rc = mode_run(&k, subs, n, argv[0]);
	bt_free_subs(subs, n);
	return rc;
}
