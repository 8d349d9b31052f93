#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/slurm/in-job.sh COMMAND... - say which Slurm job this runs in, then
# run COMMAND (tests/slurm/test.sh's proof that make grade LAUNCH= went
# through srun).
echo "in Slurm job ${SLURM_JOB_ID:-none}, step ${SLURM_STEP_ID:-none}, on $(hostname)"
exec "$@"
