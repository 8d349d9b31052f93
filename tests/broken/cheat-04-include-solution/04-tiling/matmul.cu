/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: the instructor's solution, included by a relative
 * path that the lab's include path (-Ilabs/...) or the file's own folder
 * once reached. In an instructor's copy it compiled as the submission's
 * own code.
 *
 * A submission's compile may open only the lab's public header, the CUDA
 * Toolkit's and the system's (grader/build.sh): anything else is a
 * COMPILE ERROR that names the path and quotes nothing.
 * Expected verdict: COMPILE ERROR.
 */
#include "../../../../solutions/04-tiling/matmul.cu"
