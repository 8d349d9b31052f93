/* SPDX-License-Identifier: MIT */
/*
 * sched.c - grading the submissions: builds on the CPUs, grading on the
 * GPUs, one finished folder per student.
 *
 * Each submission goes through two commands, each a process group of its
 * own, inside its own sandbox, with a time limit:
 *
 *   build   make runners SRC=<its files> T=<its build folder>   (CPU)
 *   grade   grader --build <its build folder> ...               (one GPU)
 *
 * Up to --jobs builds run at once. A grade needs a slot: one per GPU in
 * use, so two timing runs never share a GPU; with --build-only no GPU
 * is used and the slots are CPUs. Builds run ahead of the GPUs by at most
 * a few submissions.
 *
 * A student's results appear all at once: they are written to
 * students/.tmp-<id>/ and renamed to students/<id>/; a regrade renames the
 * old folder out of the way first. A crash at any point leaves either the
 * old result or the new one, never half of one, and the next run tidies
 * up (bt_recover()). A grade that ends without results is not a result: the
 * student's logs go to failed/<id>/ and the next run tries again.
 */
#include "batch.h"
#include "../../grader/gpulock.h"
#include "../../grader/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A file a submission's command writes may be at most this big: a
 * kernel that printf()s forever fills this, not the disk. */
#define BT_FSIZE_LIMIT (512L << 20)
/* Each exercise's .log and .out kept in the student's folder: the end. */
#define BT_LOG_KEEP (256 << 10)

enum state { S_QUEUED, S_BUILDING, S_BUILT, S_GRADING, S_DONE, S_FAILED };

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* ---- processes ------------------------------------------------------ */

/* A log the batch writes, in a folder sandboxed code may write too: a
 * link left there is never followed. */
static int open_log(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
}

