/* SPDX-License-Identifier: MIT */
/*
 * allowlist.h - what a submission's file may refer to (docs/grading.md,
 * section 8): the families of an allowlist (the CUDA runtime but its
 * device-wide settings, memory, strings, printing, math, C++ runtime
 * support), and for each family it rejects, why.
 */
#ifndef GRADER_ALLOWLIST_H
#define GRADER_ALLOWLIST_H

#include "inspect.h"

enum allowlist_kind {
	ALLOWLIST_OK,       /* the file may refer to it */
	ALLOWLIST_OWN,      /* the grader's or the lab's: nothing forgives it */
	ALLOWLIST_UNLISTED, /* on no list */
	ALLOWLIST_FAMILY,   /* in a family that is rejected */
};

/*
 * May the file oi refer to name (nm's U, w or v)? why: for OWN and
 * UNLISTED, the rest of "it calls NAME, which ..."; for FAMILY, the
 * family's reason ("it reads a clock: ..."); NULL for OK.
 */
enum allowlist_kind allowlist_check(const struct g_objinfo *oi,
				    const char *name, const char **why);

#endif /* GRADER_ALLOWLIST_H */
