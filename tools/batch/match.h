/* SPDX-License-Identifier: MIT */
/*
 * match.h - which exercise a path inside a submission is, or why it is
 * none. Floor 1 (batch.h): uses lablist and util.
 */
#ifndef BATCH_MATCH_H
#define BATCH_MATCH_H

#include <stddef.h>

#include "lablist.h"

/*
 * Which exercise a path inside a submission is: its index in l, or -1
 * with the reason in why. "05-reduction/sum.cu" at any depth, or a flat
 * "sum.cu" when no other lab has an exercise called sum. *depth is the
 * number of components, to prefer the shallowest of several copies.
 */
int bt_match(const struct bt_labs *l, const char *path, int *depth,
	     char *why, size_t n);

#endif /* BATCH_MATCH_H */