static void child(struct bt_args *a, const char *out, const char *err,
		  long fsize, const char *cuda_visible, const char *lock_dir)
{
	setpgid(0, 0);
	if (!out || *out) { /* BT_STDIO: keep this process's own */
		int in = open("/dev/null", O_RDONLY), fo, fe;

		fo = out ? open_log(out) : open("/dev/null", O_WRONLY);
		fe = err ? open_log(err) : fo;
		if (in < 0 || fo < 0 || fe < 0)
			_exit(127);
		dup2(in, 0);
		dup2(fo, 1);
		dup2(fe, 2);
	}
	if (fsize > 0) {
		struct rlimit rl = { (rlim_t)fsize, (rlim_t)fsize };

		setrlimit(RLIMIT_FSIZE, &rl);
		signal(SIGXFSZ, SIG_IGN); /* a write fails; nothing dies */
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* make batch's own make must not hand its flags and jobserver on. */
	unsetenv("MAKEFLAGS");
	unsetenv("MAKELEVEL");
	unsetenv("MFLAGS");
	if (cuda_visible) {
		setenv("CUDA_VISIBLE_DEVICES", cuda_visible, 1);
		setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
	}
	/* An unsandboxed grader's own GPU lock goes where it locks nothing:
	 * the batch holds the real one for it (lock_gpu()), and a grader
	 * waiting on it would wait on its own parent. */
	if (lock_dir)
		setenv("WB_LOCK_DIR", lock_dir, 1);
	/* A bare name is looked up on PATH (--sandbox-exec's command,
	 * run as it is with SANDBOX=off). */
	execvp(a->v[0], a->v);
	dprintf(2, "cannot run %s: %s\n", a->v[0], strerror(errno));
	_exit(127);
}

static pid_t spawn(struct bt_args *a, const char *out, const char *err,
		   long fsize, const char *cuda_visible, const char *lock_dir)
{
	pid_t pid;

	if (a->overflow || a->n == 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(a, out, err, fsize, cuda_visible, lock_dir);
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

/*
 * A command has ended, or must: kill what is left of the process group
 * pid leads, reap pid first when it was not yet (reap), and remove its
 * sandbox's cgroup (under cgroup; NULL: it has none).
 */
static void end_group(pid_t pid, const char *cgroup, int reap)
{
	kill(-pid, SIGKILL);
	if (reap)
		waitpid(pid, NULL, 0);
	bt_box_cleanup(cgroup, pid);
}

/* The exit status as one number: the code, 128 + a signal, 124 killed. */
static int exit_code(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 255;
}

int bt_run(struct bt_args *a, const char *out_path, const char *err_path,
	   double timeout_s, long fsize, const char *cuda_visible, int *status)
{
	double t0 = bt_now();
	pid_t pid = spawn(a, out_path, err_path, fsize, cuda_visible, NULL);
	int st = 0;

	if (pid < 0)
		return -1;
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		struct timespec nap = { 0, 20 * 1000 * 1000 };

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			end_group(pid, a->cgroup, 0);
			return -1;
		}
		if (bt_now() - t0 > timeout_s || stop) {
			end_group(pid, a->cgroup, 1);
			*status = 124;
			return 0;
		}
		nanosleep(&nap, NULL);
	}
	end_group(pid, a->cgroup, 0); /* whatever it left behind in its group */
	*status = exit_code(st);
	return 0;
}

/* ---- one submission's folders and commands -------------------------- */

static void work_dir(const struct bt_conf *c, const struct bt_sub *s,
		     const char *sub, char *out, size_t n)
{
	bt_fmt(out, n, "%s/%s%s%s", c->work, s->id, *sub ? "/" : "", sub);
}

static int start_build(const struct bt_conf *c, struct bt_sub *s)
{
	char scratch[BT_PATH], log[BT_PATH];
	struct bt_box box;
	struct bt_args a;
	pid_t pid;

	work_dir(c, s, "", scratch, sizeof(scratch));
	work_dir(c, s, "build.log", log, sizeof(log));
	bt_conf_box(c, scratch, -1, &box);
	bt_args_init(&a);
	bt_box_argv(&box, &a);
	bt_args_add(&a, c->make);
	bt_args_add(&a, "-C");
	bt_args_add(&a, c->repo);
	bt_args_add(&a, "--no-print-directory");
	for (int i = 0; i < c->nprebuilt; i++) {
		bt_args_add(&a, "-o");
		bt_args_add(&a, c->prebuilt[i]);
	}
	bt_args_add(&a, "runners");
	bt_args_addf(&a, "BUILD=%s", c->build);
	if (c->sm)
		bt_args_addf(&a, "SM=%s", c->sm);
	if (c->cuda[0])
		bt_args_addf(&a, "CUDA_HOME=%s", c->cuda);
	bt_args_addf(&a, "T=%s/build", scratch);
	bt_args_addf(&a, "SRC=%s/src", scratch);
	if (c->lab)
		bt_args_addf(&a, "LAB=%s", c->lab);
	pid = spawn(&a, log, NULL, BT_FSIZE_LIMIT, NULL, NULL);
	bt_args_free(&a);
	if (pid < 0)
		return -1;
	s->pid = pid;
	s->state = S_BUILDING;
	s->t0 = bt_now();
	return 0;
}

static int start_grade(const struct bt_conf *c, struct bt_sub *s, int slot)
{
	char scratch[BT_PATH], out[BT_PATH], err[BT_PATH], lock_dir[BT_PATH];
	const char *gpu = c->build_only ? NULL : c->gpus[slot];
	struct bt_box box;
	struct bt_args a;
	pid_t pid;

	work_dir(c, s, "", scratch, sizeof(scratch));
	work_dir(c, s, "table.txt", out, sizeof(out));
	work_dir(c, s, "grade.log", err, sizeof(err));
	bt_conf_box(c, scratch, c->build_only ? -1 : slot, &box);
	bt_args_init(&a);
	bt_box_argv(&box, &a);
	bt_args_add(&a, c->grader);
	bt_args_add(&a, "--labs");
	bt_args_addf(&a, "%s/labs", c->repo);
	bt_args_add(&a, "--build");
	bt_args_addf(&a, "%s/build", scratch);
	bt_args_add(&a, "--source");
	bt_args_add(&a, s->id);
	bt_args_add(&a, "--json");
	bt_args_addf(&a, "%s/results.json", scratch);
	bt_args_add(&a, "--tsv");
	bt_args_addf(&a, "%s/results.tsv", scratch);
	if (c->build_only) {
		bt_args_add(&a, "--mode");
		bt_args_add(&a, "build-only");
	} else {
		bt_args_add(&a, "--devinfo");
		bt_args_add(&a, c->devinfo);
	}
	if (c->lab) {
		bt_args_add(&a, "--lab");
		bt_args_add(&a, c->lab);
	}
	if (c->seed) {
		bt_args_add(&a, "--seed");
		bt_args_add(&a, c->seed);
	}
	if (c->timeout_cap) {
		bt_args_add(&a, "--timeout-cap");
		bt_args_add(&a, c->timeout_cap);
	}
	if (c->course[0]) {
		bt_args_add(&a, "--course");
		bt_args_add(&a, c->course);
	}
	/* The calibration of the grading GPU's model, if the course has one
	 * (make calibrate; the repository is read-only in the sandbox). */
	bt_args_add(&a, "--calibrations");
	bt_args_addf(&a, "%s/calibrations", c->repo);
	for (int i = 0; i < c->ngrader_args; i++)
		bt_args_add(&a, c->grader_args[i]);
	/* Sandboxed, the box sets WB_LOCK_DIR (sandbox.c); unsandboxed, the
	 * same folder is given here: SANDBOX=off must not deadlock. */
	work_dir(c, s, "tmp", lock_dir, sizeof(lock_dir));
	pid = spawn(&a, out, err, BT_FSIZE_LIMIT, gpu,
		    c->sandboxed ? NULL : lock_dir);
	bt_args_free(&a);
	if (pid < 0)
		return -1;
	s->pid = pid;
	s->slot = slot;
	s->state = S_GRADING;
	s->t0 = bt_now();
	return 0;
}

/* ---- finishing a student ---------------------------------------------- */

/*
 * In this part, files the sandbox wrote are read only where they are
 * regular files inside its scratch folder w (bt_inside_regular()): its
 * code may have left a link in their place, to a file only the batch
 * can read.
 */

/* Copy the last BT_LOG_KEEP bytes of a log in w (if it is there). */
static void keep_log(const char *from, const char *to, const char *w)
{
	char *tail;
	FILE *f;

	if (!bt_inside_regular(from, w))
		return;
	tail = file_tail(from, BT_LOG_KEEP);
	f = tail ? fopen(to, "w") : NULL;
	if (f) {
		fputs(tail, f);
		fclose(f);
	}
	free(tail);
}

/* Each exercise's compiler log and runner output in the scratch
 * folder w, into dest/logs/. */
static void keep_exercise_logs(const struct bt_conf *c, const char *w,
			       const char *dest)
{
	static const char *const kinds[] = { "log", "out" };

	for (int i = 0; i < c->labs.n; i++) {
		const struct bt_exercise *e = &c->labs.ex[i];
		char dir[BT_PATH], from[BT_PATH], to[BT_PATH];

		if (!e->selected)
			continue;
		bt_fmt(dir, sizeof(dir), "%s/logs/%s", dest, e->lab);
		bt_mkdirs(dir);
		for (int k = 0; k < 2; k++) {
			bt_fmt(from, sizeof(from), "%s/build/%s/%s.%s", w,
			       e->lab, e->name, kinds[k]);
			bt_fmt(to, sizeof(to), "%s/%s.%s", dir, e->name, kinds[k]);
			keep_log(from, to, w);
		}
	}
}

static void write_meta(const struct bt_conf *c, const struct bt_sub *s,
		       const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return;
	fprintf(f, "id %s\nsubmission %s\nfingerprint %016llx\n", s->id,
		s->name, s->fp);
	fprintf(f, "sandbox %s\n", c->sandboxed ? "bwrap" : "none");
	if (c->sandboxed)
		fprintf(f, "sandbox_is %s\n", c->box_desc);
	else
		fprintf(f, "sandbox_is UNSANDBOXED: %s\n", c->unsandboxed_why);
	fprintf(f, "mode %s\n", c->build_only ? "build-only" : "grade");
	/* The rules it was graded under (main.c), and when it was handed
	 * in (late.c): the gradebook counts it only under its own rules. */
	fprintf(f, "rules %s\n", c->rules);
	fprintf(f, "submitted_at %lld %s\n", s->submitted,
		s->submitted_from[0] ? s->submitted_from : "-");
	if (!c->build_only)
		fprintf(f, "gpu %s\n", c->gpus[s->slot]);
	fprintf(f, "build_s %.1f\ngrade_s %.1f\n", s->build_s, s->grade_s);
	for (int i = 0; i < c->labs.n; i++)
		if (c->labs.ex[i].selected && !s->from[i][0])
			fprintf(f, "missing %s/%s\n", c->labs.ex[i].lab,
				c->labs.ex[i].name);
	fclose(f);
}

/*
 * The grader names files in the scratch folder w, which is gone by the
 * time anyone reads the report: its logs are in logs/ beside the report,
 * and its src/ is the submission.
 */
static char *local_paths(const char *w, char *text)
{
	char from[BT_PATH];

	if (!text)
		return NULL;
	bt_fmt(from, sizeof(from), "%s/build/", w);
	text = bt_replace(text, from, "logs/");
	bt_fmt(from, sizeof(from), "%s/src", w);
	return text ? bt_replace(text, from, "the submission") : NULL;
}

/* report.txt at path: what was taken, and the grader's table (in w). */
/*
 * With a deadline: when the submission came, how late, and what that
 * costs, as the gradebook counts it (late.c), in words for the student;
 * "" without one. *score: the score after the penalty.
 */
static void late_line(const struct bt_conf *c, const struct bt_sub *s,
		      const struct bt_row *graded, char *out, size_t n,
		      double *score)
{
	struct bt_row r = *graded;
	char when[64];

	out[0] = '\0';
	*score = r.total;
	if (!c->late.deadline)
		return;
	r.submitted = s->submitted;
	bt_apply_late(&c->late, &r);
	*score = r.total * (1 - r.penalty / 100);
	bt_fmt_time(when, sizeof(when), s->submitted);
	if (!s->submitted)
		bt_fmt(out, n, "Submitted: when is not known: no late penalty "
		       "applied\n");
	else if (r.late_s <= 0)
		bt_fmt(out, n, "Submitted %s: on time\n", when);
	else
		bt_fmt(out, n, "Submitted %s, %.1f hours after the deadline%s%s: "
		       "%g%% off, %g of %g points\n", when, r.late_s / 3600,
		       r.late_note[0] ? ", " : "", r.late_note, r.penalty,
		       *score, r.max);
}

static void write_report(const struct bt_conf *c, const struct bt_sub *s,
			 const char *w, const char *table, const char *path,
			 const char *late)
{
	FILE *f = fopen(path, "w");
	char *text = local_paths(w, bt_inside_regular(table, w) ?
				 bt_read(table, 8 << 20) : NULL);
	int skip = 0;

	if (!f) {
		free(text);
		return;
	}
	bt_files_report(f, s, &c->labs);
	if (*late)
		fprintf(f, "%s", late);
	if (!c->sandboxed)
		fprintf(f, "\nWARNING: UNSANDBOXED: graded WITHOUT a sandbox (%s)\n",
			c->unsandboxed_why);
	fputc('\n', f);
	/* The grader's table, less its lines about where its files went
	 * ("results: ..." and the indented lines under it): that scratch
	 * folder is gone; they are beside this report. */
	for (char *l = text, *end; l && *l; l = end) {
		end = strchr(l, '\n');
		end = end ? end + 1 : l + strlen(l);
		if (!strncmp(l, "results: ", 9))
			skip = 1;
		else if (*l != ' ')
			skip = 0;
		if (!skip)
			fwrite(l, 1, end - l, f);
	}
	if (!text)
		fprintf(f, "(the grader printed nothing)\n");
	fclose(f);
	free(text);
}

/* The text put in front of results.json's output: what was taken. */
static char *files_note(const struct bt_conf *c, const struct bt_sub *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	bt_files_report(m, s, &c->labs);
	if (!c->sandboxed)
		fprintf(m, "Graded without a sandbox (UNSANDBOXED).\n");
	fputc('\n', m);
	fclose(m);
	return text;
}

/* The grader's results.json, told what was taken, with local paths
 * (w: the scratch folder it names). */
static void student_json(const struct bt_conf *c, const struct bt_sub *s,
			 const char *w, const char *path)
{
	char *note, *text;

	if (!bt_exists(path))
		return;
	note = files_note(c, s);
	if (note)
		bt_json_add_note(path, note);
	free(note);
	text = local_paths(w, bt_read(path, 64 << 20));
	if (text)
		bt_write_atomic(path, text);
	free(text);
}

/* results.json's top-level "score" (the first one: the grader writes it
 * first) made score: the late penalty, as scores.csv has it. */
static void json_score(const char *path, double score)
{
	char *text = bt_read(path, 64 << 20), *at, *end, num[64], *out;

	at = text ? strstr(text, "\"score\": ") : NULL;
	if (!at) {
		free(text);
		return;
	}
	at += 9;
	strtod(at, &end);
	bt_fmt(num, sizeof(num), "%g", score);
	out = malloc(strlen(text) + sizeof(num));
	if (out) {
		bt_fmt(out, strlen(text) + sizeof(num), "%.*s%s%s",
		       (int)(at - text), text, num, end);
		bt_write_atomic(path, out);
	}
	free(out);
	free(text);
}

/* A student's results folder, whole; 0 when published. */
static int finish(const struct bt_conf *c, struct bt_sub *s)
{
	char w[BT_PATH], tmp[BT_PATH], from[BT_PATH], to[BT_PATH];
	static const char *const copy[] = { "results.json", "results.tsv",
					    "build.log", "grade.log" };
	struct bt_row row;
	char *tsv, late[512];
	double score;
	int rc;

	work_dir(c, s, "", w, sizeof(w));
	bt_fmt(from, sizeof(from), "%s/results.tsv", w);
	tsv = bt_inside_regular(from, w) ? bt_read(from, 4 << 20) : NULL;
	rc = tsv ? bt_read_tsv(tsv, &c->labs, &row) : -1;
	free(tsv);
	if (rc < 0)
		return -1;
	bt_fmt(tmp, sizeof(tmp), "%s/students/.tmp-%s", c->out, s->id);
	bt_rmtree(tmp);
	if (bt_mkdirs(tmp))
		return -1;
	for (size_t i = 0; i < sizeof(copy) / sizeof(copy[0]); i++) {
		bt_fmt(from, sizeof(from), "%s/%s", w, copy[i]);
		bt_fmt(to, sizeof(to), "%s/%s", tmp, copy[i]);
		if (bt_inside_regular(from, w))
			bt_copy_file(from, to, -1);
	}
	bt_fmt(to, sizeof(to), "%s/results.json", tmp);
	student_json(c, s, w, to);
	late_line(c, s, &row, late, sizeof(late), &score);
	if (*late) {
		bt_json_add_note(to, late);
		json_score(to, score);
	}
	if (c->late.leaderboard) {
		bt_fmt(from, sizeof(from), "%s/results.tsv", tmp);
		bt_json_add_leaderboard(to, from);
	}
	bt_fmt(from, sizeof(from), "%s/table.txt", w);
	bt_fmt(to, sizeof(to), "%s/report.txt", tmp);
	write_report(c, s, w, from, to, late);
	keep_exercise_logs(c, w, tmp);
	bt_fmt(to, sizeof(to), "%s/meta", tmp);
	write_meta(c, s, to);
	/* Every file on disk before the rename makes it the result. */
	for (size_t i = 0; i < sizeof(copy) / sizeof(copy[0]); i++) {
		bt_fmt(to, sizeof(to), "%s/%s", tmp, copy[i]);
		bt_fsync_path(to);
	}
	bt_fmt(to, sizeof(to), "%s/report.txt", tmp);
	bt_fsync_path(to);
	bt_fmt(to, sizeof(to), "%s/meta", tmp);
	bt_fsync_path(to);
	bt_fsync_path(tmp);
	bt_fmt(to, sizeof(to), "%s/students", c->out);
	return bt_publish(to, s->id, tmp);
}

/* Keep what there is of a submission whose grading did not finish. */
static void keep_failure(const struct bt_conf *c, struct bt_sub *s,
			 const char *why)
{
	static const char *const copy[] = { "build.log", "grade.log",
					    "table.txt" };
	char w[BT_PATH], dir[BT_PATH], from[BT_PATH], to[BT_PATH];
	FILE *f;

	work_dir(c, s, "", w, sizeof(w));
	bt_fmt(dir, sizeof(dir), "%s/failed/%s", c->out, s->id);
	bt_rmtree(dir);
	bt_mkdirs(dir);
	for (size_t i = 0; i < sizeof(copy) / sizeof(copy[0]); i++) {
		bt_fmt(from, sizeof(from), "%s/%s", w, copy[i]);
		bt_fmt(to, sizeof(to), "%s/%s", dir, copy[i]);
		keep_log(from, to, w);
	}
	bt_fmt(to, sizeof(to), "%s/why", dir);
	f = fopen(to, "w");
	if (f) {
		fprintf(f, "%s\n", why);
		fclose(f);
	}
}

/* ---- progress ---------------------------------------------------------- */

struct progress {
	int total, done, failed;
	double t0;
};

/* One line per finished student, with the time left at the pace so far. */
static void show(const struct progress *p, const struct bt_sub *s,
		 const char *what, int running)
{
	int finished = p->done + p->failed, left = p->total - finished;
	double el = bt_now() - p->t0;
	char eta[32] = "";

	if (finished > 0 && left > 0) {
		bt_fmt_duration(eta, sizeof(eta), el / finished * left);
		fprintf(stderr, "[%*d/%d] %-16s %s  (%d running; about %s left)\n",
			p->total >= 100 ? 3 : 2, finished, p->total, s->id, what,
			running, eta);
	} else {
		bt_fmt_duration(eta, sizeof(eta), el);
		fprintf(stderr, "[%*d/%d] %-16s %s  (%s in all)\n",
			p->total >= 100 ? 3 : 2, finished, p->total, s->id, what,
			eta);
	}
}

/* "150/200: sum PASS argmax WRONG" (no points when building only) */
static void result_line(const struct bt_conf *c, const struct bt_sub *s,
			char *out, size_t n)
{
	char path[BT_PATH];
	struct bt_row row;
	size_t o;

	bt_fmt(path, sizeof(path), "%s/students/%s", c->out, s->id);
	if (bt_read_student(path, &c->labs, &row)) {
		bt_fmt(out, n, "graded");
		return;
	}
	o = c->build_only ? 0 : bt_fmt(out, n, "%g/%g:", row.total, row.max);
	for (int i = 0; i < c->labs.n && o < n; i++)
		if (row.have[i])
			o += bt_fmt(out + o, n - o, "%s%s %s", o ? " " : "",
				    c->labs.ex[i].name, row.cell[i].verdict);
}

/* ---- one grading per GPU, machine-wide --------------------------------- */

/*
 * grader/run/gpustate.c's lock, taken here for the sandboxed grader (whose own
 * lands in its scratch folder): so a make grade by someone else on this
 * machine, or another batch, never times on a GPU while we do. Opened as
 * the grader opens it (a sticky /tmp may refuse to create-open another
 * user's file). -1 when someone else holds it.
 */
static int lock_gpu(const char *path)
{
	int fd = gpu_lock_open(path);

	if (fd < 0)
		return -2; /* no lock to be had: grade anyway */
	if (gpu_lock_try(fd)) {
		close(fd);
		return -1;
	}
	gpu_lock_note_pid(fd);
	return fd;
}

/* ---- the loop ----------------------------------------------------------- */

static int count(const struct bt_sub *s, int n, int state)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += !s[i].skipped && s[i].state == state;
	return k;
}

