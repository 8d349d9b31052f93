/* SPDX-License-Identifier: MIT */
/*
 * test_proc.c - grader/proc.c: running an exercise's process in its own
 * process group under a time limit, with tests/unit/fake_child.c standing
 * in for a runner that passes, crashes, hangs (with a forked helper),
 * leaves a helper behind (even one that left its group with setsid),
 * exits with a status, or floods its output; its record through a pipe
 * (rewritten, written after "end", too long, cut short); and reading what
 * it left.
 *
 * The fake child's path comes from $FAKE_CHILD (tests/run.sh sets it).
 */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>

#include "grade.h"
#include "proc.h"
#include "record.h"

static const char *fake;

struct fixture {
	char *dir;
	char out[600], res[600];
	char *text; /* freed by teardown, even when an assertion fails */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int group_setup(void **state)
{
	(void)state;
	/*
	 * Orphans of our children come to us rather than to init, which
	 * in a container may never reap them: a killed grandchild then
	 * ends as our zombie, and waitpid() can tell how it died.
	 */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	return 0;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx || !(fx->dir = unit_tmpdir()))
		return -1;
	unit_path(fx->out, sizeof(fx->out), fx->dir, "ex.out");
	unit_path(fx->res, sizeof(fx->res), fx->dir, "ex.result");
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unit_rmdir(fx->dir);
	free(fx->text);
	free(fx);
	return 0;
}

/* Run the fake child in mode what, as the driver runs an exercise. */
static void run_fake(struct fixture *fx, const char *what, double timeout_s,
		     struct proc_result *pr)
{
	char *argv[] = { (char *)fake, (char *)what, fx->res, NULL };

	if (!fake)
		skip();
	assert_int_equal(proc_run(argv, fx->out, timeout_s, pr), 0);
}

/* The same, its record through the pipe (--result-fd), copied to res. */
static void run_fake_fd(struct fixture *fx, const char *what,
			double timeout_s, struct proc_result *pr,
			struct proc_record *rec)
{
	char *argv[] = { (char *)fake, (char *)what, "--result-fd",
			 PROC_RECORD_FD_ARG, NULL };

	if (!fake)
		skip();
	assert_int_equal(proc_run_record(argv, fx->out, fx->res, timeout_s,
					 pr, rec), 0);
	fx->text = rec->text; /* teardown frees it */
	assert_non_null(rec->text);
}

static struct g_result parse_text(const char *text)
{
	struct g_result r;

	memset(&r, 0, sizeof(r));
	g_parse_record(text, &r);
	return r;
}

static int has_detail(const struct g_result *r, const char *what)
{
	for (int i = 0; i < r->ndetails; i++)
		if (strstr(r->details[i], what))
			return 1;
	return 0;
}

/* Whether process pid exists now, zombie or not: /proc has it. */
static int proc_exists(long pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%ld", pid);
	return stat(path, &st) == 0;
}

static struct g_result parse_result(const char *path)
{
	struct g_result r;
	char *text = read_file(path, 1 << 16);

	memset(&r, 0, sizeof(r));
	g_parse_record(text, &r);
	free(text);
	return r;
}

/*
 * Wait up to 2 s for pid to be gone: reaped if it is ours (see
 * group_setup), else no longer there. Its wait status, 0 if it was not
 * ours to reap, or -1 if it is still alive.
 */
static int wait_gone(pid_t pid)
{
	for (int i = 0; i < 200; i++) {
		int st = 0;
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			return st;
		if (w < 0 && kill(pid, 0) < 0 && errno == ESRCH)
			return 0;
		nap_ms(10);
	}
	return -1;
}

struct ids {
	long pid, pgid, kid; /* the fake child, its group, its own child */
};

/* Read the ids that fake_child hang and orphan write; 0 if absent. */
static int read_ids(const char *res, struct ids *id)
{
	char *t = read_file(res, 1 << 10);
	int n = t ? sscanf(t, "pid %ld pgid %ld grandchild %ld", &id->pid,
			   &id->pgid, &id->kid) : 0;

	free(t);
	return n == 3;
}

/* The fake child's own child must be dead, and of a SIGKILL. */
static void assert_grandchild_killed(long kid, const char *when)
{
	int st = wait_gone((pid_t)kid);

	if (st < 0) {
		kill((pid_t)kid, SIGKILL); /* clean up before failing */
		wait_gone((pid_t)kid);
		fail_msg("grandchild %ld outlived %s", kid, when);
	}
	if (st > 0) {
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), SIGKILL);
	}
	assert_int_equal(kill((pid_t)kid, 0), -1);
	assert_int_equal(errno, ESRCH);
}

