/* SPDX-License-Identifier: MIT */
/*
 * main.c - batch: grade a folder of submissions into a gradebook.
 *
 *   batch --submissions DIR [--out DIR] [options]      grade (or resume)
 *   batch ... --merge                                  gradebook only
 *   batch ... --slurm-script [--chunk N ...]           Slurm job array
 *   batch ... --exec STUDENT -- CMD [ARGS]             CMD in its sandbox
 *   batch --sandbox-exec --scratch DIR ... -- CMD       CMD in a sandbox
 *   batch --take-json FROM TO                          a results.json out
 *
 * --sandbox-exec runs one command in the sandbox every grading runs in,
 * writable folder DIR: the Gradescope autograder builds and grades in it,
 * and the tests run hostile programs in it (the test hook). --take-json
 * copies a results.json that sandboxed code wrote to where only the
 * outside may write, checked (bt_take_json()).
 *
 * Run it through make (make batch, make slurm-script): make builds the
 * grader, the labs' own objects and the harness first, once, outside any
 * sandbox, and passes where they are. docs/batch-grading.md says it all
 * from the instructor's side.
 *
 * Exit status: 0 every submission graded, 1 some could not be (see
 * failed/), 2 nothing was graded (bad arguments, no GPU, no sandbox and
 * not --sandbox off), 130 interrupted (run it again to resume).
 */
#include "batch.h"
#include "../../grader/gpulock.h"
#include "../../grader/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static int usage(void)
{
	fprintf(stderr,
"usage: batch --submissions DIR [--out DIR] [--lab LAB] [--build-only]\n"
"             [--jobs N] [--gpus 0,1,...] [--seed N] [--timeout-cap S]\n"
"             [--course FILE] [--grader-arg ARG]... [--sandbox require|off]\n"
"             [--sandbox-user NAME] [--nproc N] [--mem SIZE] [--cgroup DIR]\n"
"             [--repo DIR] [--build DIR] [--objs DIR] [--sm LIST] [--cuda DIR]\n"
"             [--grader PATH] [--devinfo PATH]\n"
"             [--build-timeout S] [--grade-timeout S]\n"
"             [--regrade all|ID,...] [--ids ids.csv] [--times times.csv]\n"
"             [--manifest FILE --chunk N --task K]   one Slurm array task\n"
"       batch ... --merge                           rebuild the gradebook\n"
"       batch ... --slurm-script [--chunk N] [--partition P] [--time T]\n"
"                 [--cpus N] [--slurm-arg '#SBATCH option']...\n"
"                 [--gpu-type T | --constraint C] [--slurm-mem M] [--exclusive]\n"
"                 [--merge-partition P] [--slurm-prologue 'module load cuda']\n"
"       batch ... --exec STUDENT -- COMMAND [ARGS]  run in STUDENT's sandbox\n"
"       batch --sandbox-exec --scratch DIR [--gpus G] [--build-only] [options]\n"
"             -- COMMAND [ARGS]   run in a sandbox whose writable folder is DIR\n"
"             (test hooks: --dev-dir DIR --nvidia-proc DIR, a fake GPU layout)\n"
"       batch --take-json FROM TO     copy a sandbox's results.json out, checked\n"
"       batch --leaderboard JSON TSV  add Gradescope's leaderboard to JSON\n"
"Run it through make batch / make slurm-script: docs/batch-grading.md.\n");
	return 2;
}

/* "16G", "512M", "64K" or bytes; -1 if it is none of these. */
static long long parse_size(const char *v)
{
	char *end;
	long long n = strtoll(v, &end, 10);

	if (end == v || n < 0)
		return -1;
	switch (*end) {
	case 'G': case 'g':
		n <<= 10;
		/* fall through */
	case 'M': case 'm':
		n <<= 10;
		/* fall through */
	case 'K': case 'k':
		n <<= 10;
		end++;
		break;
	}
	return *end ? -1 : n;
}

