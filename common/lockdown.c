/* SPDX-License-Identifier: MIT */
/*
 * lockdown.c - the runner's seccomp filter (lockdown.h).
 *
 * The policy is the table rules[] below, one group per reason. It is
 * compiled to classic BPF when wb_lockdown() runs, because two of its
 * values are known only then: our pid (signals to ourselves stay allowed)
 * and the highest descriptor open at the lock (writes above it are
 * refused). Nothing here kills: a refused call returns an errno.
 */
#define _GNU_SOURCE /* syscall(), CLONE_THREAD, O_TMPFILE */
#include "lockdown.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) && !defined(__ILP32__)
#define WB_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__) && !defined(__AARCH64EB__) && !defined(__ILP32__)
#define WB_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

static int fail(char *why, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (why && n) {
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

#ifndef WB_AUDIT_ARCH
int wb_lockdown(int keep_fd, char *why, size_t n)
{
	(void)keep_fd;
	return fail(why, n, "no seccomp filter is written for this "
		    "architecture (only for x86-64 and aarch64)");
}
#else

/* Calls this architecture does not have (aarch64 has no fork, open, ...). */
#ifndef __NR_fork
#define __NR_fork -1
#endif
#ifndef __NR_vfork
#define __NR_vfork -1
#endif
#ifndef __NR_open
#define __NR_open -1
#endif
#ifndef __NR_creat
#define __NR_creat -1
#endif
#ifndef __NR_rename
#define __NR_rename -1
#endif
#ifndef __NR_renameat
#define __NR_renameat -1
#endif
#ifndef __NR_unlink
#define __NR_unlink -1
#endif
#ifndef __NR_link
#define __NR_link -1
#endif
#ifndef __NR_symlink
#define __NR_symlink -1
#endif
#ifndef __NR_mkdir
#define __NR_mkdir -1
#endif
#ifndef __NR_rmdir
#define __NR_rmdir -1
#endif
#ifndef __NR_chmod
#define __NR_chmod -1
#endif
#ifndef __NR_chown
#define __NR_chown -1
#endif
#ifndef __NR_lchown
#define __NR_lchown -1
#endif
#ifndef __NR_mknod
#define __NR_mknod -1
#endif
#ifndef __NR_utime
#define __NR_utime -1
#endif
#ifndef __NR_utimes
#define __NR_utimes -1
#endif
#ifndef __NR_futimesat
#define __NR_futimesat -1
#endif
#ifndef __NR_dup2
#define __NR_dup2 -1
#endif
#ifndef __NR_mmap2
#define __NR_mmap2 -1
#endif
#ifndef __NR_kexec_file_load
#define __NR_kexec_file_load -1
#endif

/*
 * Calls newer than the kernel headers may be: since 424 every
 * architecture numbers them alike, so the kernel that runs us may have
 * them even where the headers we were built with do not.
 */
#ifndef __NR_pidfd_send_signal
#define __NR_pidfd_send_signal 424
#endif
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter 426
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register 427
#endif
#ifndef __NR_open_tree
#define __NR_open_tree 428
#endif
#ifndef __NR_move_mount
#define __NR_move_mount 429
#endif
#ifndef __NR_fsopen
#define __NR_fsopen 430
#endif
#ifndef __NR_fsmount
#define __NR_fsmount 432
#endif
#ifndef __NR_fspick
#define __NR_fspick 433
#endif
#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif
#ifndef __NR_clone3
#define __NR_clone3 435
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif
#ifndef __NR_openat2
#define __NR_openat2 437
#endif
#ifndef __NR_pidfd_getfd
#define __NR_pidfd_getfd 438
#endif
#ifndef __NR_process_madvise
#define __NR_process_madvise 440
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#endif
#ifndef __NR_removexattrat
#define __NR_removexattrat 466
#endif
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif
#ifndef __NR_file_setattr
#define __NR_file_setattr 469
#endif

/* What a rule checks; the arguments are compared on their low 32 bits,
 * which is all the kernel reads of a descriptor, a pid or flags. */
enum check {
	ALLOW,           /* let it through at once */
	DENY,            /* always */
	DENY_IF_ANY,     /* if args[arg] has any bit of k */
	DENY_UNLESS_SET, /* unless args[arg] has the bits of k */
	DENY_IF_EQ,      /* if args[arg] == k */
	DENY_UNLESS_US,  /* unless args[arg] is our pid */
	DENY_UNLESS_US_OR_0, /* unless args[arg] is our pid or 0 (ourselves) */
	DENY_NEW_FD,     /* if the descriptor args[arg] was opened after the lock */
	DENY_OLD_FD,     /* if the number args[arg] was in use at the lock */
	DENY_SHARED_NEW_FD, /* mmap: MAP_SHARED in args[3] of a new args[4] */
};

struct rule {
	int nr;             /* the call; -1: not on this architecture */
	unsigned char check; /* enum check */
	unsigned char arg;
	unsigned int k;
	int err;            /* the errno of a refusal */
};

#define RULE(name, check, arg, k, err) { __NR_##name, check, arg, k, err }
#define PASS(name) RULE(name, ALLOW, 0, 0, 0)
#define NO(name) RULE(name, DENY, 0, 0, EPERM)
#define NOSYS(name) RULE(name, DENY, 0, 0, ENOSYS)
#define NEW_FD(name, arg) RULE(name, DENY_NEW_FD, arg, 0, EPERM)
#define OLD_FD(name, arg) RULE(name, DENY_OLD_FD, arg, 0, EPERM)
#define ONLY_US(name, arg) RULE(name, DENY_UNLESS_US, arg, 0, EPERM)

/* Flags of an open that writes, creates, truncates or appends. */
#define OPEN_CHANGES (O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | \
		      (O_TMPFILE & ~O_DIRECTORY))

static const struct rule rules[] = {
	/*
	 * First, the calls the runtime makes while it is timed: the filter
	 * is a linear search, so these pass after a few instructions. Of
	 * ioctl, only the two requests that write one file from another.
	 */
	RULE(ioctl, DENY_IF_EQ, 1, FICLONE, EPERM),
	RULE(ioctl, DENY_IF_EQ, 1, FICLONERANGE, EPERM),
	PASS(ioctl), PASS(futex), PASS(read), PASS(ppoll), PASS(epoll_pwait),
	PASS(sched_yield), PASS(nanosleep), PASS(clock_nanosleep),
	PASS(clock_gettime), PASS(getpid), PASS(gettid), PASS(madvise),
	PASS(mprotect), PASS(munmap),

	/*
	 * Writes to a descriptor opened after the lock: a file opened
	 * read-write now cannot be changed through it. Those open at the
	 * lock (stdout, stderr, the result channel, the runtime's device
	 * files and eventfds) stay writable, and their numbers cannot be
	 * freed or taken over, or a new file could wear an old number.
	 */
	NEW_FD(write, 0), NEW_FD(pwrite64, 0), NEW_FD(writev, 0),
	NEW_FD(pwritev, 0), NEW_FD(pwritev2, 0), NEW_FD(sendfile, 0),
	NEW_FD(copy_file_range, 2), NEW_FD(splice, 2), NEW_FD(tee, 1),
	NEW_FD(vmsplice, 0),
	RULE(mmap, DENY_SHARED_NEW_FD, 0, 0, EPERM),
	RULE(mmap2, DENY_SHARED_NEW_FD, 0, 0, EPERM),
	OLD_FD(close, 0), OLD_FD(close_range, 0), OLD_FD(dup2, 1),
	OLD_FD(dup3, 1),
	/* Writes the kernel makes on our behalf, out of the filter's sight. */
	NO(io_uring_setup), NO(io_uring_enter), NO(io_uring_register),
	NO(io_setup), NO(io_submit),

	/*
	 * No new process or program: nothing may outlive the runner or run
	 * unfiltered. Threads stay: the runtime starts them lazily. clone3
	 * passes its flags in memory the filter cannot read: ENOSYS, and
	 * glibc falls back to clone.
	 */
	NO(fork), NO(vfork), NO(execve), NO(execveat),
	RULE(clone, DENY_UNLESS_SET, 0, CLONE_THREAD, EPERM),
	NOSYS(clone3),
	/* Leaving the process group or session the driver kills. */
	NO(setsid), NO(setpgid), NO(unshare), NO(setns),
	/*
	 * Acting on another process (the driver, another runner): its
	 * memory, signals, limits. Signals to ourselves stay: the runtime
	 * may signal its own threads, abort() raises.
	 */
	NO(ptrace), NO(process_vm_readv), NO(process_vm_writev),
	NO(process_madvise), NO(pidfd_open), NO(pidfd_getfd),
	NO(pidfd_send_signal),
	ONLY_US(kill, 0), ONLY_US(tkill, 0), ONLY_US(tgkill, 0),
	ONLY_US(rt_sigqueueinfo, 0), ONLY_US(rt_tgsigqueueinfo, 0),
	RULE(prlimit64, DENY_UNLESS_US_OR_0, 0, 0, EPERM),

	/* The network: nothing leaves the machine or reaches a service. */
	NO(socket), NO(socketpair), NO(connect), NO(bind), NO(listen),
	NO(accept), NO(accept4),

	/*
	 * Files: nothing created, removed, renamed, truncated or changed.
	 * Read-only opens stay (the runtime reads /proc and its device
	 * files), and so do read-write ones, whose writes the descriptor
	 * rules refuse. openat2 passes its flags in memory: ENOSYS, and
	 * glibc falls back to openat.
	 */
	RULE(open, DENY_IF_ANY, 1, OPEN_CHANGES, EPERM),
	RULE(openat, DENY_IF_ANY, 2, OPEN_CHANGES, EPERM),
	NO(creat), NOSYS(openat2),
	NO(rename), NO(renameat), NO(renameat2), NO(unlink), NO(unlinkat),
	NO(link), NO(linkat), NO(symlink), NO(symlinkat), NO(mkdir),
	NO(mkdirat), NO(rmdir), NO(mknod), NO(mknodat),
	NO(chmod), NO(fchmod), NO(fchmodat), NO(fchmodat2), NO(chown),
	NO(fchown), NO(lchown), NO(fchownat), NO(truncate), NO(ftruncate),
	NO(fallocate), NO(utime), NO(utimes), NO(utimensat), NO(futimesat),
	NO(setxattr), NO(lsetxattr), NO(fsetxattr), NO(setxattrat),
	NO(removexattr), NO(lremovexattr), NO(fremovexattr),
	NO(removexattrat), NO(file_setattr),

	/*
	 * The rest of what no exercise needs and a sandbox must not allow:
	 * the machine's mounts, kernel, keys, tracing and memory tricks.
	 */
	NO(mount), NO(umount2), NO(chroot), NO(pivot_root), NO(open_tree),
	NO(open_tree_attr), NO(move_mount), NO(fsopen), NO(fsmount),
	NO(fspick), NO(mount_setattr),
	NO(init_module), NO(finit_module), NO(delete_module), NO(kexec_load),
	NO(kexec_file_load), NO(reboot), NO(swapon), NO(swapoff),
	NO(bpf), NO(userfaultfd), NO(perf_event_open), NO(personality),
	NO(keyctl), NO(add_key), NO(request_key),
};

/* Room for every rule at its longest (8 instructions) and the prologue. */
#define MAX_INSNS (8 * (sizeof(rules) / sizeof(rules[0])) + 16)

struct prog {
	struct sock_filter insn[MAX_INSNS];
	unsigned int n;
};

static void emit(struct prog *p, unsigned short code, unsigned char jt,
		 unsigned char jf, unsigned int k)
{
	struct sock_filter f = { code, jt, jf, k };

	if (p->n < MAX_INSNS)
		p->insn[p->n] = f;
	p->n++;
}

static void ret(struct prog *p, unsigned int action)
{
	emit(p, BPF_RET | BPF_K, 0, 0, action);
}

static void load_nr(struct prog *p)
{
	emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0,
	     offsetof(struct seccomp_data, nr));
}