/*
 * For the tests that hang on purpose: should proc_run() fail to stop the
 * fake child, this kills it after ms, so that the test fails on its
 * timing instead of hanging the suite. Never our own process group.
 */
static pid_t watchdog(const char *res, long ms)
{
	struct ids id;
	pid_t w = fork();

	if (w != 0)
		return w;
	nap_ms(ms);
	if (read_ids(res, &id)) {
		if (id.pgid == id.pid && id.pgid != (long)getpgrp())
			kill((pid_t)-id.pgid, SIGKILL);
		kill((pid_t)id.pid, SIGKILL);
		kill((pid_t)id.kid, SIGKILL);
	}
	_exit(0);
}

static void watchdog_stop(pid_t w)
{
	if (w > 0) {
		kill(w, SIGKILL);
		waitpid(w, NULL, 0);
	}
}

/* ---- how a child ended ---- */

static void pass_exits_zero_with_record(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	struct g_result r;

	run_fake(fx, "pass", 10, &pr);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 0);
	assert_false(pr.signaled);
	assert_false(pr.timed_out);
	assert_true(pr.wall_s >= 0 && pr.wall_s < 5);
	r = parse_result(fx->res);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_int_equal(r.complete, 1);
	assert_int_equal(r.garbled, 0);
	assert_near(r.t[G_STUDENT].median_us, 25, 0);
	assert_near(r.t[G_NAIVE].median_us, 100, 0);
}

static void output_can_be_discarded(void **state)
{
	char *argv[] = { (char *)fake, "pass", NULL, NULL };
	struct fixture *fx = *state;
	struct proc_result pr;

	if (!fake)
		skip();
	argv[2] = fx->res;
	assert_int_equal(proc_run(argv, NULL, 10, &pr), 0);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 0);
	assert_int_equal(unit_dir_entries(fx->dir), 1); /* the record only */
}

static void segv_is_signaled(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	struct g_result r;
	char *out;

	run_fake(fx, "segv", 10, &pr);
	assert_true(pr.signaled);
	assert_int_equal(pr.signo, SIGSEGV);
	assert_false(pr.exited);
	assert_false(pr.timed_out);
	out = read_file(fx->out, 1 << 16);
	assert_contains(out, "about to crash");
	free(out);
	r = parse_result(fx->res);
	assert_int_equal(r.complete, 0); /* half a record is no verdict */
	assert_int_equal(r.sizes_ok, 1);
}

static void exit3_is_exited_code_3(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	struct g_result r;

	run_fake(fx, "exit3", 10, &pr);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 3);
	assert_false(pr.signaled);
	assert_false(pr.timed_out);
	r = parse_result(fx->res);
	assert_int_equal(r.complete, 0);
}

static void garbage_record_is_garbled(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	struct g_result r;

	run_fake(fx, "garbage", 10, &pr);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 0);
	r = parse_result(fx->res);
	assert_int_equal(r.garbled, 1);
	assert_int_not_equal(r.verdict, WB_V_PASS);
}

static void stdout_and_stderr_both_kept(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	char *out;

	run_fake(fx, "stderr", 10, &pr);
	assert_true(pr.exited);
	out = read_file(fx->out, 1 << 16);
	assert_contains(out, "to stdout\n");
	assert_contains(out, "to stderr\n");
	free(out);
}

static void missing_program_exits_127(void **state)
{
	char *argv[] = { "/nonexistent/wb-runner", "--list", NULL };
	struct fixture *fx = *state;
	struct proc_result pr;
	char *out;

	assert_int_equal(proc_run(argv, fx->out, 10, &pr), 0);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 127);
	assert_false(pr.timed_out);
	out = read_file(fx->out, 1 << 16);
	assert_contains(out, "cannot run /nonexistent/wb-runner");
	free(out);
}

static void unwritable_output_exits_127(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	char bad[700];
	char *argv[] = { (char *)fake, "pass", fx->res, NULL };

	if (!fake)
		skip();
	unit_path(bad, sizeof(bad), fx->dir, "no/such/ex.out");
	assert_int_equal(proc_run(argv, bad, 10, &pr), 0);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 127);
	assert_null(read_file(fx->res, 1 << 10)); /* it never ran */
}

