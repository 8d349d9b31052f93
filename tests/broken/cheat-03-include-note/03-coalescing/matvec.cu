/* SPDX-License-Identifier: MIT */
/*
 * Cheating on purpose: read a file beside the repository through the
 * compiler's error messages. A note (../ta-notes.txt, standing for a TA's
 * untracked notes or another student's submission) is included; it is
 * not C, so the compiler quotes its lines in the errors the student reads.
 *
 * A submission's compile may open only the lab's public header, the CUDA
 * Toolkit's and the system's (grader/build.sh); for any other file the
 * message names the path, and none of the compiler's messages is kept.
 * tests/gpu/integrity.sh checks that the note's marker is in no log.
 * Expected verdict: COMPILE ERROR.
 */
#include "../ta-notes.txt"
