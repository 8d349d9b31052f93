/* SPDX-License-Identifier: MIT */
/*
 * boxstep.c - the steps inside a sandbox's command line (boxstep.h):
 * --box-enter, outside bwrap, joins the sandbox's cgroup and, for a batch
 * run as root with a user namespace, becomes the sandbox account;
 * --box-init, the first thing inside, sets the sandbox's limits and,
 * without a user namespace, becomes the account there. Each then execs
 * the next, and never runs anything as root.
 *
 * Floor 2 (batch.h): uses sandbox and cgroup.
 */
#define _DEFAULT_SOURCE /* setgroups */
#include "boxstep.h"
#include "cgroup.h"
#include "sandbox.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

static int die(int code, const char *what, const char *detail)
{
	fprintf(stderr, "batch (sandbox): %s%s%s\n", what, detail ? ": " : "",
		detail ? detail : "");
	return code;
}

/* The settings of a step: "--name value" pairs, then "--" and the
 * command. */
struct step {
	const char *cgroup;
	long long uid, gid, nproc, mem, data;
	char **rest;
};

static int step_args(char **argv, struct step *s)
{
	s->cgroup = NULL;
	s->uid = s->gid = -1;
	s->nproc = BT_BOX_NPROC;
	s->mem = s->data = 0;
	for (; *argv && strcmp(*argv, "--"); argv += 2) {
		const char *v = argv[1];

		if (!v)
			return -1;
		if (!strcmp(*argv, "--cgroup"))
			s->cgroup = v;
		else if (!strcmp(*argv, "--uid"))
			s->uid = atoll(v);
		else if (!strcmp(*argv, "--gid"))
			s->gid = atoll(v);
		else if (!strcmp(*argv, "--nproc"))
			s->nproc = atoll(v);
		else if (!strcmp(*argv, "--mem"))
			s->mem = atoll(v);
		else if (!strcmp(*argv, "--data"))
			s->data = atoll(v);
		else
			return -1;
	}
	if (!*argv || !argv[1] || (s->uid >= 0) != (s->gid >= 0) ||
	    s->nproc <= 0)
		return -1;
	s->rest = argv + 1;
	return 0;
}

/* Become uid and gid, with no supplementary groups, for good; as root
 * first empty the capability bounding set too. */
static int become(long uid, long gid)
{
	gid_t g = (gid_t)gid;

	for (int cap = 0; geteuid() == 0 && cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			break; /* no CAP_SETPCAP: a user namespace's root */

	if (setgroups(1, &g) || setgid(g) || setuid((uid_t)uid))
		return -1;
	if (getuid() != (uid_t)uid || geteuid() != (uid_t)uid ||
	    getgid() != g || getegid() != g || setuid(0) == 0)
		return -1;
	return 0;
}

int bt_box_enter(char **argv)
{
	struct step s;

	if (step_args(argv, &s))
		return die(126, "--box-enter: bad arguments", NULL);
	if (s.cgroup && bt_cgroup_join(s.cgroup, s.nproc, s.mem))
		return die(126, "cannot join the sandbox's cgroup", strerror(errno));
	if (s.uid >= 0 && become(s.uid, s.gid))
		return die(126, "cannot become the sandbox account",
			   strerror(errno));
	if (chdir("/"))
		return die(126, "chdir /", strerror(errno));
	execv(s.rest[0], s.rest);
	return die(127, s.rest[0], strerror(errno));
}

int bt_box_init(char **argv)
{
	struct rlimit rl;
	struct step s;

	if (step_args(argv, &s))
		return die(126, "--box-init: bad arguments", NULL);
	/* In a fresh user namespace the kernel counts RLIMIT_NPROC per
	 * (namespace, uid): this sandbox's processes alone. */
	rl.rlim_cur = rl.rlim_max = (rlim_t)s.nproc;
	if (setrlimit(RLIMIT_NPROC, &rl))
		return die(126, "RLIMIT_NPROC", strerror(errno));
	if (s.data > 0) {
		rl.rlim_cur = rl.rlim_max = (rlim_t)s.data;
		if (setrlimit(RLIMIT_DATA, &rl))
			return die(126, "RLIMIT_DATA", strerror(errno));
	}
	if (s.uid >= 0 && become(s.uid, s.gid))
		return die(126, "cannot become the sandbox account",
			   strerror(errno));
	if (getuid() == 0 || geteuid() == 0)
		return die(126, "refusing to run student code as root", NULL);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	execvp(s.rest[0], s.rest);
	return die(127, s.rest[0], strerror(errno));
}