/* ---- time limits and process groups ---- */

static void hang_is_killed_with_its_group(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	struct ids id;
	double t0, took;
	pid_t dog;

	if (!fake)
		skip();
	dog = watchdog(fx->res, 3000);
	t0 = now_s();
	run_fake(fx, "hang", 0.5, &pr);
	took = now_s() - t0;
	watchdog_stop(dog);
	assert_true(pr.timed_out);
	assert_false(pr.exited);
	assert_true(pr.wall_s >= 0.5);
	assert_true(took < 2.0);

	assert_true(read_ids(fx->res, &id));
	/* Its own process group, not ours. */
	assert_int_equal(id.pgid, id.pid);
	assert_int_not_equal(id.pgid, (long)getpgrp());
	/* The forked helper died with it, of the group kill. */
	assert_grandchild_killed(id.kid, "the time limit");
}

static void orphan_is_killed_after_exit(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	struct ids id;

	/* The child ends well but leaves its own child running. */
	run_fake(fx, "orphan", 10, &pr);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 0);
	assert_false(pr.timed_out);
	assert_true(read_ids(fx->res, &id));
	assert_grandchild_killed(id.kid, "a child that exited");
}

struct escape_ids {
	long pid, pgid, kid, great, sid;
};

/* Read what fake_child setsid writes; 0 if absent. */
static int read_escape(const char *res, struct escape_ids *id)
{
	char *t = read_file(res, 1 << 10);
	int n = t ? sscanf(t, "pid %ld pgid %ld grandchild %ld great %ld "
			   "sid %ld", &id->pid, &id->pgid, &id->kid,
			   &id->great, &id->sid) : 0;

	free(t);
	return n == 5;
}

/*
 * A child that left the process group (setsid) and forked a child of its
 * own, both asleep, outlive a group kill: they must be gone, reaped, as
 * soon as proc_run() returns. Were they alive, they would be ours (see
 * group_setup) and stay so; kill them before failing.
 */
static void setsid_leftovers_are_killed(void **state)
{
	struct fixture *fx = *state;
	struct escape_ids id;
	struct proc_result pr;
	int kid_left, great_left;

	run_fake(fx, "setsid", 10, &pr);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 0);
	assert_true(read_escape(fx->res, &id));
	assert_true(id.kid > 0 && id.great > 0);
	/* It did leave: a session of its own, out of the killed group. */
	assert_int_equal(id.sid, id.kid);
	assert_int_not_equal(id.sid, id.pgid);
	kid_left = proc_exists(id.kid);
	great_left = proc_exists(id.great);
	if (kid_left || great_left) {
		kill((pid_t)id.kid, SIGKILL);
		kill((pid_t)id.great, SIGKILL);
		wait_gone((pid_t)id.kid);
		wait_gone((pid_t)id.great);
		fail_msg("left behind: %s%s", kid_left ? "the setsid child " : "",
			 great_left ? "its own child" : "");
	}
}

/* proc_run() kills what a run left, never what its caller had before. */
static void callers_children_are_spared(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	pid_t mine = fork();
	int st = 0;

	if (mine == 0) {
		nap_ms(3000);
		_exit(7);
	}
	assert_true(mine > 0);
	run_fake(fx, "orphan", 10, &pr);
	/* Still running: it exits 7 by itself, not of a SIGKILL. */
	assert_int_equal(waitpid(mine, &st, WNOHANG), 0);
	kill(mine, SIGTERM);
	assert_int_equal(waitpid(mine, &st, 0), mine);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
}

static void on_alarm(int sig)
{
	(void)sig;
	proc_kill_current();
}

static void kill_current_stops_the_run(void **state)
{
	struct fixture *fx = *state;
	struct sigaction sa, old;
	struct proc_result pr;
	struct ids id;
	double t0 = now_s();
	pid_t dog;

	if (!fake)
		skip();
	/* What the grader's SIGINT handler does, here from SIGALRM. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, &old), 0);
	dog = watchdog(fx->res, 4000);
	alarm(1);
	run_fake(fx, "hang", 30, &pr);
	alarm(0);
	sigaction(SIGALRM, &old, NULL);
	watchdog_stop(dog);
	assert_true(now_s() - t0 < 3);
	assert_false(pr.timed_out);
	assert_true(pr.signaled);
	assert_int_equal(pr.signo, SIGKILL);
	assert_true(read_ids(fx->res, &id));
	assert_grandchild_killed(id.kid, "proc_kill_current()");
	/* No child running now: a late call must not kill anything. */
	proc_kill_current();
}

