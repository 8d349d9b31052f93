/* SPDX-License-Identifier: MIT */
/*
 * reference.h - the grader's reference for a speed exercise: the naive,
 * the peer and the speed of light timed without the student's code, the
 * baseline the student's run is checked against, and the peer an
 * exercise's ideal may be (matmul). docs/grading.md, section 4.
 */
#ifndef GRADER_REFERENCE_H
#define GRADER_REFERENCE_H

#include <stdio.h>

#include "grade.h"

/*
 * Time row's exercise with BUILD_DIR/LAB/info --mode reference, or take
 * what was timed for the same GPU and info binary within the hour from
 * CACHE_DIR (NULL: build_dir). Fills row->res.ref: 0, or -1 when it could
 * not be timed.
 */
int reference_run(const char *build_dir, const char *cache_dir,
		  unsigned long long seed, const struct g_device *dev,
		  struct g_row *row);

/*
 * After the student's run: its naive and its speed of light must be what
 * the reference measured without the student's code, within the noise
 * between two processes. Slower means something the student's code left
 * behind slowed them: SUSPICIOUS, with both figures.
 */
void reference_check(struct g_result *r);

/*
 * The peer's time the student's run is scored against (--peer-us), into
 * buf: the reference's first quartile of the peer, not its median. cuBLAS
 * at 4096^3 runs in two modes on an H100, ~183 us and 210-260 us (power),
 * and in 3 of 14 references the slow one held the median, every hgemm
 * share 15-30% high. The library's speed is what it reaches; a quarter of
 * its rounds do (a record without quartiles: its median). Returns 0, or
 * -1 (buf empty) when there is no peer.
 */
int reference_peer_arg(const struct g_reference *ref, char *buf, size_t n);

#endif /* GRADER_REFERENCE_H */