static void ended(struct bt_conf *c, struct bt_sub *s, int code,
		  struct progress *p, int running)
{
	char why[256], line[512], w[BT_PATH];
	double took = bt_now() - s->t0;

	s->pid = 0;
	if (s->state == S_BUILDING) {
		s->build_s = took;
		if (code == 0) {
			s->state = S_BUILT;
			return;
		}
		if (code == 124)
			bt_fmt(why, sizeof(why), "the build ran past the "
				 "batch's limit (%.0f s)", c->build_timeout);
		else
			bt_fmt(why, sizeof(why), "the build failed (make exit "
				 "status %d; a student's compile error never does "
				 "this): see build.log", code);
	} else {
		s->grade_s = took;
		if (code == 124)
			bt_fmt(why, sizeof(why), "the grader ran past the "
				 "batch's limit (%.0f s)", c->grade_timeout);
		else if (finish(c, s) == 0) {
			s->state = S_DONE;
			p->done++;
			bt_fmt(line, sizeof(line), "%s/failed/%s", c->out, s->id);
			bt_rmtree(line);
			work_dir(c, s, "", w, sizeof(w));
			bt_rmtree(w);
			result_line(c, s, line, sizeof(line));
			show(p, s, line, running);
			return;
		} else {
			bt_fmt(why, sizeof(why), "the grader ended without "
				 "results (exit status %d)", code);
		}
	}
	s->state = S_FAILED;
	p->failed++;
	keep_failure(c, s, why);
	work_dir(c, s, "", w, sizeof(w));
	bt_rmtree(w);
	bt_fmt(line, sizeof(line), "NOT GRADED: %s (failed/%s/)", why, s->id);
	show(p, s, line, running);
}