/* ---- the record through a pipe ---- */

/*
 * For the tests whose child leaves the pipe open behind it: should
 * proc_run() wait for the pipe's end, SIGALRM kills the run's group
 * after s seconds, so that the test fails on its timing, not hangs.
 */
static void safety_net(unsigned int s, struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, old);
	alarm(s);
}

static void safety_off(const struct sigaction *old)
{
	alarm(0);
	sigaction(SIGALRM, old, NULL);
}

static void pipe_record_is_read_and_kept(void **state)
{
	struct fixture *fx = *state;
	struct proc_record rec;
	struct proc_result pr;
	struct g_result r;
	char *copy;

	run_fake_fd(fx, "pass", 10, &pr, &rec);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 0);
	assert_false(rec.too_long);
	assert_int_equal(rec.save_errno, 0);
	assert_int_equal(rec.len, strlen(rec.text));
	r = parse_text(rec.text);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_int_equal(r.complete, 1);
	assert_int_equal(r.garbled, 0);
	assert_near(r.t[G_STUDENT].median_us, 25, 0);
	/* The copy for people is what was read, byte for byte. */
	copy = read_file(fx->res, 1 << 16);
	assert_non_null(copy);
	assert_string_equal(copy, rec.text);
	free(copy);
}

/*
 * The attack a file allowed: a verdict, then back to the start of the
 * record and another over it. On a file it works (the PASS stands); on
 * the pipe the seek fails and the second record follows the first "end":
 * unreadable, and the details say why.
 */
static void rewrite_works_on_a_file_not_on_the_pipe(void **state)
{
	struct fixture *fx = *state;
	struct proc_record rec;
	struct proc_result pr;
	struct g_result r;
	char *out;

	run_fake(fx, "rewrite", 10, &pr);
	r = parse_result(fx->res);
	assert_int_equal(r.verdict, WB_V_PASS); /* why files are gone */
	assert_int_equal(r.garbled, 0);

	run_fake_fd(fx, "rewrite", 10, &pr, &rec);
	assert_true(pr.exited);
	r = parse_text(rec.text);
	assert_int_equal(r.complete, 1);
	assert_int_equal(r.garbled, 1);
	assert_int_equal(r.verdict, WB_V_WRONG); /* the first word stands */
	assert_true(has_detail(&r, "the runner wrote to its result after its "
				   "verdict"));
	out = read_file(fx->out, 1 << 16);
	assert_contains(out, "lseek on the record: Illegal seek");
	free(out);
}

/* A NUL byte after "end" must not hide the line that follows it. */
static void nul_after_end_is_still_after_end(void **state)
{
	struct fixture *fx = *state;
	struct proc_record rec;
	struct proc_result pr;
	struct g_result r;

	run_fake_fd(fx, "nul", 10, &pr, &rec);
	assert_int_equal(rec.len, 32);
	assert_int_equal(strlen(rec.text), 32);
	assert_contains(rec.text, "end\n verdict WRONG");
	r = parse_text(rec.text);
	assert_int_equal(r.garbled, 1);
	assert_true(has_detail(&r, "after its verdict"));
}

/* More than PROC_RECORD_MAX: cut there, and the writer stopped at once. */
static void flood_is_too_long_and_stopped(void **state)
{
	struct fixture *fx = *state;
	struct proc_record rec;
	struct proc_result pr;
	struct stat st;

	run_fake_fd(fx, "flood", 20, &pr, &rec);
	assert_true(rec.too_long);
	assert_int_equal(rec.len, PROC_RECORD_MAX);
	assert_int_equal(strlen(rec.text), PROC_RECORD_MAX);
	assert_null(strstr(rec.text, "verdict")); /* never got that far */
	assert_false(pr.timed_out);
	assert_true(pr.signaled); /* its next write after the cap */
	assert_int_equal(pr.signo, SIGPIPE);
	assert_int_equal(stat(fx->res, &st), 0);
	assert_int_equal(st.st_size, PROC_RECORD_MAX);
}

