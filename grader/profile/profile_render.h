/* SPDX-License-Identifier: MIT */
/*
 * profile_render.h - the profile as lines of text (profile_render.c): the
 * table of figures and hints that make profile prints and make grade
 * PROFILE=1 attaches to a report.
 */
#ifndef GRADER_PROFILE_RENDER_H
#define GRADER_PROFILE_RENDER_H

#include <stddef.h>

#include "profile.h"

/*
 * The table: a heading, one line per figure of the groups shown (a column
 * per view; the ideal and the meaning are for views[subject]), then each
 * view's hints. Lines into out; returns their count.
 */
int render_table(const struct prof_view *views, int nviews, int subject,
		 unsigned groups, char out[][G_DETAIL_LEN], int max);

/* "coalescing throughput" for a mask of WB_PROF_* groups, into buf. */
void render_group_names(unsigned groups, char *buf, size_t n);

#endif /* GRADER_PROFILE_RENDER_H */
