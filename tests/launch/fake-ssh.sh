#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tests/launch/fake-ssh.sh HOST COMMAND... - what ssh does with a command,
# on this machine: the words joined by spaces and read again by a shell,
# in an environment that holds nothing of the caller's but PATH and HOME.
# make grade LAUNCH="sh tests/launch/fake-ssh.sh host" is tested with it
# (tests/run.sh, build section): the settings must travel without the
# environment and survive a second round of shell parsing.
shift
exec env -i PATH="$PATH" HOME="${HOME:-/}" sh -c "$*"