/* The low 32 bits of argument i (both architectures are little-endian). */
static void load_arg(struct prog *p, unsigned int i)
{
	emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0,
	     offsetof(struct seccomp_data, args) + 8 * i);
}

/*
 * With a descriptor loaded: refuse if it is above mark, so opened after
 * the lock. A negative one (mmap's -1) is left to the kernel: EBADF.
 * Three instructions; the one after them is reached when allowed.
 */
static void deny_new_fd(struct prog *p, unsigned int mark, unsigned int deny)
{
	emit(p, BPF_JMP | BPF_JGT | BPF_K, 0, 2, mark);
	emit(p, BPF_JMP | BPF_JGE | BPF_K, 1, 0, 0x80000000u);
	ret(p, deny);
}

/*
 * One rule: if the call is r's, its check; a call that passes the check
 * goes on to the next rules with the call's number loaded again.
 */
static void emit_rule(struct prog *p, const struct rule *r, unsigned int us,
		      unsigned int mark)
{
	unsigned int deny = SECCOMP_RET_ERRNO | (r->err & SECCOMP_RET_DATA);
	unsigned int at = p->n;

	emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, (unsigned int)r->nr);
	if (r->check == ALLOW || r->check == DENY) {
		ret(p, r->check == ALLOW ? SECCOMP_RET_ALLOW : deny);
	} else if (r->check == DENY_NEW_FD) {
		load_arg(p, r->arg);
		deny_new_fd(p, mark, deny);
		load_nr(p);
	} else if (r->check == DENY_SHARED_NEW_FD) {
		load_arg(p, 3);
		emit(p, BPF_JMP | BPF_JSET | BPF_K, 0, 4, MAP_SHARED);
		load_arg(p, 4);
		deny_new_fd(p, mark, deny);
		load_nr(p);
	} else {
		load_arg(p, r->arg);
		switch (r->check) {
		case DENY_IF_ANY:
			emit(p, BPF_JMP | BPF_JSET | BPF_K, 0, 1, r->k);
			break;
		case DENY_UNLESS_SET:
			emit(p, BPF_JMP | BPF_JSET | BPF_K, 1, 0, r->k);
			break;
		case DENY_IF_EQ:
			emit(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, r->k);
			break;
		case DENY_UNLESS_US_OR_0:
			emit(p, BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 0);
			/* fall through */
		case DENY_UNLESS_US:
			emit(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, us);
			break;
		case DENY_OLD_FD:
			emit(p, BPF_JMP | BPF_JGT | BPF_K, 1, 0, mark);
			break;
		}
		ret(p, deny);
		load_nr(p);
	}
	/* Another call: past this rule. */
	if (at < MAX_INSNS)
		p->insn[at].jf = (unsigned char)(p->n - at - 1);
}

