/* SPDX-License-Identifier: MIT */
/*
 * boxstep.h - the steps of a sandbox's command line that are this program
 * (bt_box_argv(): "batch --box-enter ... -- bwrap ... -- batch --box-init
 * ... -- command"). Floor 2 (batch.h): uses sandbox and cgroup.
 */
#ifndef BATCH_BOXSTEP_H
#define BATCH_BOXSTEP_H

/* The two steps of the command line above, run as this program:
 * argv starts after "--box-enter" / "--box-init". They return only when
 * they fail (126 or 127, the reason on stderr). */
int bt_box_enter(char **argv);
int bt_box_init(char **argv);

#endif /* BATCH_BOXSTEP_H */