static void death_mid_record_through_the_pipe(void **state)
{
	struct fixture *fx = *state;
	struct proc_record rec;
	struct proc_result pr;
	struct g_result r;

	run_fake_fd(fx, "segv", 10, &pr, &rec);
	assert_true(pr.signaled);
	assert_int_equal(pr.signo, SIGSEGV);
	assert_false(rec.too_long);
	r = parse_text(rec.text);
	assert_int_equal(r.complete, 0);
	assert_int_equal(r.sizes_ok, 1);
}

/*
 * A helper left behind keeps the pipe's write end: proc_run() must not
 * wait for its end of file, and kills the helper.
 */
static void helper_holding_the_pipe_does_not_hold_the_run(void **state)
{
	struct fixture *fx = *state;
	struct sigaction old;
	struct proc_record rec;
	struct proc_result pr;
	struct ids id;
	double t0 = now_s();

	if (!fake)
		skip();
	safety_net(5, &old);
	run_fake_fd(fx, "orphan", 10, &pr, &rec);
	safety_off(&old);
	assert_true(now_s() - t0 < 3);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 0);
	assert_int_equal(sscanf(rec.text, "pid %ld pgid %ld grandchild %ld",
				&id.pid, &id.pgid, &id.kid), 3);
	assert_grandchild_killed(id.kid, "a child that exited");
}

/* The child starts with 0-2 and the pipe, none of the driver's others. */
static void child_gets_only_its_descriptors(void **state)
{
	struct fixture *fx = *state;
	struct proc_record rec;
	struct proc_result pr;
	int extra = open("/dev/null", O_RDONLY); /* no O_CLOEXEC */

	assert_true(extra > 2);
	run_fake_fd(fx, "fds", 10, &pr, &rec);
	close(extra);
	assert_string_equal(rec.text, "fds 0 1 2 " PROC_RECORD_FD_ARG "\n");
}