/* The whole filter; -1 if it does not fit (a bug in the table). */
static int build(struct prog *p, unsigned int us, unsigned int mark)
{
	p->n = 0;
	/* Another ABI (i386 by int 0x80) would dodge every rule below. */
	emit(p, BPF_LD | BPF_W | BPF_ABS, 0, 0,
	     offsetof(struct seccomp_data, arch));
	emit(p, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, WB_AUDIT_ARCH);
	ret(p, SECCOMP_RET_ERRNO | ENOSYS);
	load_nr(p);
#if defined(__x86_64__)
	/* x32's calls share the arch and carry bit 30 in their number. */
	emit(p, BPF_JMP | BPF_JGE | BPF_K, 0, 1, 0x40000000u);
	ret(p, SECCOMP_RET_ERRNO | ENOSYS);
#endif
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].nr >= 0)
			emit_rule(p, &rules[i], us, mark);
	ret(p, SECCOMP_RET_ALLOW);
	return p->n <= MAX_INSNS ? 0 : -1;
}

/* The highest descriptor open now, into *top (-1: none). 0, or -1. */
static int highest_fd(int *top)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;

	*top = -1;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);

		/* "." and "..", and the descriptor of this listing itself. */
		if (end == e->d_name || *end || fd == dirfd(d))
			continue;
		if (fd > *top)
			*top = (int)fd;
	}
	closedir(d);
	return 0;
}