static void release(int *slot_busy, int *lock_fd, int k)
{
	slot_busy[k] = 0;
	if (lock_fd[k] >= 0)
		close(lock_fd[k]);
	lock_fd[k] = -1;
}

/* A free slot (for a GPU: one whose lock we now hold), or -1. */
static int free_slot(struct bt_conf *c, int *slot_busy, int *lock_fd,
		     int nslots)
{
	static int said[BT_MAX_GPUS];

	for (int k = 0; k < nslots; k++) {
		if (slot_busy[k])
			continue;
		if (c->build_only || !c->gpu_lock[k][0])
			return k;
		lock_fd[k] = lock_gpu(c->gpu_lock[k]);
		if (lock_fd[k] != -1) {
			said[k] = 0;
			return k;
		}
		if (!said[k]++)
			fprintf(stderr, "batch: GPU %s is grading for someone else "
					"(%s): waiting for it\n", c->gpus[k],
				c->gpu_lock[k]);
	}
	return -1;
}

static void start_what_we_can(struct bt_conf *c, struct bt_sub *s, int n,
			      int *slot_busy, int *lock_fd, int nslots)
{
	int building = count(s, n, S_BUILDING), built = count(s, n, S_BUILT);

	for (int i = 0; i < n; i++) {
		int k;

		if (s[i].skipped || s[i].state != S_BUILT)
			continue;
		k = free_slot(c, slot_busy, lock_fd, nslots);
		if (k < 0)
			break;
		slot_busy[k] = 1;
		if (start_grade(c, &s[i], k)) {
			release(slot_busy, lock_fd, k);
			break;
		}
	}
	built = count(s, n, S_BUILT);
	for (int i = 0; i < n && building < c->jobs &&
			building + built < c->jobs + nslots; i++) {
		if (s[i].skipped || s[i].state != S_QUEUED)
			continue;
		if (start_build(c, &s[i]) == 0)
			building++;
	}
}

