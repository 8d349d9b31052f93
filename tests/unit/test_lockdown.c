/* SPDX-License-Identifier: MIT */
/*
 * test_lockdown.c - common/lockdown.c: what code in a locked-down runner
 * can no longer do, and what it still can.
 *
 * A filter cannot be lifted, so each test forks: a child that is not
 * locked down and one that is make the same calls ("probes"), each in a
 * scratch folder of its own, and report how each call ended. A refused
 * call must end in its errno (EPERM, or ENOSYS where lockdown.h says) and
 * leave no trace: every file in the folder as it was, nothing new there,
 * no process started. The unlocked child shows that each probe would have
 * done something else: where the kernel answers the same without the
 * filter (a call that needs privileges we lack, a kernel without it), the
 * probe proves nothing here, and the test says so instead of counting it.
 * What must still work (threads, memory, reading files, writing to the
 * descriptors open at the lock) must work in the locked child.
 */
#define _GNU_SOURCE
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <utime.h>

#include "lockdown.h"

/* Numbers the kernel headers here may not have; alike on every arch. */
#define NR_pidfd_send_signal 424
#define NR_io_uring_setup 425
#define NR_io_uring_enter 426
#define NR_io_uring_register 427
#define NR_open_tree 428
#define NR_move_mount 429
#define NR_fsopen 430
#define NR_fsmount 432
#define NR_fspick 433
#define NR_pidfd_open 434
#define NR_clone3 435
#define NR_close_range 436
#define NR_openat2 437
#define NR_pidfd_getfd 438
#define NR_process_madvise 440
#define NR_mount_setattr 442
#define NR_fchmodat2 452
#define NR_setxattrat 463
#define NR_removexattrat 466
#define NR_open_tree_attr 467
#define NR_file_setattr 469

/* A probe's outcome when the machine cannot even try it (not an errno). */
#define NOT_HERE 100000

/* The groups of probes, one test each. */
enum group { G_PROC, G_NET, G_FILES, G_FDS, G_KERNEL, G_ALLOWED };

/* Stand-ins in a probe's arguments, replaced when it runs. */
#define A_PATH (-0x7000001L)    /* its file: "original\n", 0644 */
#define A_NEW (-0x7000002L)     /* its file's name + ".new": must not appear */
#define A_DIR (-0x7000003L)     /* its file's name + ".d": an empty folder */
#define A_RO (-0x7000004L)      /* its file, opened read-only now */
#define A_RW (-0x7000005L)      /* its file, opened read-write now */
#define A_PARENT (-0x7000006L)  /* the test's pid */
#define A_US (-0x7000007L)      /* the child's own pid */
#define A_OLD (-0x7000008L)     /* a descriptor open at the lock */
#define A_SOCK (-0x7000009L)    /* a socket made before the lock */
#define A_SOCK2 (-0x700000aL)   /* another one */
#define A_PIPE_R (-0x700000bL)  /* a pipe made before the lock, with data */
#define A_NEWPIPE (-0x700000cL) /* a pipe's write end made now */

struct env;

struct probe {
	const char *name;
	enum group group;
	int want;          /* locked down: this errno, or 0: it must work */
	long nr;           /* a raw system call ... */
	long a[6];
	long (*fn)(struct env *e, const char *path); /* ... or this */
};

#define MAX_PROBES 160
static struct probe probes[MAX_PROBES];
static int nprobes;

/* What the child has, set up before any lock. */
struct env {
	char dir[512];
	int report;           /* where the child says how each probe ended */
	int rw_before;        /* dir/prelock, opened read-write */
	int old;              /* /dev/null, read-only */
	int sock, sock2;      /* AF_UNIX, non-blocking */
	int pipe_r;           /* holds "data" */
	int top;              /* the highest descriptor before the lock */
	int gap;              /* a number left free below it */
	pthread_t early;      /* a thread started before the lock */
	int go[2];            /* tells it to make its call */
	long early_result;    /* its call's outcome: 0 or an errno */
	pid_t parent;
};

/* Arguments that live in memory, the same in every child. */
static struct sockaddr_un sun;
static char *const no_args[] = { NULL };
static struct utimbuf epoch_ub = { 1, 1 };
static struct timeval epoch_tv[2] = { { 1, 0 }, { 1, 0 } };
static struct timespec epoch_ts[2] = { { 1, 0 }, { 1, 0 } };
static struct iovec wiov = { "x", 1 };
static char vm_buf[8] = "vmbuf", vm_dst[8];
static struct iovec vm_local = { vm_dst, 8 }, vm_remote = { vm_buf, 8 };
static siginfo_t qinfo;
static struct rlimit rlim;
static int sv[2];
static unsigned long long open_how[3] = { O_RDONLY, 0, 0 };
static unsigned long long xattr_args[2];
static struct file_clone_range clone_range = { .src_fd = (__s64)-1 };
static long aio_ctx;
static unsigned int uring_params[30];

static void add_call(const char *name, enum group g, int want, long nr,
		     const long *a)
{
	struct probe *p = &probes[nprobes++];

	p->name = name;
	p->group = g;
	p->want = want;
	p->nr = nr;
	memcpy(p->a, a, sizeof(p->a));
}

static void add_fn(const char *name, enum group g, int want,
		   long (*fn)(struct env *e, const char *path))
{
	struct probe *p = &probes[nprobes++];

	p->name = name;
	p->group = g;
	p->want = want;
	p->fn = fn;
}

#define CALL(name, g, want, nr, ...) \
	add_call(name, g, want, nr, (long[6]){ __VA_ARGS__ })