static int parse_sandbox(struct bt_conf *c, const char *a, const char *v)
{
	if (!strcmp(a, "--sandbox")) {
		/* auto was the old default, which fell back to no sandbox:
		 * now it means require, like everything but off. */
		if (!strcmp(v, "auto") || !strcmp(v, "require"))
			c->sandbox = BT_SB_REQUIRE;
		else if (!strcmp(v, "off"))
			c->sandbox = BT_SB_OFF;
		else
			return -1;
	} else if (!strcmp(a, "--sandbox-user")) {
		c->sandbox_user = *v ? v : NULL;
	} else if (!strcmp(a, "--nproc")) {
		c->nproc_opt = *v ? v : NULL;
		c->nproc = *v ? atol(v) : 0;
		if (*v && c->nproc <= 0)
			return -1;
	} else if (!strcmp(a, "--mem")) {
		c->mem_opt = *v ? v : NULL;
		c->mem = *v ? parse_size(v) : 0;
		if (c->mem < 0)
			return -1;
	} else if (!strcmp(a, "--cgroup")) {
		if (*v && *v != '/')
			return -1; /* an absolute path: Slurm's nodes too */
		bt_fmt(c->cgroup, sizeof(c->cgroup), "%s", v);
	} else if (!strcmp(a, "--dev-dir")) {
		c->devdir = v;
	} else if (!strcmp(a, "--nvidia-proc")) {
		c->nvproc = v;
	} else {
		return 1;
	}
	return 0;
}

static int parse(int argc, char **argv, struct cli *k)
{
	struct bt_conf *c = &k->c;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int flag = 1;

		if (!strcmp(a, "--build-only"))
			c->build_only = 1;
		else if (!strcmp(a, "--merge"))
			k->merge = 1;
		else if (!strcmp(a, "--slurm-script"))
			k->slurm = 1;
		else if (!strcmp(a, "--sandbox-exec"))
			k->sandbox_exec = 1;
		else if (!strcmp(a, "--exclusive"))
			c->exclusive = 1;
		else if (!strcmp(a, "--")) {
			k->exec_argv = argv + i + 1;
			break;
		} else
			flag = 0;
		if (flag)
			continue;
		if (!v)
			return -1;
		i++;
		flag = parse_sandbox(c, a, v);
		if (flag < 0)
			return -1;
		if (!flag)
			continue;
		if (!strcmp(a, "--submissions"))
			k->subs = v;
		else if (!strcmp(a, "--out"))
			k->out = v;
		else if (!strcmp(a, "--repo"))
			k->repo = v;
		else if (!strcmp(a, "--build"))
			k->build = v;
		else if (!strcmp(a, "--objs"))
			k->objs = v;
		else if (!strcmp(a, "--grader"))
			k->grader = v;
		else if (!strcmp(a, "--devinfo"))
			k->devinfo = v;
		else if (!strcmp(a, "--cuda"))
			k->cuda = v;
		else if (!strcmp(a, "--course"))
			k->course = *v ? v : NULL;
		else if (!strcmp(a, "--sm"))
			c->sm = *v ? v : NULL;
		else if (!strcmp(a, "--lab"))
			c->lab = *v ? v : NULL;
		else if (!strcmp(a, "--seed"))
			c->seed = *v ? v : NULL;
		else if (!strcmp(a, "--timeout-cap"))
			c->timeout_cap = *v ? v : NULL;
		else if (!strcmp(a, "--jobs"))
			c->jobs = atoi(v);
		else if (!strcmp(a, "--gpus"))
			bt_fmt(k->gpus_buf, sizeof(k->gpus_buf), "%s", v);
		else if (!strcmp(a, "--build-timeout"))
			c->build_timeout = atof(v);
		else if (!strcmp(a, "--grade-timeout"))
			c->grade_timeout = atof(v);
		else if (!strcmp(a, "--manifest"))
			k->manifest = v;
		else if (!strcmp(a, "--regrade"))
			c->regrade = *v ? v : NULL;
		else if (!strcmp(a, "--ids"))
			c->ids = *v ? v : NULL;
		else if (!strcmp(a, "--times"))
			c->times = *v ? v : NULL;
		else if (!strcmp(a, "--chunk"))
			c->chunk = atoi(v);
		else if (!strcmp(a, "--task")) {
			c->task = atoi(v);
			k->task_given = 1;
		} else if (!strcmp(a, "--partition"))
			c->partition = v;
		else if (!strcmp(a, "--time"))
			c->time_limit = v;
		else if (!strcmp(a, "--cpus"))
			c->cpus = v;
		else if (!strcmp(a, "--gpu-type"))
			c->gpu_type = *v ? v : NULL;
		else if (!strcmp(a, "--constraint"))
			c->constraint = *v ? v : NULL;
		else if (!strcmp(a, "--slurm-mem"))
			c->slurm_mem = *v ? v : NULL;
		else if (!strcmp(a, "--merge-partition"))
			c->merge_partition = *v ? v : NULL;
		else if (!strcmp(a, "--slurm-prologue"))
			c->prologue = *v ? v : NULL;
		else if (!strcmp(a, "--exec"))
			k->exec_id = v;
		else if (!strcmp(a, "--scratch"))
			k->scratch = v;
		else if (!strcmp(a, "--grader-arg") && c->ngrader_args < BT_MAX_EXTRA)
			c->grader_args[c->ngrader_args++] = v;
		else if (!strcmp(a, "--slurm-arg") && c->nslurm_args < BT_MAX_EXTRA)
			c->slurm_args[c->nslurm_args++] = v;
		else
			return -1;
	}
	if (k->sandbox_exec)
		return k->scratch && k->exec_argv && *k->exec_argv ? 0 : -1;
	if (!k->subs || (k->exec_id && !k->exec_argv) || c->chunk < 0 ||
	    c->jobs < 0 || (k->task_given && (!k->manifest || c->task < 0)))
		return -1;
	return 0;
}