/*
 * Fill every free descriptor number below top with /dev/null, read-only:
 * open() always takes the lowest free number, so once it returns one
 * above top there is no gap left. A full table (EMFILE) has none either.
 */
static int plug_below(int top)
{
	for (;;) {
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (fd < 0)
			return errno == EMFILE ? 0 : -1;
		if (fd > top) {
			close(fd);
			return 0;
		}
	}
}

int wb_lockdown(int keep_fd, char *why, size_t n)
{
	struct sock_fprog fprog;
	struct prog *p;
	int top, flags, err;
	long rc;

	if (keep_fd >= 0) {
		flags = fcntl(keep_fd, F_GETFL);
		if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
			return fail(why, n, "descriptor %d, to stay writable, is "
				    "not open for writing", keep_fd);
	}
	if (highest_fd(&top))
		return fail(why, n, "cannot list the open descriptors "
			    "(/proc/self/fd): %s", strerror(errno));
	if (top < keep_fd)
		top = keep_fd;
	if (plug_below(top))
		return fail(why, n, "cannot fill the free descriptors below %d "
			    "with /dev/null: %s", top, strerror(errno));
	p = malloc(sizeof(*p));
	if (!p)
		return fail(why, n, "out of memory for the filter");
	if (build(p, (unsigned int)getpid(), (unsigned int)top)) {
		free(p);
		return fail(why, n, "the filter has more than %zu instructions",
			    (size_t)MAX_INSNS);
	}
	fprog.len = (unsigned short)p->n;
	fprog.filter = p->insn;
	/* Required to install a filter without privileges; we never exec. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		err = errno;
		free(p);
		return fail(why, n, "prctl(PR_SET_NO_NEW_PRIVS): %s",
			    strerror(err));
	}
	/* TSYNC: the runtime's threads, started already, get it too. */
	rc = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
		     SECCOMP_FILTER_FLAG_TSYNC, &fprog);
	err = errno;
	free(p); /* the kernel keeps its own copy */
	if (rc > 0)
		return fail(why, n, "thread %ld could not take the filter", rc);
	if (rc < 0)
		return fail(why, n, "seccomp(SECCOMP_SET_MODE_FILTER): %s",
			    strerror(err));
	return 0;
}
#endif /* WB_AUDIT_ARCH */