/* ---- probes that are more than one call ---- */

/* A fork that worked: the new process leaves at once; we reap it. */
static long forked(long pid)
{
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return pid;
}

#ifdef SYS_fork
static long p_fork(struct env *e, const char *path)
{
	(void)e;
	(void)path;
	return forked(syscall(SYS_fork));
}
#endif

static long p_vfork(struct env *e, const char *path)
{
	pid_t pid;

	(void)e;
	(void)path;
	pid = vfork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

static long p_clone(struct env *e, const char *path)
{
	(void)e;
	(void)path;
	return forked(syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
}

static long p_clone3(struct env *e, const char *path)
{
	unsigned long long args[8] = { 0 };

	(void)e;
	(void)path;
	args[4] = SIGCHLD; /* exit_signal */
	return forked(syscall(NR_clone3, args, sizeof(args)));
}

static void *early_thread(void *arg)
{
	struct env *e = arg;
	char c;
	int fd;

	if (read(e->go[0], &c, 1) != 1)
		return NULL;
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	e->early_result = fd < 0 ? errno : 0;
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* The thread started before the lock tries the network now. */
static long p_early_thread(struct env *e, const char *path)
{
	(void)path;
	if (write(e->go[1], "g", 1) != 1 || pthread_join(e->early, NULL))
		return -1;
	errno = (int)e->early_result;
	return e->early_result ? -1 : 0;
}

static void *late_thread(void *arg)
{
	char *p = malloc(1 << 20);

	if (p)
		memset(p, 1, 1 << 20);
	free(p);
	return arg;
}

static long p_pthread(struct env *e, const char *path)
{
	pthread_t t;
	void *got = NULL;
	int err;

	(void)path;
	err = pthread_create(&t, NULL, late_thread, e);
	if (!err)
		err = pthread_join(t, &got);
	if (!err && got != e)
		err = EIO;
	errno = err;
	return err ? -1 : 0;
}

static long p_malloc(struct env *e, const char *path)
{
	size_t n = 64 << 20;
	char *p = malloc(n);

	(void)e;
	(void)path;
	if (!p)
		return -1;
	memset(p, 7, n);
	free(p);
	return 0;
}

static long mapped(void *p, size_t n)
{
	if (p == MAP_FAILED)
		return -1;
	munmap(p, n);
	return 0;
}

static long p_mmap_anon(struct env *e, const char *path)
{
	void *a = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *b = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	(void)e;
	(void)path;
	if (a != MAP_FAILED)
		memset(a, 1, 1 << 20);
	if (b != MAP_FAILED)
		memset(b, 1, 1 << 20);
	if (mapped(a, 1 << 20) || mapped(b, 1 << 20))
		return -1;
	return 0;
}

/* Map the probe's file, opened now with flags, shared or private. */
static long map_file(const char *path, int flags, int prot, int share)
{
	int fd = open(path, flags);
	long r;

	if (fd < 0)
		return -1;
	r = mapped(mmap(NULL, 4096, prot, share, fd, 0), 4096);
	close(fd);
	return r;
}

static long p_mmap_shared_rw(struct env *e, const char *path)
{
	(void)e;
	return map_file(path, O_RDWR, PROT_READ | PROT_WRITE, MAP_SHARED);
}

static long p_mmap_shared_ro(struct env *e, const char *path)
{
	(void)e;
	return map_file(path, O_RDONLY, PROT_READ, MAP_SHARED);
}

static long p_mmap_private(struct env *e, const char *path)
{
	(void)e;
	return map_file(path, O_RDONLY, PROT_READ, MAP_PRIVATE);
}

static long p_read_only(struct env *e, const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n;

	(void)e;
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n != 9 || strcmp(buf, "original\n")) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static long p_stdout(struct env *e, const char *path)
{
	static const char line[] = "lockdown probe: a line to stdout\n";

	(void)e;
	(void)path;
	return write(1, line, sizeof(line) - 1) == sizeof(line) - 1 ? 0 : -1;
}

static long p_write_before(struct env *e, const char *path)
{
	(void)path;
	return write(e->rw_before, "after the lock\n", 15) == 15 ? 0 : -1;
}

static long p_raise(struct env *e, const char *path)
{
	(void)e;
	(void)path;
	return raise(SIGUSR1); /* ignored: see child() */
}

/*
 * A descriptor opened now gets a number above every one open at the
 * lock, and the gap below is /dev/null, read-only. Without the lock, the
 * gap is free and the new descriptor takes it: EBADF.
 */
static long p_gap(struct env *e, const char *path)
{
	int fd = open(path, O_RDONLY), fl = fcntl(e->gap, F_GETFL);
	struct stat st;
	int ok = fd > e->top && fl >= 0 && (fl & O_ACCMODE) == O_RDONLY &&
		 fstat(e->gap, &st) == 0 && S_ISCHR(st.st_mode);

	if (fd >= 0)
		close(fd);
	errno = EBADF;
	return ok ? 0 : -1;
}

#if defined(__x86_64__)
static sigjmp_buf no_int80;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(no_int80, 1);
}

/* getpid through the i386 ABI (int 0x80): a 64-bit process may use it. */
static long p_int80(struct env *e, const char *path)
{
	struct sigaction sa, old;
	long r = 20; /* i386's getpid */

	(void)e;
	(void)path;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(no_int80, 1) == 0)
		__asm__ volatile("int $0x80"
				 : "+a"(r)
				 :
				 : "memory", "r8", "r9", "r10", "r11");
	else
		r = -NOT_HERE; /* SIGSEGV: no i386 ABI in this kernel */
	sigaction(SIGSEGV, &old, NULL);
	if (r < 0 && (r > -4096 || r == -NOT_HERE)) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
#endif

/* ---- the probes ---- */

static void process_probes(void)
{
	enum group g = G_PROC;

#ifdef SYS_fork
	add_fn("fork", g, EPERM, p_fork);
#endif
	add_fn("vfork", g, EPERM, p_vfork);
	add_fn("clone without CLONE_THREAD", g, EPERM, p_clone);
	add_fn("clone3", g, ENOSYS, p_clone3);
	CALL("execve", g, EPERM, SYS_execve, (long)"/nonexistent-wb/x",
	     (long)no_args, (long)no_args);
	CALL("execveat", g, EPERM, SYS_execveat, AT_FDCWD,
	     (long)"/nonexistent-wb/x", (long)no_args, (long)no_args, 0);
	/* A negative group: EINVAL without the filter, whatever we are. */
	CALL("setpgid", g, EPERM, SYS_setpgid, 0, -1);
	CALL("setsid", g, EPERM, SYS_setsid, 0);
	CALL("unshare", g, EPERM, SYS_unshare, 0);
	CALL("setns", g, EPERM, SYS_setns, -1, 0);
	CALL("ptrace", g, EPERM, SYS_ptrace, PTRACE_PEEKDATA, A_PARENT, 0, 0);
	CALL("process_vm_readv", g, EPERM, SYS_process_vm_readv, A_US,
	     (long)&vm_local, 1, (long)&vm_remote, 1, 0);
	CALL("process_vm_writev", g, EPERM, SYS_process_vm_writev, A_US,
	     (long)&vm_local, 1, (long)&vm_remote, 1, 0);
	CALL("process_madvise", g, EPERM, NR_process_madvise, -1, 0, 0, 0, 0);
	CALL("pidfd_open (the parent)", g, EPERM, NR_pidfd_open, A_PARENT, 0);
	CALL("pidfd_getfd", g, EPERM, NR_pidfd_getfd, -1, 0, 0);
	CALL("pidfd_send_signal", g, EPERM, NR_pidfd_send_signal, -1, 0, 0, 0);
	CALL("kill (the parent)", g, EPERM, SYS_kill, A_PARENT, 0);
	CALL("kill (the process group)", g, EPERM, SYS_kill, 0, 0);
	CALL("kill (every process)", g, EPERM, SYS_kill, -1, 0);
	CALL("tkill (the parent)", g, EPERM, SYS_tkill, A_PARENT, 0);
	CALL("tgkill (the parent)", g, EPERM, SYS_tgkill, A_PARENT, A_PARENT,
	     0);
	CALL("rt_sigqueueinfo (the parent)", g, EPERM, SYS_rt_sigqueueinfo,
	     A_PARENT, 0, (long)&qinfo);
	CALL("prlimit64 (the parent)", g, EPERM, SYS_prlimit64, A_PARENT,
	     RLIMIT_NOFILE, 0, (long)&rlim);
	add_fn("a thread started before the lock", g, EPERM, p_early_thread);
}

static void network_probes(void)
{
	enum group g = G_NET;

	CALL("socket", g, EPERM, SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	CALL("socketpair", g, EPERM, SYS_socketpair, AF_UNIX, SOCK_STREAM, 0,
	     (long)sv);
	CALL("bind", g, EPERM, SYS_bind, A_SOCK, (long)&sun, sizeof(sun));
	CALL("listen", g, EPERM, SYS_listen, A_SOCK, 1);
	CALL("connect", g, EPERM, SYS_connect, A_SOCK2, (long)&sun,
	     sizeof(sun));
	CALL("accept", g, EPERM, SYS_accept, A_SOCK, 0, 0);
	CALL("accept4", g, EPERM, SYS_accept4, A_SOCK, 0, 0, 0);
}

static void legacy_file_probes(enum group g)
{
	(void)g;
#ifdef SYS_open
	CALL("open O_WRONLY", g, EPERM, SYS_open, A_PATH, O_WRONLY);
	CALL("open O_RDONLY|O_CREAT", g, EPERM, SYS_open, A_NEW,
	     O_RDONLY | O_CREAT, 0644);
	CALL("creat", g, EPERM, SYS_creat, A_NEW, 0644);
	CALL("rename", g, EPERM, SYS_rename, A_PATH, A_NEW);
	CALL("unlink", g, EPERM, SYS_unlink, A_PATH);
	CALL("rmdir", g, EPERM, SYS_rmdir, A_DIR);
	CALL("link", g, EPERM, SYS_link, A_PATH, A_NEW);
	CALL("symlink", g, EPERM, SYS_symlink, A_PATH, A_NEW);
	CALL("mkdir", g, EPERM, SYS_mkdir, A_NEW, 0755);
	CALL("mknod", g, EPERM, SYS_mknod, A_NEW, S_IFIFO | 0600, 0);
	CALL("chmod", g, EPERM, SYS_chmod, A_PATH, 0600);
	CALL("chown", g, EPERM, SYS_chown, A_PATH, -1, -1);
	CALL("lchown", g, EPERM, SYS_lchown, A_PATH, -1, -1);
	CALL("utime", g, EPERM, SYS_utime, A_PATH, (long)&epoch_ub);
	CALL("utimes", g, EPERM, SYS_utimes, A_PATH, (long)epoch_tv);
	CALL("futimesat", g, EPERM, SYS_futimesat, AT_FDCWD, A_PATH,
	     (long)epoch_tv);
#endif
}

static void file_probes(void)
{
	enum group g = G_FILES;

	legacy_file_probes(g);
	CALL("openat O_WRONLY", g, EPERM, SYS_openat, AT_FDCWD, A_PATH,
	     O_WRONLY);
	CALL("openat O_RDONLY|O_CREAT", g, EPERM, SYS_openat, AT_FDCWD, A_NEW,
	     O_RDONLY | O_CREAT, 0644);
	CALL("openat O_RDONLY|O_TRUNC", g, EPERM, SYS_openat, AT_FDCWD, A_PATH,
	     O_RDONLY | O_TRUNC);
	CALL("openat O_RDONLY|O_APPEND", g, EPERM, SYS_openat, AT_FDCWD,
	     A_PATH, O_RDONLY | O_APPEND);
	CALL("openat O_RDWR|O_TMPFILE", g, EPERM, SYS_openat, AT_FDCWD, A_DIR,
	     O_RDWR | O_TMPFILE, 0600);
	CALL("openat2", g, ENOSYS, NR_openat2, AT_FDCWD, A_PATH,
	     (long)open_how, sizeof(open_how));
#ifdef SYS_renameat
	CALL("renameat", g, EPERM, SYS_renameat, AT_FDCWD, A_PATH, AT_FDCWD,
	     A_NEW);
#endif
	CALL("renameat2", g, EPERM, SYS_renameat2, AT_FDCWD, A_PATH, AT_FDCWD,
	     A_NEW, 0);
	CALL("unlinkat", g, EPERM, SYS_unlinkat, AT_FDCWD, A_PATH, 0);
	CALL("unlinkat AT_REMOVEDIR", g, EPERM, SYS_unlinkat, AT_FDCWD, A_DIR,
	     AT_REMOVEDIR);
	CALL("linkat", g, EPERM, SYS_linkat, AT_FDCWD, A_PATH, AT_FDCWD, A_NEW,
	     0);
	CALL("symlinkat", g, EPERM, SYS_symlinkat, A_PATH, AT_FDCWD, A_NEW);
	CALL("mkdirat", g, EPERM, SYS_mkdirat, AT_FDCWD, A_NEW, 0755);
	CALL("mknodat", g, EPERM, SYS_mknodat, AT_FDCWD, A_NEW,
	     S_IFIFO | 0600, 0);
	CALL("fchmod", g, EPERM, SYS_fchmod, A_RO, 0600);
	CALL("fchmodat", g, EPERM, SYS_fchmodat, AT_FDCWD, A_PATH, 0600);
	CALL("fchmodat2", g, EPERM, NR_fchmodat2, AT_FDCWD, A_PATH, 0600, 0);
	CALL("fchown", g, EPERM, SYS_fchown, A_RO, -1, -1);
	CALL("fchownat", g, EPERM, SYS_fchownat, AT_FDCWD, A_PATH, -1, -1, 0);
	CALL("truncate", g, EPERM, SYS_truncate, A_PATH, 0);
	CALL("ftruncate", g, EPERM, SYS_ftruncate, A_RW, 0);
	CALL("fallocate", g, EPERM, SYS_fallocate, A_RW, 0, 0, 65536);
	CALL("utimensat", g, EPERM, SYS_utimensat, AT_FDCWD, A_PATH,
	     (long)epoch_ts, 0);
	CALL("setxattr", g, EPERM, SYS_setxattr, A_PATH, (long)"user.wb",
	     (long)"x", 1, 0);
	CALL("lsetxattr", g, EPERM, SYS_lsetxattr, A_PATH, (long)"user.wb",
	     (long)"x", 1, 0);
	CALL("fsetxattr", g, EPERM, SYS_fsetxattr, A_RO, (long)"user.wb",
	     (long)"x", 1, 0);
	CALL("setxattrat", g, EPERM, NR_setxattrat, AT_FDCWD, A_PATH, 0,
	     (long)"user.wb", (long)xattr_args, sizeof(xattr_args));
	CALL("removexattr", g, EPERM, SYS_removexattr, A_PATH,
	     (long)"user.wb");
	CALL("lremovexattr", g, EPERM, SYS_lremovexattr, A_PATH,
	     (long)"user.wb");
	CALL("fremovexattr", g, EPERM, SYS_fremovexattr, A_RO,
	     (long)"user.wb");
	CALL("removexattrat", g, EPERM, NR_removexattrat, AT_FDCWD, A_PATH, 0,
	     (long)"user.wb");
	CALL("file_setattr", g, EPERM, NR_file_setattr, AT_FDCWD, A_PATH, 0, 0,
	     0);
	CALL("ioctl FICLONE", g, EPERM, SYS_ioctl, A_RW, FICLONE, A_RO);
	CALL("ioctl FICLONERANGE", g, EPERM, SYS_ioctl, A_RW, FICLONERANGE,
	     (long)&clone_range);
}

static void descriptor_probes(void)
{
	enum group g = G_FDS;

	CALL("write", g, EPERM, SYS_write, A_RW, (long)"x", 1);
	CALL("pwrite64", g, EPERM, SYS_pwrite64, A_RW, (long)"x", 1, 0);
	CALL("writev", g, EPERM, SYS_writev, A_RW, (long)&wiov, 1);
	CALL("pwritev", g, EPERM, SYS_pwritev, A_RW, (long)&wiov, 1, 0, 0);
	CALL("pwritev2", g, EPERM, SYS_pwritev2, A_RW, (long)&wiov, 1, 0, 0,
	     0);
	CALL("sendfile", g, EPERM, SYS_sendfile, A_RW, A_RO, 0, 4);
	CALL("copy_file_range", g, EPERM, SYS_copy_file_range, A_RO, 0, A_RW,
	     0, 4, 0);
	CALL("tee", g, EPERM, SYS_tee, A_PIPE_R, A_NEWPIPE, 4,
	     SPLICE_F_NONBLOCK);
	CALL("splice", g, EPERM, SYS_splice, A_PIPE_R, 0, A_RW, 0, 4,
	     SPLICE_F_NONBLOCK);
	CALL("vmsplice", g, EPERM, SYS_vmsplice, A_NEWPIPE, (long)&wiov, 1, 0);
	add_fn("mmap MAP_SHARED, read-write", g, EPERM, p_mmap_shared_rw);
	add_fn("mmap MAP_SHARED, read-only", g, EPERM, p_mmap_shared_ro);
	CALL("dup3 onto an old number", g, EPERM, SYS_dup3, A_RO, A_OLD, 0);
#ifdef SYS_dup2
	CALL("dup2 onto an old number", g, EPERM, SYS_dup2, A_RO, A_OLD);
#endif
	CALL("close an old descriptor", g, EPERM, SYS_close, A_OLD);
	CALL("close_range over an old one", g, EPERM, NR_close_range, A_OLD,
	     A_OLD, 0);
	add_fn("new descriptors land above the old ones", g, 0, p_gap);
	CALL("io_setup", g, EPERM, SYS_io_setup, 0, (long)&aio_ctx);
	CALL("io_submit", g, EPERM, SYS_io_submit, 0, 0, 0);
	CALL("io_uring_setup", g, EPERM, NR_io_uring_setup, 0,
	     (long)uring_params);
	CALL("io_uring_enter", g, EPERM, NR_io_uring_enter, -1, 0, 0, 0, 0, 0);
	CALL("io_uring_register", g, EPERM, NR_io_uring_register, -1, 0, 0, 0);
}

static void kernel_probes(void)
{
	enum group g = G_KERNEL;

	CALL("mount", g, EPERM, SYS_mount, (long)"none",
	     (long)"/nonexistent-wb", (long)"tmpfs", 0, 0);
	CALL("umount2", g, EPERM, SYS_umount2, (long)"/nonexistent-wb",
	     0x80000000L);
	CALL("chroot", g, EPERM, SYS_chroot, (long)"/nonexistent-wb");
	CALL("pivot_root", g, EPERM, SYS_pivot_root, (long)"/nonexistent-wb",
	     (long)"/nonexistent-wb");
	CALL("open_tree", g, EPERM, NR_open_tree, -1, (long)"", 0);
	CALL("open_tree_attr", g, EPERM, NR_open_tree_attr, -1, (long)"", 0, 0,
	     0);
	CALL("move_mount", g, EPERM, NR_move_mount, -1, (long)"", -1, (long)"",
	     0);
	CALL("fsopen", g, EPERM, NR_fsopen, (long)"wb-no-such-fs", 0);
	CALL("fsmount", g, EPERM, NR_fsmount, -1, 0, 0);
	CALL("fspick", g, EPERM, NR_fspick, -1, (long)"", 0);
	CALL("mount_setattr", g, EPERM, NR_mount_setattr, -1, (long)"", 0, 0,
	     0);
	CALL("init_module", g, EPERM, SYS_init_module, 0, 0, (long)"");
	CALL("finit_module", g, EPERM, SYS_finit_module, -1, (long)"", 0);
	CALL("delete_module", g, EPERM, SYS_delete_module,
	     (long)"wb_no_such_module", O_NONBLOCK);
	/* More segments than allowed: EINVAL, never an unload. */
	CALL("kexec_load", g, EPERM, SYS_kexec_load, 0, 1000, 0, 0);
#ifdef SYS_kexec_file_load
	CALL("kexec_file_load", g, EPERM, SYS_kexec_file_load, -1, -1, 0,
	     (long)"", 0x80000000L);
#endif
	/* Without the magic numbers: EINVAL, even for root. */
	CALL("reboot", g, EPERM, SYS_reboot, 0, 0, 0, 0);
	CALL("swapon", g, EPERM, SYS_swapon, (long)"/nonexistent-wb", 0);
	CALL("swapoff", g, EPERM, SYS_swapoff, (long)"/nonexistent-wb");
	CALL("bpf", g, EPERM, SYS_bpf, 1000, 0, 0);
	CALL("userfaultfd", g, EPERM, SYS_userfaultfd, 0x40000001L);
	CALL("perf_event_open", g, EPERM, SYS_perf_event_open, 0, 0, -1, -1,
	     0);
	CALL("personality", g, EPERM, SYS_personality, 0xffffffffL);
	CALL("keyctl", g, EPERM, SYS_keyctl, 0, -1, 0);
	CALL("add_key", g, EPERM, SYS_add_key, 0, 0, 0, 0, 0);
	CALL("request_key", g, EPERM, SYS_request_key, 0, 0, 0, 0);
#if defined(__x86_64__)
	CALL("getpid through the x32 ABI", g, ENOSYS, 0x40000000L | SYS_getpid,
	     0);
	add_fn("getpid through the i386 ABI (int 0x80)", g, ENOSYS, p_int80);
#endif
}

static void allowed_probes(void)
{
	enum group g = G_ALLOWED;

	add_fn("pthread_create", g, 0, p_pthread);
	add_fn("malloc 64 MiB", g, 0, p_malloc);
	add_fn("mmap anonymous, private and shared", g, 0, p_mmap_anon);
	add_fn("mmap MAP_PRIVATE of a file opened now", g, 0, p_mmap_private);
	add_fn("open read-only and read", g, 0, p_read_only);
	add_fn("write to stdout", g, 0, p_stdout);
	add_fn("write to a descriptor opened before", g, 0, p_write_before);
	CALL("kill (itself)", g, 0, SYS_kill, A_US, 0);
	CALL("tkill (itself)", g, 0, SYS_tkill, A_US, 0);
	CALL("tgkill (itself)", g, 0, SYS_tgkill, A_US, A_US, 0);
	add_fn("raise", g, 0, p_raise);
	CALL("prlimit64 (itself)", g, 0, SYS_prlimit64, 0, RLIMIT_NOFILE, 0,
	     (long)&rlim);
	CALL("prlimit64 (its own pid)", g, 0, SYS_prlimit64, A_US,
	     RLIMIT_NOFILE, 0, (long)&rlim);
	CALL("openat O_RDWR (writes are what is refused)", g, 0, SYS_openat,
	     AT_FDCWD, A_PATH, O_RDWR);
	CALL("getpid", g, 0, SYS_getpid, 0);
}

static void define_probes(void)
{
	if (nprobes)
		return;
	process_probes();
	network_probes();
	file_probes();
	descriptor_probes();
	kernel_probes();
	allowed_probes();
}

/* ---- the child ---- */

/* The probe's own names: dir/pN, and its ".new" and ".d" siblings. */
static void probe_path(char *buf, size_t n, const char *dir, int i,
		       const char *suffix)
{
	snprintf(buf, n, "%s/p%d%s", dir, i, suffix);
}

/* Descriptors the arguments need, opened for one probe. */
struct opened {
	int ro, rw, pipe[2];
};

static long resolve(struct env *e, long a, struct opened *o,
		    char (*names)[600])
{
	switch (a) {
	case A_PATH: return (long)names[0];
	case A_NEW: return (long)names[1];
	case A_DIR: return (long)names[2];
	case A_RO:
		if (o->ro < 0)
			o->ro = open(names[0], O_RDONLY);
		return o->ro;
	case A_RW:
		if (o->rw < 0)
			o->rw = open(names[0], O_RDWR);
		return o->rw;
	case A_PARENT: return e->parent;
	case A_US: return getpid();
	case A_OLD: return e->old;
	case A_SOCK: return e->sock;
	case A_SOCK2: return e->sock2;
	case A_PIPE_R: return e->pipe_r;
	case A_NEWPIPE:
		if (o->pipe[1] < 0 && pipe(o->pipe))
			o->pipe[0] = o->pipe[1] = -1;
		return o->pipe[1];
	}
	return a;
}

/* Run probe i: 0 if it worked, else its errno. */
static int run_probe(struct env *e, int i)
{
	const struct probe *p = &probes[i];
	struct opened o = { -1, -1, { -1, -1 } };
	char names[3][600];
	long a[6], r;
	int err;

	probe_path(names[0], sizeof(names[0]), e->dir, i, "");
	probe_path(names[1], sizeof(names[1]), e->dir, i, ".new");
	probe_path(names[2], sizeof(names[2]), e->dir, i, ".d");
	for (int k = 0; k < 6; k++)
		a[k] = resolve(e, p->a[k], &o, names);
	errno = 0;
	r = p->fn ? p->fn(e, names[0]) :
		    syscall(p->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	err = r < 0 ? (errno ? errno : EIO) : 0;
	if (o.ro >= 0)
		close(o.ro);
	if (o.rw >= 0)
		close(o.rw);
	if (o.pipe[0] >= 0) {
		close(o.pipe[0]);
		close(o.pipe[1]);
	}
	return err;
}

/* The highest descriptor open now. */
static int top_fd(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int top = -1;

	while (d && (de = readdir(d))) {
		int fd = atoi(de->d_name);

		if (de->d_name[0] != '.' && fd != dirfd(d) && fd > top)
			top = fd;
	}
	if (d)
		closedir(d);
	return top;
}

/* Everything the probes use that must exist before the lock. */
static int prepare(struct env *e)
{
	char path[600];
	int p[2], gap_a, gap_b;

	signal(SIGUSR1, SIG_IGN);
	snprintf(path, sizeof(path), "%s/prelock", e->dir);
	e->rw_before = open(path, O_RDWR);
	e->old = open("/dev/null", O_RDONLY);
	e->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	e->sock2 = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (e->rw_before < 0 || e->old < 0 || e->sock < 0 || e->sock2 < 0 ||
	    pipe(p) || write(p[1], "data", 4) != 4 || pipe(e->go))
		return -1;
	e->pipe_r = p[0];
	sun.sun_family = AF_UNIX;
	/* In the folder, so that a bind leaves a trace; abstract if too long. */
	if (snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/sock", e->dir) >=
	    (int)sizeof(sun.sun_path))
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%cwb-lockdown-%d",
			 0, (int)getpid());
	qinfo.si_code = SI_QUEUE;
	qinfo.si_pid = getpid();
	qinfo.si_uid = getuid();
	xattr_args[0] = (unsigned long long)(uintptr_t)"x";
	xattr_args[1] = 1; /* size 1, flags 0 */
	if (pthread_create(&e->early, NULL, early_thread, e))
		return -1;
	/* Two descriptors on top, the lower one closed: a gap below the top. */
	gap_a = open("/dev/null", O_RDONLY);
	gap_b = open("/dev/null", O_RDONLY);
	if (gap_a < 0 || gap_b < 0)
		return -1;
	close(gap_a);
	e->gap = gap_a;
	e->top = top_fd();
	return e->top > gap_a ? 0 : -1;
}

static void say(int fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(int fd, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n > 0 && write(fd, line, (size_t)n) < 0)
		_exit(3);
}

/* The child: set up, lock down if asked, run group g's probes, report. */
static void __attribute__((noreturn)) child(struct env *e, int locked,
					     enum group g)
{
	char why[256] = "";
	int rc = 0;

	if (prepare(e)) {
		say(e->report, "setup failed: %s\n", strerror(errno));
		_exit(2);
	}
	if (locked)
		rc = wb_lockdown(e->report, why, sizeof(why));
	say(e->report, "lock %d %s\n", rc, why);
	if (rc)
		_exit(0);
	for (int i = 0; i < nprobes; i++)
		if (probes[i].group == g)
			say(e->report, "probe %d %d\n", i, run_probe(e, i));
	say(e->report, "done\n");
	_exit(0);
}

/* ---- the parent ---- */

/* A fixed time for every file, so that any change to it shows. */
static const struct timespec stamp[2] = { { 1000000000, 0 },
					  { 1000000000, 0 } };

/* dir/pN ("original\n", 0644, at stamp) and dir/pN.d for every probe. */
static void make_files(const char *dir)
{
	char path[600];

	for (int i = 0; i < nprobes; i++) {
		probe_path(path, sizeof(path), dir, i, "");
		unit_write(path, "original\n");
		assert_int_equal(chmod(path, 0644), 0);
		assert_int_equal(utimensat(AT_FDCWD, path, stamp, 0), 0);
		probe_path(path, sizeof(path), dir, i, ".d");
		assert_int_equal(mkdir(path, 0755), 0);
	}
	snprintf(path, sizeof(path), "%s/prelock", dir);
	unit_write(path, "before\n");
}

/* How each probe ended in one child: codes[i] (-1: not run). */
struct outcome {
	int lock_rc;
	char why[256];
	int done;
	int codes[MAX_PROBES];
	char log[2048]; /* anything unexpected the child said */
};

static void parse_report(char *text, struct outcome *out)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		int i, code, off = 0;

		if (sscanf(l, "probe %d %d", &i, &code) == 2 && i >= 0 &&
		    i < nprobes)
			out->codes[i] = code;
		else if (sscanf(l, "lock %d %n", &out->lock_rc, &off) == 1)
			snprintf(out->why, sizeof(out->why), "%s", l + off);
		else if (!strcmp(l, "done"))
			out->done = 1;
		else
			snprintf(out->log + strlen(out->log),
				 sizeof(out->log) - strlen(out->log), "%s\n", l);
	}
}

/* Fork a child on dir, locked or not; what it said about group g. */
static void run_child(const char *dir, int locked, enum group g,
		      struct outcome *out)
{
	static char text[1 << 16];
	struct env e;
	size_t len = 0;
	int rep[2], st = 0;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	memset(out->codes, 0xff, sizeof(out->codes));
	out->lock_rc = -2;
	memset(&e, 0, sizeof(e));
	snprintf(e.dir, sizeof(e.dir), "%s", dir);
	e.parent = getpid();
	assert_int_equal(pipe(rep), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(rep[0]);
		e.report = rep[1];
		child(&e, locked, g);
	}
	close(rep[1]);
	for (;;) {
		struct pollfd pfd = { rep[0], POLLIN, 0 };
		ssize_t n;

		if (poll(&pfd, 1, 30000) <= 0) {
			kill(pid, SIGKILL);
			break;
		}
		n = read(rep[0], text + len, sizeof(text) - 1 - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	text[len] = '\0';
	close(rep[0]);
	waitpid(pid, &st, 0);
	parse_report(text, out);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		snprintf(out->log + strlen(out->log),
			 sizeof(out->log) - strlen(out->log),
			 "the child ended with status %#x\n", st);
}

/* Whether probe i's files in dir are as make_files() left them. */
static int untouched(const char *dir, int i)
{
	char path[600], buf[32] = "";
	struct stat st;
	ssize_t n;
	int fd;

	probe_path(path, sizeof(path), dir, i, ".d");
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return 0;
	probe_path(path, sizeof(path), dir, i, "");
	if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
	    (st.st_mode & 07777) != 0644 || st.st_size != 9 ||
	    st.st_mtim.tv_sec != stamp[1].tv_sec || st.st_nlink != 1 ||
	    getxattr(path, "user.wb", buf, sizeof(buf)) >= 0)
		return 0;
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	return n == 9 && !memcmp(buf, "original\n", 9);
}

/* Entries of dir that make_files() did not make; their names into buf. */
static int strangers(const char *dir, char *buf, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int count = 0;

	buf[0] = '\0';
	while (d && (de = readdir(d))) {
		const char *s = de->d_name;
		char *end;
		long i;

		if (!strcmp(s, ".") || !strcmp(s, "..") || !strcmp(s, "prelock"))
			continue;
		i = s[0] == 'p' ? strtol(s + 1, &end, 10) : -1;
		if (i >= 0 && i < nprobes && end != s + 1 &&
		    (!*end || !strcmp(end, ".d")))
			continue;
		count++;
		snprintf(buf + strlen(buf), n - strlen(buf), " %s", s);
	}
	if (d)
		closedir(d);
	return count;
}

/* An outcome in words, into one of two buffers (two per message). */
static const char *outcome_name(int code)
{
	static char buf[2][64];
	static int k;

	if (code < 0)
		return "not run";
	if (code == 0)
		return "success";
	if (code == NOT_HERE)
		return "not available on this machine";
	k = !k;
	snprintf(buf[k], sizeof(buf[k]), "errno %d (%s)", code,
		 strerror(code));
	return buf[k];
}

/*
 * One group: its probes unlocked (in dir/free) and locked (in dir/locked).
 * Every locked outcome must be what the probe wants; refusals that the
 * kernel gives without the filter too are listed as proving nothing here.
 */
static void check_group(enum group g)
{
	char *top = unit_tmpdir(), free_dir[600], lock_dir[600], extra[1024];
	char same[2048] = "", bad[4096] = "";
	struct outcome *u = calloc(1, sizeof(*u)), *l = calloc(1, sizeof(*l));
	int told = 0, refusals = 0, changed = 0;

	assert_non_null(top);
	assert_non_null(u);
	assert_non_null(l);
	define_probes();
	unit_path(free_dir, sizeof(free_dir), top, "free");
	unit_path(lock_dir, sizeof(lock_dir), top, "locked");
	assert_int_equal(mkdir(free_dir, 0755), 0);
	assert_int_equal(mkdir(lock_dir, 0755), 0);
	make_files(free_dir);
	make_files(lock_dir);
	run_child(free_dir, 0, g, u);
	run_child(lock_dir, 1, g, l);

	if (l->lock_rc != 0 && (strstr(l->why, "architecture") ||
				prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0)) {
		print_message("SKIP: this kernel or architecture has no "
			      "lockdown: %s\n", l->why);
		goto out;
	}
	if (l->lock_rc != 0 || !l->done || !u->done)
		fail_msg("lock %d (%s); locked child %s, free child %s\n%s%s",
			 l->lock_rc, l->why, l->done ? "done" : "cut short",
			 u->done ? "done" : "cut short", l->log, u->log);
	for (int i = 0; i < nprobes; i++) {
		const struct probe *p = &probes[i];
		int lc = l->codes[i], uc = u->codes[i];

		if (lc < 0 && uc < 0)
			continue; /* another group's */
		changed += !untouched(free_dir, i);
		if (!untouched(lock_dir, i))
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				 "  %s: changed its file\n", p->name);
		if (lc == NOT_HERE && uc == NOT_HERE) {
			snprintf(same + strlen(same), sizeof(same) - strlen(same),
				 " %s (not available here);", p->name);
			continue;
		}
		if (lc != p->want)
			snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
				 "  %s: %s locked down, want %s\n", p->name,
				 outcome_name(lc), outcome_name(p->want));
		if (!p->want)
			continue;
		refusals++;
		if (uc != lc)
			told++;
		else
			snprintf(same + strlen(same), sizeof(same) - strlen(same),
				 " %s;", p->name);
	}
	if (strangers(lock_dir, extra, sizeof(extra)))
		snprintf(bad + strlen(bad), sizeof(bad) - strlen(bad),
			 "  left behind:%s\n", extra);
	if (*bad)
		fail_msg("locked down, not as it should be:\n%s%s", bad, l->log);
	print_message("%d of %d refusals told apart from what the kernel says "
		      "without the filter; %d probes changed something "
		      "without it\n", told, refusals, changed);
	if (*same)
		print_message("the same without the filter, so not proven "
			      "here:%s\n", same);
	/* The probes are real: without the filter, most act. */
	if (refusals)
		assert_true(told > 0);
out:
	unit_rmdir(strdup(free_dir));
	unit_rmdir(strdup(lock_dir));
	unit_rmdir(top);
	free(u);
	free(l);
}