/* The copy for people replaces what is at its path, and follows no link. */
static void record_copy_follows_no_link(void **state)
{
	struct fixture *fx = *state;
	struct proc_record rec;
	struct proc_result pr;
	char target[700];
	struct stat st;
	char *t;

	unit_path(target, sizeof(target), fx->dir, "target");
	unit_write(target, "precious\n");
	assert_int_equal(symlink(target, fx->res), 0);
	run_fake_fd(fx, "pass", 10, &pr, &rec);
	assert_int_equal(rec.save_errno, 0);
	assert_int_equal(lstat(fx->res, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	t = read_file(target, 1 << 10);
	assert_string_equal(t, "precious\n");
	free(t);
}

/* ---- output: lots of it, and its tail ---- */

static void chatter_finishes_and_tail_is_clean(void **state)
{
	struct fixture *fx = *state;
	struct proc_result pr;
	struct g_result r;
	char *all, *tail;
	size_t n, tn;

	run_fake(fx, "chatter", 10, &pr);
	assert_true(pr.exited);
	assert_int_equal(pr.code, 0);
	assert_false(pr.timed_out);
	r = parse_result(fx->res);
	assert_int_equal(r.verdict, WB_V_PASS);

	all = read_file(fx->out, 1 << 20);
	assert_non_null(all);
	n = strlen(all);
	assert_true(n > 150000); /* nothing lost */
	assert_contains(all, "line 0 of chatter");

	tail = file_tail(fx->out, 600);
	assert_non_null(tail);
	tn = strlen(tail);
	assert_true(tn > 0 && tn <= 600);
	/* The end of the output, starting at a line start. */
	assert_memory_equal(tail, all + n - tn, tn);
	assert_int_equal(all[n - tn - 1], '\n');
	assert_int_equal(strncmp(tail, "line ", 5), 0);
	assert_contains(tail, "line 3999 of chatter");
	free(tail);
	free(all);
}

static void tail_of_small_file_is_whole(void **state)
{
	struct fixture *fx = *state;
	char *t;

	unit_write(fx->out, "one\ntwo\n");
	t = file_tail(fx->out, 600);
	assert_string_equal(t, "one\ntwo\n");
	free(t);
	unit_write(fx->out, "");
	t = file_tail(fx->out, 600);
	assert_string_equal(t, "");
	free(t);
}

static void tail_cuts_at_line_start(void **state)
{
	struct fixture *fx = *state;
	char *t;

	unit_write(fx->out, "alpha\nbravo\ncharlie\ndelta\n");
	/* The last 16 bytes are "o\ncharlie\ndelta\n": the "o" goes. */
	t = file_tail(fx->out, 16);
	assert_string_equal(t, "charlie\ndelta\n");
	free(t);
}

static void tail_without_newlines_is_last_bytes(void **state)
{
	struct fixture *fx = *state;
	char *t;

	unit_write(fx->out, "0123456789abcdefghij");
	t = file_tail(fx->out, 8);
	assert_string_equal(t, "cdefghij");
	free(t);
}

/*
 * The last line is longer than the window: no line starts in it, so the
 * tail should be the window itself ("where possible"), not nothing. A
 * crashed program's last long line is exactly what a student needs to
 * see. Exposes a bug.
 */
static void tail_keeps_a_long_last_line(void **state)
{
	struct fixture *fx = *state;
	char text[1024];

	strcpy(text, "first\n");
	memset(text + 6, 'x', 700);
	strcpy(text + 706, "\n");
	unit_write(fx->out, text);
	fx->text = file_tail(fx->out, 600);
	assert_non_null(fx->text);
	assert_int_equal(strlen(fx->text), 600);
	assert_string_equal(fx->text, text + 707 - 600);
}

/*
 * The window starts exactly at a line start: that whole line belongs in
 * the tail. Exposes a bug (the first line of the window is dropped, here
 * leaving nothing).
 */
static void tail_window_on_line_start(void **state)
{
	struct fixture *fx = *state;

	unit_write(fx->out, "aaaa\nbbbb\n");
	fx->text = file_tail(fx->out, 5);
	assert_string_equal(fx->text, "bbbb\n");
}

/*
 * A crashing program may print NUL bytes (a raw buffer, a bad %c) before
 * its last words; the tail must still end with those. Exposes a bug: the
 * tail is cut at the first NUL, keeping what came before it instead.
 */
static void tail_survives_nul_bytes(void **state)
{
	static const char text[] = "garbage\0\0\0 more\n"
				   "CUDA error: an illegal memory access\n";
	struct fixture *fx = *state;
	FILE *f = fopen(fx->out, "wb");

	assert_non_null(f);
	fwrite(text, 1, sizeof(text) - 1, f);
	fclose(f);
	fx->text = file_tail(fx->out, 600);
	assert_non_null(fx->text);
	assert_contains(fx->text, "CUDA error: an illegal memory access\n");
}

static void read_file_cases(void **state)
{
	struct fixture *fx = *state;
	char *t;

	assert_null(read_file(fx->out, 100)); /* not there yet */
	assert_null(file_tail(fx->out, 100));
	unit_write(fx->out, "0123456789");
	t = read_file(fx->out, 100);
	assert_string_equal(t, "0123456789");
	free(t);
	t = read_file(fx->out, 4); /* at most max bytes */
	assert_string_equal(t, "0123");
	free(t);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(pass_exits_zero_with_record),
		T(output_can_be_discarded),
		T(segv_is_signaled),
		T(exit3_is_exited_code_3),
		T(garbage_record_is_garbled),
		T(stdout_and_stderr_both_kept),
		T(missing_program_exits_127),
		T(unwritable_output_exits_127),
		T(hang_is_killed_with_its_group),
		T(orphan_is_killed_after_exit),
		T(setsid_leftovers_are_killed),
		T(callers_children_are_spared),
		T(kill_current_stops_the_run),
		T(pipe_record_is_read_and_kept),
		T(rewrite_works_on_a_file_not_on_the_pipe),
		T(nul_after_end_is_still_after_end),
		T(flood_is_too_long_and_stopped),
		T(death_mid_record_through_the_pipe),
		T(helper_holding_the_pipe_does_not_hold_the_run),
		T(child_gets_only_its_descriptors),
		T(record_copy_follows_no_link),
		T(chatter_finishes_and_tail_is_clean),
		T(tail_of_small_file_is_whole),
		T(tail_cuts_at_line_start),
		T(tail_without_newlines_is_last_bytes),
		T(tail_keeps_a_long_last_line),
		T(tail_window_on_line_start),
		T(tail_survives_nul_bytes),
		T(read_file_cases),
	};

	fake = getenv("FAKE_CHILD");
	if (!fake || !*fake) {
		fake = NULL;
		print_message("FAKE_CHILD is not set: the tests that run "
			      "tests/unit/fake_child are skipped (tests/run.sh "
			      "sets it to build/host/tests/fake_child)\n");
	}
	return cmocka_run_group_tests_name("proc", tests, group_setup, NULL);
}