/* ---- settings and resume ------------------------------------------------ */

/* One file's bytes into the fingerprint h (its name first: a file that
 * appears or goes changes it too); nothing more when it cannot be read. */
static unsigned long long fp_file(unsigned long long h, const char *path,
				  const char *name)
{
	FILE *f = fopen(path, "rb");
	char buf[65536];
	size_t k;

	h = bt_fnv(h, name, strlen(name) + 1);
	while (f && (k = fread(buf, 1, sizeof(buf), f)) > 0)
		h = bt_fnv(h, buf, k);
	if (f)
		fclose(f);
	return h;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order, into h; of a lab (lab not
 * NULL), not its exercise files (the skeletons) nor its prose (.md). */
static unsigned long long fp_dir(unsigned long long h, const char *dir,
				 const struct bt_conf *c, const char *lab)
{
	struct dirent **list;
	int m = scandir(dir, &list, NULL, alphasort);

	for (int i = 0; i < m; i++) {
		const char *name = list[i]->d_name;
		char path[BT_PATH], exname[BT_NAME_LEN + 4];
		int skip = name[0] == '.';
		size_t len = strlen(name);
		struct stat st;

		/* A lab's own exercise files are the skeletons, never graded;
		 * its README is prose. */
		skip |= len > 3 && !strcmp(name + len - 3, ".md");
		for (int e = 0; lab && !skip && e < c->labs.n; e++) {
			bt_fmt(exname, sizeof(exname), "%s.cu", c->labs.ex[e].name);
			skip = !strcmp(c->labs.ex[e].lab, lab) &&
			       !strcmp(exname, name);
		}
		bt_fmt(path, sizeof(path), "%s/%s", dir, name);
		if (!skip && !stat(path, &st) && S_ISREG(st.st_mode))
			h = fp_file(h, path, name);
		free(list[i]);
	}
	if (m >= 0)
		free(list);
	return h;
}

/*
 * The rules a grade is made under: the grader (its program), each graded
 * lab's own files (lab.c's tables, lab.mk, the naive references,
 * headers), the calibrations and the course file. A change to any of
 * them is another set of rules: grades made under the old ones are
 * never mixed with new ones (check_settings(), done_before()).
 */
static void rules_fingerprint(struct bt_conf *c)
{
	unsigned long long h = BT_FNV_INIT;
	char dir[BT_PATH], *labs[BT_MAX_EX];
	int nl = 0;

	h = fp_file(h, c->grader, "grader");
	for (int i = 0; i < c->labs.n; i++) {
		int seen = 0;

		if (!c->labs.ex[i].selected)
			continue;
		for (int j = 0; j < nl; j++)
			seen |= !strcmp(labs[j], c->labs.ex[i].lab);
		if (!seen)
			labs[nl++] = c->labs.ex[i].lab;
	}
	qsort(labs, nl, sizeof(labs[0]), cmp_str);
	for (int i = 0; i < nl; i++) {
		bt_fmt(dir, sizeof(dir), "%s/labs/%s", c->repo, labs[i]);
		h = bt_fnv(h, labs[i], strlen(labs[i]) + 1);
		h = fp_dir(h, dir, c, labs[i]);
	}
	bt_fmt(dir, sizeof(dir), "%s/calibrations", c->repo);
	h = fp_dir(h, dir, c, NULL);
	if (c->course[0])
		h = fp_file(h, c->course, "course");
	bt_fmt(c->rules, sizeof(c->rules), "%016llx", h);
}

static void settings_text(const struct bt_conf *c, char *out, size_t n,
			  int with_rules)
{
	size_t o;

	o = bt_fmt(out, n,
		     "# The settings this folder's grades were made with; a later "
		     "run must match.\n"
		     "mode %s\nlab %s\nsm %s\nseed %s\ntimeout_cap %s\n"
		     "course %s\n",
		     c->build_only ? "build-only" : "grade", c->lab ? c->lab : "all",
		     c->sm ? c->sm : "-", c->seed ? c->seed : "random",
		     c->timeout_cap ? c->timeout_cap : "-",
		     c->course[0] ? c->course : "-");
	for (int i = 0; i < c->ngrader_args && o < n; i++)
		o += bt_fmt(out + o, n - o, "grader_arg %s\n", c->grader_args[i]);
	if (with_rules && o < n)
		bt_fmt(out + o, n - o, "rules %s (the grader, the labs' files, the "
		       "calibrations, the course file)\n", c->rules);
}

/* The "rules" line's fingerprint in a batch.conf text, or "". */
static void rules_of(const char *text, char *out, size_t n)
{
	const char *r = text ? strstr(text, "\nrules ") : NULL;

	bt_fmt(out, n, "%.*s", r ? (int)strcspn(r + 7, " \n") : 0, r ? r + 7 : "");
}

static int regrade_all(const struct bt_conf *c)
{
	return c->regrade && !strcmp(c->regrade, "all");
}

static int check_settings(const struct bt_conf *c)
{
	char path[BT_PATH], want[8192], want_core[8192], *have;
	char have_rules[32];
	size_t core;

	settings_text(c, want, sizeof(want), 1);
	settings_text(c, want_core, sizeof(want_core), 0);
	core = strlen(want_core);
	bt_fmt(path, sizeof(path), "%s/batch.conf", c->out);
	have = bt_read(path, sizeof(want));
	if (!have)
		return bt_write_atomic(path, want);
	rules_of(have, have_rules, sizeof(have_rules));
	if (strncmp(have, want_core, core) ||
	    (have[core] && strncmp(have + core, "rules ", 6))) {
		fprintf(stderr, "batch: %s holds grades made with other settings:\n"
				"  then: %s\n  now:  %s\n"
				"Grade into another folder (OUT=...), or remove "
				"this one to start over.\n", c->out, have, want);
		free(have);
		return -1;
	}
	free(have);
	if (!strcmp(have_rules, c->rules))
		return 0;
	if (!regrade_all(c)) {
		fprintf(stderr, "batch: the rules changed since %s was graded: "
				"the grader, a graded lab's files (lab.c's tables, "
				"lab.mk, the naive references), the calibrations or "
				"the course file are not the same (fingerprint %s "
				"then, %s now). One gradebook never mixes two sets "
				"of rules: REGRADE=all grades every student again "
				"under the new ones (into this folder; a student "
				"graded under the old ones counts as not graded "
				"until then), or grade into another OUT=.\n",
			c->out, have_rules[0] ? have_rules : "none", c->rules);
		return -1;
	}
	fprintf(stderr, "batch: REGRADE=all: every student is graded again "
			"under the rules %s (were %s)\n", c->rules,
		have_rules[0] ? have_rules : "not recorded");
	return bt_write_atomic(path, want);
}

/* --merge takes the mode, the lab and the rules from the grades' own
 * batch.conf. */
static void merge_settings(struct bt_conf *c)
{
	static char lab[BT_NAME_LEN];
	char path[BT_PATH], *text, *l, *save = NULL;

	bt_fmt(path, sizeof(path), "%s/batch.conf", c->out);
	text = bt_read(path, 8192);
	for (l = text ? strtok_r(text, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		if (!strcmp(l, "mode build-only"))
			c->build_only = 1;
		else if (!strncmp(l, "rules ", 6))
			bt_fmt(c->rules, sizeof(c->rules), "%.*s",
			       (int)strcspn(l + 6, " "), l + 6);
		else if (!strncmp(l, "lab ", 4) && strcmp(l + 4, "all") && !c->lab) {
			bt_fmt(lab, sizeof(lab), "%s", l + 4);
			c->lab = lab;
		}
	}
	free(text);
}

/*
 * A course file may name the labs and exercises it grades (grader/
 * course.h). The grader reads it, from lab.mk alone (--check-course
 * exercises), so that the batch builds, takes, grades and lists only
 * those; LAB= narrows them further. Into pairs: "lab/exercise" lines;
 * c->lab becomes the list of their labs. 0, or -1 said.
 */
static int course_selection(struct cli *k, char *pairs, size_t n)
{
	static char labs[1024];
	struct bt_conf *c = &k->c;
	char grader[BT_PATH], q[4][2 * BT_PATH], cmd[9 * BT_PATH], line[256];
	size_t used = 0, lused = 0;
	FILE *p;
	int rc;

	bt_fmt(grader, sizeof(grader), "%s/host/grader/grader", c->build);
	bt_shell_quote(c->grader[0] ? c->grader : k->grader ? k->grader : grader,
		       q[0], sizeof(q[0]));
	bt_fmt(grader, sizeof(grader), "%s/labs", c->repo);
	bt_shell_quote(grader, q[1], sizeof(q[1]));
	bt_shell_quote(c->course, q[2], sizeof(q[2]));
	bt_shell_quote(c->lab ? c->lab : "", q[3], sizeof(q[3]));
	bt_fmt(cmd, sizeof(cmd), "%s --labs %s --build %s --course %s "
	       "--check-course exercises --lab %s", q[0], q[1], q[1], q[2], q[3]);
	pairs[0] = labs[0] = '\0';
	p = popen(cmd, "r");
	if (!p) {
		fprintf(stderr, "batch: cannot run the grader to read %s\n",
			c->course);
		return -1;
	}
	while (fgets(line, sizeof(line), p)) {
		char *slash = strchr(line, '/');
		size_t len = slash ? (size_t)(slash - line) : 0;

		if (used + strlen(line) + 1 < n)
			used += bt_fmt(pairs + used, n - used, "%s", line);
		/* A lab once: its exercises come one after another. */
		if (slash && (lused < len || strncmp(labs + lused - len, line, len)) &&
		    lused + len + 2 < sizeof(labs))
			lused += bt_fmt(labs + lused, sizeof(labs) - lused,
					"%s%.*s", lused ? " " : "", (int)len, line);
	}
	rc = pclose(p);
	if (rc != 0 || !used) {
		fprintf(stderr, "batch: %s: the course file is not valid, or "
				"grades nothing here (the grader's message is "
				"above)\n", c->course);
		return -1;
	}
	c->lab = labs;
	return 0;
}

/* What a crash may have left of this student: tidy it (bt_recover). */
static void recover(const struct bt_conf *c, const struct bt_sub *s)
{
	char dir[BT_PATH], w[BT_PATH];

	bt_fmt(dir, sizeof(dir), "%s/students", c->out);
	bt_fmt(w, sizeof(w), "%s/%s", c->work, s->id);
	bt_recover(dir, s->id);
	bt_rmtree(w);
}

/* Named in REGRADE= (a comma-separated list of ids, or all)? */
static int regrade_named(const struct bt_conf *c, const struct bt_sub *s)
{
	const char *p = c->regrade;
	size_t len = strlen(s->id);

	if (!p)
		return 0;
	if (!strcmp(p, "all"))
		return 0; /* the rules decide: done_before() */
	while (*p) {
		size_t k = strcspn(p, ", ");

		if (k == len && !strncmp(p, s->id, len))
			return 1;
		p += k;
		p += strspn(p, ", ");
	}
	return 0;
}

/* Graded before, from the same files, under the same rules, and not
 * named in REGRADE=? */
static int done_before(const struct bt_conf *c, const struct bt_sub *s)
{
	char path[BT_PATH], want[64], rules[64], *meta;
	int same;

	if (regrade_named(c, s))
		return 0;
	bt_fmt(path, sizeof(path), "%s/students/%s/meta", c->out, s->id);
	meta = bt_read(path, 1 << 16);
	if (!meta)
		return 0;
	bt_fmt(want, sizeof(want), "\nfingerprint %016llx\n", s->fp);
	bt_fmt(rules, sizeof(rules), "\nrules %s\n", c->rules);
	same = strstr(meta, want) != NULL && strstr(meta, rules) != NULL;
	free(meta);
	bt_fmt(path, sizeof(path), "%s/students/%s/results.tsv", c->out, s->id);
	return same && bt_exists(path);
}

/* IDS=, TIMES=: an absolute path (Slurm's nodes read them too). */
static int abs_path(const char *what, const char **p, char *buf)
{
	if (!*p)
		return 0;
	if (bt_realpath(*p, buf, BT_PATH)) {
		fprintf(stderr, "batch: %s=%s: no such file\n", what, *p);
		return -1;
	}
	*p = buf;
	return 0;
}

/* ---- which submissions ------------------------------------------------ */

/* The manifest's entries, in its order, and then chunk number task. */
static int select_subs(struct cli *k, struct bt_sub **subs, int *n)
{
	struct bt_conf *c = &k->c;
	char **names = NULL;
	struct bt_sub *all = *subs, *sel;
	int m, kept = 0;

	if (!c->manifest[0])
		return 0;
	m = bt_read_manifest(c->manifest, &names);
	if (m < 0) {
		fprintf(stderr, "batch: cannot read %s\n", c->manifest);
		return -1;
	}
	sel = calloc(m ? m : 1, sizeof(*sel));
	for (int i = 0; sel && i < m; i++) {
		int j;

		for (j = 0; j < *n && strcmp(all[j].name, names[i]); j++)
			;
		if (j == *n)
			fprintf(stderr, "batch: %s (in the manifest) is gone from "
					"%s\n", names[i], c->subs);
		else
			sel[kept++] = all[j];
		free(names[i]);
	}
	free(names);
	free(all);
	*subs = sel;
	*n = kept;
	if (k->task_given) {
		int from = c->task * c->chunk, to = from + c->chunk;

		if (from >= kept)
			from = to = kept;
		if (to > kept)
			to = kept;
		memmove(sel, sel + from, (to - from) * sizeof(*sel));
		*n = to - from;
	}
	return sel ? 0 : -1;
}

/*
 * One batch at a time grades into an output folder (Slurm tasks aside:
 * each writes only its own students). The lock goes with the process;
 * batch.pid says who holds it, for people and for tests that interrupt.
 */
static int lock_out(const struct bt_conf *c)
{
	char path[BT_PATH], pid[32];
	int fd;

	bt_fmt(path, sizeof(path), "%s/.lock", c->out);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
		char *who;

		bt_fmt(path, sizeof(path), "%s/batch.pid", c->out);
		who = bt_read(path, 32);
		fprintf(stderr, "batch: another batch (pid %s) is grading into "
				"%s\n", who ? strtok(who, "\n") : "?", c->out);
		free(who);
		return -1;
	}
	bt_fmt(path, sizeof(path), "%s/batch.pid", c->out);
	bt_fmt(pid, sizeof(pid), "%ld\n", (long)getpid());
	return bt_write_atomic(path, pid);
}

/* ---- the modes ---------------------------------------------------------- */

/*
 * --exec and --sandbox-exec: one command in the sandbox whose writable
 * folder is scratch, on the first GPU (none with --build-only), with
 * this process's input and output; its exit status, 124 past
 * --grade-timeout.
 */
static int exec_boxed(struct cli *k, const char *scratch)
{
	struct bt_conf *c = &k->c;
	int g = -1, status = 2;
	struct bt_args a;
	struct bt_box b;

	if (!c->build_only && !setup_gpus(k))
		fprintf(stderr, "batch: no GPU found (nvidia-smi): the command "
				"runs without one\n");
	if (setup_sandbox(c, 1))
		return 2;
	if (!c->build_only && c->ngpus) {
		setup_gpu_info(k);
		g = 0;
	}
	bt_args_init(&a);
	if (c->sandboxed) {
		bt_conf_box(c, scratch, g, &b);
		bt_box_argv(&b, &a);
	} else if (bt_mkdirs(scratch)) {
		return 2;
	}
	for (char **p = k->exec_argv; *p; p++)
		bt_args_add(&a, *p);
	if (bt_run(&a, BT_STDIO, NULL, c->grade_timeout, -1,
		   g >= 0 ? c->gpus[g] : NULL, &status)) {
		fprintf(stderr, "batch: cannot run %s\n", a.n ? a.v[0] : "?");
		status = 2;
	}
	bt_args_free(&a);
	return status;
}

/* --take-json FROM TO */
static int take_json(const char *from, const char *to)
{
	char why[512];

	if (!bt_take_json(from, to, 16 << 20, why, sizeof(why)))
		return 0;
	fprintf(stderr, "batch: %s: %s\n", from, why);
	return 1;
}

static int collect_all(struct bt_conf *c, struct bt_sub *s, int n)
{
	int skipped = 0;

	for (int i = 0; i < n; i++) {
		char w[BT_PATH], dest[BT_PATH], stage[BT_PATH];
		struct bt_box b;

		recover(c, &s[i]);
		bt_fmt(w, sizeof(w), "%s/%s", c->work, s[i].id);
		bt_fmt(dest, sizeof(dest), "%s/src", w);
		bt_fmt(stage, sizeof(stage), "%s/stage", w);
		if (bt_conf_box(c, w, -1, &b)) /* makes w and w/tmp */
			return -1;
		bt_collect(&s[i], &c->labs, dest, stage, &b);
		if (done_before(c, &s[i])) {
			s[i].skipped = 1;
			skipped++;
			bt_rmtree(w);
		}
	}
	return skipped;
}

static int grade(struct cli *k, struct bt_sub *subs, int n)
{
	struct bt_conf *c = &k->c;
	char fmt[64];
	int skipped, rc;
	double t0 = bt_now();

	if (!c->build_only && setup_gpus(k) == 0) {
		fprintf(stderr, "batch: no GPU found (nvidia-smi): grading "
				"needs one; BUILD_ONLY=1 builds and checks "
				"without running anything\n");
		return 2;
	}
	/* Sandboxes at once: the builds, and a grading on each slot. */
	if (setup_sandbox(c, c->jobs + (c->build_only ? c->jobs : c->ngpus)))
		return 2;
	if (!c->build_only) {
		setup_gpu_info(k);
		if (setup_check_gpus(c))
			return 2;
	}
	skipped = collect_all(c, subs, n);
	if (skipped < 0)
		return 2;
	fprintf(stderr, "batch: %d submission%s; %d graded before (not graded "
			"again), %d to %s\n", n, n == 1 ? "" : "s", skipped,
		n - skipped, c->build_only ? "build and check" : "grade");
	if (c->build_only)
		fprintf(stderr, "       %d at a time; no GPU code is run\n", c->jobs);
	else
		fprintf(stderr, "       on %d GPU%s (one grading on each at a time), "
				"%d build%s at a time\n", c->ngpus,
			c->ngpus == 1 ? "" : "s", c->jobs, c->jobs == 1 ? "" : "s");
	rc = bt_schedule(c, subs, n);
	bt_fmt_duration(fmt, sizeof(fmt), bt_now() - t0);
	if (k->task_given) {
		int done = 0;

		for (int i = 0; i < n; i++)
			done += subs[i].skipped || bt_sub_done(&subs[i]);
		fprintf(stderr, "batch: task %d: %d of %d graded in %s%s\n",
			c->task, done, n, fmt, c->sandboxed ? "" :
			" (UNSANDBOXED: WITHOUT a sandbox)");
		return rc;
	}
	if (rc != 130)
		fprintf(stderr, "batch: done in %s\n", fmt);
	return rc;
}

/* Grade (or one Slurm task's share), then the gradebook. */
static int grade_and_merge(struct cli *k, struct bt_sub *subs, int n)
{
	struct bt_conf *c = &k->c;
	char pid[BT_PATH];
	int rc;

	if (k->task_given)
		return grade(k, subs, n);
	if (lock_out(c))
		return 2;
	rc = grade(k, subs, n);
	if (rc != 2 && bt_merge(c, subs, n, 0) && rc == 0)
		rc = 1;
	bt_fmt(pid, sizeof(pid), "%s/batch.pid", c->out);
	remove(pid);
	return rc;
}

static int run(struct cli *k, struct bt_sub *subs, int n, const char *argv0)
{
	struct bt_conf *c = &k->c;
	char self[BT_PATH];
	int rc;

	if (k->slurm) {
		if (bt_realpath(argv0, self, sizeof(self)) &&
		    bt_which(argv0, self, sizeof(self)))
			return 2;
		return bt_slurm_script(c, subs, n, self) ? 2 : 0;
	}
	if (k->merge) {
		rc = bt_merge(c, subs, n, 0);
		return rc < 0 ? 2 : rc;
	}
	if (k->exec_id) {
		char scratch[BT_PATH];

		bt_fmt(scratch, sizeof(scratch), "%s/%s", c->work, k->exec_id);
		return exec_boxed(k, scratch);
	}
	return grade_and_merge(k, subs, n);
}

int main(int argc, char **argv)
{
	static struct cli k;
	static char pairs[8192], ids[BT_PATH], times[BT_PATH];
	struct bt_conf *c = &k.c;
	char labs[BT_PATH];
	struct bt_sub *subs;
	int n, rc;

	/* The steps of a sandbox's command line (sandbox.c), and taking a
	 * results.json out of one: before anything else. */
	if (argc > 1 && !strcmp(argv[1], "--box-enter"))
		return bt_box_enter(argv + 2);
	if (argc > 1 && !strcmp(argv[1], "--box-init"))
		return bt_box_init(argv + 2);
	if (argc > 1 && !strcmp(argv[1], "--take-json"))
		return argc == 4 ? take_json(argv[2], argv[3]) : usage();
	/* Gradescope's leaderboard into a results.json taken out (the
	 * bundle's run_autograder, for a course that asks for one). */
	if (argc > 1 && !strcmp(argv[1], "--leaderboard"))
		return argc == 4 ? !!bt_json_add_leaderboard(argv[2], argv[3]) :
				   usage();
	c->task = -1;
	if (parse(argc, argv, &k))
		return usage();
	if (setup_paths(&k))
		return 2;
	if (k.merge)
		merge_settings(c);
	else if (setup_tools(&k))
		return 2;
	if (k.sandbox_exec)
		return exec_boxed(&k, k.scratch_abs);
	if (c->course[0] && !k.sandbox_exec &&
	    course_selection(&k, pairs, sizeof(pairs)))
		return 2;
	bt_fmt(labs, sizeof(labs), "%s/labs", c->repo);
	if (bt_read_labs(labs, c->lab, &c->labs) ||
	    (c->course[0] && bt_select_exercises(&c->labs, pairs))) {
		fprintf(stderr, "batch: no lab%s%s in %s\n", c->lab ? " named " : "s",
			c->lab ? c->lab : "", labs);
		return 2;
	}
	if (!k.merge)
		rules_fingerprint(c);
	if (bt_read_late(c->course[0] ? c->course : NULL, &c->late) ||
	    abs_path("IDS", &c->ids, ids) || abs_path("TIMES", &c->times, times))
		return 2;
	if (k.slurm && c->regrade && !regrade_all(c)) {
		fprintf(stderr, "batch: REGRADE=%s is for make batch (a student "
				"or two need no cluster); make slurm-script takes "
				"REGRADE=all\n", c->regrade);
		return 2;
	}
	if (!k.exec_id && !k.merge && check_settings(c))
		return 2;
	n = bt_list_subs_ids(c->subs, c->ids, &subs);
	if (n < 0) {
		fprintf(stderr, "batch: the submissions in %s could not be "
				"listed (above: why)\n", c->subs);
		return 2;
	}
	if (bt_submission_times(c->times, subs, n) ||
	    select_subs(&k, &subs, &n))
		return 2;
	rc = run(&k, subs, n, argv[0]);
	bt_free_subs(subs, n);
	return rc;
}