static void processes(void **state)
{
	(void)state;
	check_group(G_PROC);
}

static void network(void **state)
{
	(void)state;
	check_group(G_NET);
}

static void files(void **state)
{
	(void)state;
	check_group(G_FILES);
}

static void descriptors(void **state)
{
	(void)state;
	check_group(G_FDS);
}

static void kernel(void **state)
{
	(void)state;
	check_group(G_KERNEL);
}

static void allowed(void **state)
{
	(void)state;
	check_group(G_ALLOWED);
}

/* The descriptor to keep must be open for writing, or nothing is done. */
static void keep_fd_must_be_writable(void **state)
{
	char why[256] = "";
	int ro = open("/dev/null", O_RDONLY), closed;

	(void)state;
	assert_true(ro >= 0);
	assert_int_equal(wb_lockdown(ro, why, sizeof(why)), -1);
	assert_contains(why, "not open for writing");
	closed = ro;
	close(ro);
	why[0] = '\0';
	assert_int_equal(wb_lockdown(closed, why, sizeof(why)), -1);
	assert_contains(why, "not open for writing");
	/* Refused before anything: no filter, no flag. */
	assert_int_equal(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0), 0);
	assert_int_equal(prctl(PR_GET_SECCOMP, 0, 0, 0, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keep_fd_must_be_writable),
		cmocka_unit_test(processes),
		cmocka_unit_test(network),
		cmocka_unit_test(files),
		cmocka_unit_test(descriptors),
		cmocka_unit_test(kernel),
		cmocka_unit_test(allowed),
	};

	return cmocka_run_group_tests_name("lockdown", tests, NULL, NULL);
}