int bt_sub_done(const struct bt_sub *s)
{
	return s->state == S_DONE;
}

static int running(const struct bt_sub *s, int n)
{
	return count(s, n, S_BUILDING) + count(s, n, S_GRADING);
}

/* Where the sandboxes' cgroups are, if anywhere. */
static const char *cgroup(const struct bt_conf *c)
{
	return c->sandboxed && c->cgroup[0] ? c->cgroup : NULL;
}

/* Stop everything now: kill the groups, forget unfinished work. */
static void abandon(struct bt_conf *c, struct bt_sub *s, int n)
{
	for (int i = 0; i < n; i++) {
		char w[BT_PATH];

		if (s[i].skipped || s[i].state == S_DONE || s[i].state == S_FAILED)
			continue;
		if (s[i].pid > 0)
			end_group(s[i].pid, cgroup(c), 1);
		work_dir(c, &s[i], "", w, sizeof(w));
		bt_rmtree(w);
	}
}

int bt_schedule(struct bt_conf *c, struct bt_sub *s, int n)
{
	int nslots = c->build_only ? c->jobs : c->ngpus;
	int slot_busy[BT_MAX_GPUS + 256] = { 0 };
	int lock_fd[BT_MAX_GPUS + 256];
	struct progress p = { 0 };
	struct sigaction sa;

	if (nslots > (int)(sizeof(slot_busy) / sizeof(slot_busy[0])))
		nslots = sizeof(slot_busy) / sizeof(slot_busy[0]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* Orphans of unsandboxed runs come to us, and are reaped below. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	for (int k = 0; k < (int)(sizeof(lock_fd) / sizeof(lock_fd[0])); k++)
		lock_fd[k] = -1;
	for (int i = 0; i < n; i++)
		p.total += !s[i].skipped;
	p.t0 = bt_now();
	while (!stop) {
		int st;
		pid_t w;

		start_what_we_can(c, s, n, slot_busy, lock_fd, nslots);
		if (running(s, n) == 0 &&
		    count(s, n, S_QUEUED) + count(s, n, S_BUILT) == 0)
			break;
		while ((w = waitpid(-1, &st, WNOHANG)) > 0) {
			for (int i = 0; i < n; i++) {
				if (s[i].pid != w)
					continue;
				end_group(w, cgroup(c), 0); /* its leftovers */
				if (s[i].state == S_GRADING)
					release(slot_busy, lock_fd, s[i].slot);
				ended(c, &s[i], exit_code(st), &p,
				      running(s, n) - 1);
				break;
			}
		}
		for (int i = 0; i < n; i++) {
			double limit = s[i].state == S_BUILDING ? c->build_timeout :
				       c->grade_timeout;

			if (s[i].pid <= 0 || bt_now() - s[i].t0 <= limit)
				continue;
			end_group(s[i].pid, cgroup(c), 1);
			if (s[i].state == S_GRADING)
				release(slot_busy, lock_fd, s[i].slot);
			ended(c, &s[i], 124, &p, running(s, n) - 1);
		}
		{
			struct timespec nap = { 0, 50 * 1000 * 1000 };

			nanosleep(&nap, NULL);
		}
	}
	if (stop) {
		abandon(c, s, n);
		fprintf(stderr, "\nbatch: interrupted: %d of %d graded in this "
				"run; run the same command again to grade the "
				"rest (finished students are not graded again)\n",
			p.done, p.total);
		return 130;
	}
	return p.failed ? 1 : 0;
}
