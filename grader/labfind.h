/* SPDX-License-Identifier: MIT */
/*
 * labfind.h - lab discovery, the one place that finds labs: the lab
 * folders (those with a lab.mk), which of them LAB= names, and the
 * exercises a lab.mk lists. The grader's commands use it (run/labs.h),
 * make batch links it (tools/batch), and the unit tests test it.
 *
 * May use: proc.h (the base).
 */
#ifndef GRADER_LABFIND_H
#define GRADER_LABFIND_H

#include <stddef.h>

#define LABS_MAX 32         /* labs under one folder */
#define LABS_MAX_PER_LAB 32 /* exercises in one lab */

/* Does the lab folder name dir match LAB=, a list of words ("reduction
 * fusion", commas too; a word is the whole name, its number or its
 * name)? Every lab when want is NULL. */
int labs_match(const char *dir, const char *want);

/* The lab folders under dir that match want, sorted, strdup'd into out
 * (the caller frees them); -1 when dir cannot be read. */
int labs_find(const char *dir, const char *want, char **out, int max);

/* Each word of want must name one of labs[0..n-1]: 0, or -1 and a line
 * on stderr naming the labs there are. */
int labs_words_exist(const char *want, char **labs, int n);

/* The exercises a lab.mk lists (its EXERCISES line's value, the names
 * apart by blanks) into out: 0, or -1 when it has none or cannot be
 * read. */
int labs_mk_exercises(const char *labs_dir, const char *lab, char *out,
		      size_t n);

#endif /* GRADER_LABFIND_H */
