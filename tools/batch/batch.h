/* SPDX-License-Identifier: MIT */
/*
 * batch.h - grading a class: a folder of submissions, each a folder or a
 * .tar.gz / .zip of lab files, graded one submission per sandbox into a
 * gradebook. docs/batch-grading.md is the user's side of this folder.
 *
 * The batch never grades anything itself. For each submission it runs
 * `make runners` (the submission's files as SRC, its own build folder)
 * and then the grader, both inside a bubblewrap sandbox that sees the
 * toolkit, the repository's build inputs (an allowlist, conf.c), the
 * prebuilt objects and that submission's scratch folder, and nothing
 * else. It only decides what goes where, when, and what the results add
 * up to.
 *
 * This header holds the batch's limits. Each .c file has a header of its
 * own, which says what it holds; the files are built in floors, lowest
 * first: a file of tools/batch/ includes only headers of its own floor or
 * below, and no files include (or call) one another in a circle.
 * tests/layers.sh reads the list below (a file's name without its .c or
 * .h stands for both) and checks both; a new file of tools/batch/ goes on
 * a floor here.
 *
 *   floor 0 = batch util args files json;
 *     the base: these limits, strings and times, argument vectors, files
 *     and folders (written whole, never through a link), JSON.
 *   floor 1 = lablist match sub roster tsv row late;
 *     the class: what students may hand in (the labs' exercises), which
 *     file of a submission is which, a submission and the roster of them,
 *     a results.tsv's columns, a student's row of results, deadlines.
 *   floor 2 = cgroup process sandbox boxstep;
 *     running commands: a sandbox's cgroup, the process runner (a process
 *     group to its end or its time limit), the sandbox's command line and
 *     its steps inside.
 *   floor 3 = conf collect;
 *     one run's settings and the box each of its commands gets; taking a
 *     submission's files out of it.
 *   floor 4 = finish board classpage summary;
 *     what results make: a student's finished folder, the leaderboard,
 *     class.html, summary.txt.
 *   floor 5 = book jobs schedule slurm;
 *     the run: the gradebook rebuilt, a submission's build and grading,
 *     the loop over them all, the Slurm scripts.
 *   floor 6 = cli setup settings selection modes main;
 *     the program: its command line, its first steps, the settings a
 *     folder's grades are made under, what it grades, its modes, main().
 *
 * Outside this folder it uses lower layers only, named by path: the
 * grader's grader/proc.h (file_tail), grader/gpulock.h and
 * grader/html_text.h, and common/stats.h (quantiles).
 */
#ifndef BATCH_H
#define BATCH_H

#define BT_PATH 4096
#define BT_ID_LEN 96
#define BT_NAME_LEN 64
#define BT_MAX_EX 96        /* exercises over all labs */
#define BT_MAX_GPUS 16
#define BT_MAX_EXTRA 16     /* --grader-arg, --slurm-arg */
#define BT_MAX_ARGS 640
#define BT_MAX_NOTES 200    /* ignored entries listed per submission */

/* A submission's file may be at most this big: a .cu file never is. */
#define BT_MAX_FILE_BYTES (1 << 20)
/* Entries looked at in one submission, and how deep in its folders. */
#define BT_MAX_ENTRIES 10000
#define BT_MAX_DEPTH 8
/* An archive bigger than this is not opened. */
#define BT_MAX_ARCHIVE_BYTES (64LL << 20)

#endif /* BATCH_H */
