/* SPDX-License-Identifier: MIT */
/*
 * board.h - the leaderboard, where the course file asks for one: in each
 * student's results.json (Gradescope's "leaderboard") and on the class
 * page. Floor 4 (batch.h): uses conf, row, tsv, json, util, files and
 * grader/html_text.h.
 */
#ifndef BATCH_BOARD_H
#define BATCH_BOARD_H

#include <stdio.h>

#include "conf.h"
#include "row.h"

/* Add Gradescope's "leaderboard" to a results.json: each exercise that
 * passed, its speedup on its GPU model ("05-reduction/sum speedup, NVIDIA
 * H100 80GB HBM3"), from the grader's TSV (read without following a
 * link). 0, or -1. */
int bt_json_add_leaderboard(const char *json_path, const char *tsv_path);
/* The class page's leaderboard: per exercise and GPU model, the ten
 * fastest that passed, by id or by pseudonym (c->late.leaderboard). */
void bt_board_html(FILE *f, const struct bt_conf *c,
		   const struct bt_row *rows, int n);

#endif /* BATCH_BOARD_H */
