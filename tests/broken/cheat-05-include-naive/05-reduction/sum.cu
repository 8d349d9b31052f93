/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: the lab's own naive reference, compiled as the
 * submission. The naive's function is renamed to the entry point before
 * its file is included, so the runner would time the naive against
 * itself: a speedup of 1, with no code of the student's at all.
 *
 * A submission's compile may open only the lab's public header, the CUDA
 * Toolkit's and the system's (grader/build.sh).
 * Expected verdict: COMPILE ERROR.
 */
#define naive_reduce_sum reduce_sum
#include "../../../../labs/05-reduction/naive.cu"
