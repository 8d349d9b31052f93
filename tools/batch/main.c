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

struct cli {
	struct bt_conf c;
	const char *repo, *build, *objs, *grader, *devinfo, *cuda, *subs;
	const char *out, *course, *manifest, *exec_id, *scratch;
	char scratch_abs[BT_PATH];
	char **exec_argv;
	int merge, slurm, task_given, sandbox_exec;
	char gpus_buf[1024];
	char *smi; /* nvidia-smi's "index, uuid" lines (smi_uuids()) */
};

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
"             [--manifest FILE --chunk N --task K]   one Slurm array task\n"
"       batch ... --merge                           rebuild the gradebook\n"
"       batch ... --slurm-script [--chunk N] [--partition P] [--time T]\n"
"                 [--cpus N] [--slurm-arg '#SBATCH option']...\n"
"       batch ... --exec STUDENT -- COMMAND [ARGS]  run in STUDENT's sandbox\n"
"       batch --sandbox-exec --scratch DIR [--gpus G] [--build-only] [options]\n"
"             -- COMMAND [ARGS]   run in a sandbox whose writable folder is DIR\n"
"             (test hooks: --dev-dir DIR --nvidia-proc DIR, a fake GPU layout)\n"
"       batch --take-json FROM TO     copy a sandbox's results.json out, checked\n"
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

/* ---- setting up --------------------------------------------------------- */

static int need_path(const char *what, const char *path, char *out, size_t n)
{
	if (bt_realpath(path, out, n)) {
		fprintf(stderr, "batch: %s %s: %s\n", what, path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Every .o under dir (the lab objects and the harness). */
static void find_prebuilt(struct bt_conf *c, const char *dir)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		size_t len = strlen(name);
		char path[BT_PATH];
		char **grown;

		bt_fmt(path, sizeof(path), "%s/%s", dir, name);
		if (name[0] != '.' && bt_is_dir(path)) {
			find_prebuilt(c, path);
		} else if (len > 2 && !strcmp(name + len - 2, ".o") &&
			   (grown = realloc(c->prebuilt, (c->nprebuilt + 1) *
							 sizeof(char *)))) {
			c->prebuilt = grown;
			c->prebuilt[c->nprebuilt++] = strdup(path);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
}

/*
 * Where make put what every submission links: <build>/sm<80-90> for
 * SM="80 90"; without --sm, the one sm* folder the build has. Without
 * --sm, SM is read back from that folder's name, so the submissions'
 * builds match it.
 */
static int find_objs(struct cli *k)
{
	static char sm_words[64];
	struct bt_conf *c = &k->c;
	char tmp[BT_PATH], sm[64];
	struct dirent *e;
	int found = 0;
	DIR *d;

	if (k->objs) {
		bt_fmt(c->objs, sizeof(c->objs), "%s", k->objs);
	} else if (c->sm) {
		bt_fmt(sm, sizeof(sm), "%s", c->sm);
		for (char *p = sm; *p; p++)
			*p = *p == ' ' ? '-' : *p;
		bt_fmt(c->objs, sizeof(c->objs), "%s/sm%s", c->build, sm);
	} else if ((d = opendir(c->build))) {
		while ((e = readdir(d))) {
			bt_fmt(tmp, sizeof(tmp), "%s/%s", c->build, e->d_name);
			if (!strncmp(e->d_name, "sm", 2) && bt_is_dir(tmp) &&
			    !found++)
				bt_fmt(c->objs, sizeof(c->objs), "%s", tmp);
		}
		closedir(d);
		if (found != 1) {
			fprintf(stderr, "batch: %s has the objects of %d GPU "
					"architectures: say which with --sm\n",
				c->build, found);
			return -1;
		}
	}
	if (!c->sm) {
		const char *base = strrchr(c->objs, '/');

		bt_fmt(sm_words, sizeof(sm_words), "%s", base ? base + 1 : c->objs);
		if (!strncmp(sm_words, "sm", 2))
			memmove(sm_words, sm_words + 2, strlen(sm_words) - 1);
		for (char *p = sm_words; *p; p++)
			*p = *p == '-' ? ' ' : *p;
		c->sm = sm_words;
	}
	return 0;
}

/* The grader, devinfo and the prebuilt objects: needed to grade. */
static int find_tools(struct cli *k)
{
	struct bt_conf *c = &k->c;
	char tmp[BT_PATH];

	if (find_objs(k))
		return -1;
	bt_fmt(tmp, sizeof(tmp), "%s/host/grader/grader", c->build);
	bt_fmt(c->grader, sizeof(c->grader), "%s", k->grader ? k->grader : tmp);
	bt_fmt(tmp, sizeof(tmp), "%s/devinfo", c->objs);
	bt_fmt(c->devinfo, sizeof(c->devinfo), "%s", k->devinfo ? k->devinfo : tmp);
	if (bt_realpath(c->objs, c->objs, sizeof(c->objs)) ||
	    bt_realpath(c->grader, c->grader, sizeof(c->grader)) ||
	    (!c->build_only && bt_realpath(c->devinfo, c->devinfo,
					   sizeof(c->devinfo)))) {
		fprintf(stderr, "batch: the grader or the labs' objects are not "
				"built in %s: run it through make batch, which "
				"builds them first\n", c->build);
		return -1;
	}
	bt_fmt(tmp, sizeof(tmp), "%s/lab", c->objs);
	find_prebuilt(c, tmp);
	bt_fmt(tmp, sizeof(tmp), "%s/common", c->objs);
	find_prebuilt(c, tmp);
	return 0;
}

/* The output folder inside the submissions would be a submission; the
 * other way round, the batch would grade its own work. */
static int out_overlaps(const struct bt_conf *c, const char *out)
{
	char abs[BT_PATH], cwd[BT_PATH];

	if (out[0] != '/' && getcwd(cwd, sizeof(cwd)))
		bt_fmt(abs, sizeof(abs), "%s/%s", cwd, out);
	else
		bt_fmt(abs, sizeof(abs), "%s", out);
	if (!bt_path_inside(abs, c->subs) && !bt_path_inside(c->subs, abs))
		return 0;
	fprintf(stderr, "batch: the output folder %s and the submissions %s "
			"must not lie inside each other\n", abs, c->subs);
	return 1;
}

/* The submissions and the output folder (OUT/work holds the scratch). */
static int resolve_out(struct cli *k)
{
	struct bt_conf *c = &k->c;
	char tmp[BT_PATH];

	if (need_path("submissions", k->subs, c->subs, sizeof(c->subs)))
		return -1;
	if (!bt_is_dir(c->subs)) {
		fprintf(stderr, "batch: %s is not a folder of submissions\n", c->subs);
		return -1;
	}
	if (k->out)
		bt_fmt(tmp, sizeof(tmp), "%s", k->out);
	else
		bt_fmt(tmp, sizeof(tmp), "%s-graded", c->subs);
	if (out_overlaps(c, tmp) || bt_mkdirs(tmp) ||
	    need_path("output folder", tmp, c->out, sizeof(c->out)) ||
	    out_overlaps(c, c->out))
		return -1;
	bt_fmt(c->work, sizeof(c->work), "%s/work", c->out);
	if (bt_mkdirs(c->work))
		return -1;
	if (k->manifest && need_path("manifest", k->manifest, c->manifest,
				     sizeof(c->manifest)))
		return -1;
	return 0;
}

/* --sandbox-exec: its scratch folder; the batch's own next to it. */
static int resolve_scratch(struct cli *k)
{
	struct bt_conf *c = &k->c;
	char *slash;

	if (bt_mkdirs(k->scratch) ||
	    need_path("scratch folder", k->scratch, k->scratch_abs,
		      sizeof(k->scratch_abs)))
		return -1;
	bt_fmt(c->work, sizeof(c->work), "%s", k->scratch_abs);
	slash = strrchr(c->work, '/');
	if (!slash || slash == c->work) {
		fprintf(stderr, "batch: the scratch folder must not be /\n");
		return -1;
	}
	*slash = '\0';
	return 0;
}

/* The sandbox's limits: SANDBOX_NPROC, SANDBOX_MEM (default: half the
 * machine's memory, at most BT_BOX_MEM_MAX). */
static void sandbox_defaults(struct bt_conf *c)
{
	long long ram = (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE);

	if (!c->nproc)
		c->nproc = BT_BOX_NPROC;
	if (!c->mem)
		c->mem = ram > 0 && ram / 2 < BT_BOX_MEM_MAX ?
			 ((ram / 2) >> 30 ? (ram / 2) >> 30 : 1) << 30 :
			 BT_BOX_MEM_MAX;
	c->box_uid = c->box_gid = -1;
}

static int resolve(struct cli *k)
{
	struct bt_conf *c = &k->c;
	const char *env;

	if (need_path("repository", k->repo ? k->repo : ".", c->repo,
		      sizeof(c->repo)) ||
	    need_path("build folder", k->build ? k->build : "build", c->build,
		      sizeof(c->build)))
		return -1;
	if (k->sandbox_exec ? resolve_scratch(k) : resolve_out(k))
		return -1;
	if (k->cuda && bt_realpath(k->cuda, c->cuda, sizeof(c->cuda)))
		c->cuda[0] = '\0';
	if (k->course && need_path("course settings", k->course, c->course,
				   sizeof(c->course)))
		return -1;
	if (!c->jobs) {
		env = getenv("SLURM_CPUS_PER_TASK");
		c->jobs = env && atoi(env) > 0 ? atoi(env) :
			  (int)sysconf(_SC_NPROCESSORS_ONLN);
		if (c->jobs < 1)
			c->jobs = 1;
	}
	if (!c->chunk)
		c->chunk = 1;
	if (c->build_timeout <= 0)
		c->build_timeout = 900;
	if (c->grade_timeout <= 0)
		c->grade_timeout = 4 * 3600; /* a wedged grader; the grader
					      * times each exercise itself */
	if (!c->time_limit)
		c->time_limit = "02:00:00";
	if (!c->cpus)
		c->cpus = "2";
	sandbox_defaults(c);
	if (bt_which("make", c->make, sizeof(c->make))) {
		fprintf(stderr, "batch: make is not on PATH\n");
		return -1;
	}
	bt_which("bwrap", c->bwrap, sizeof(c->bwrap));
	if (need_path("this program", "/proc/self/exe", c->self, sizeof(c->self)))
		return -1;
	return 0;
}

/*
 * A scratch path of this process's own in OUT/work/: Slurm tasks on
 * several nodes share OUT, and run their checks at the same time.
 */
static void own_scratch(const struct bt_conf *c, const char *name, char *out,
			size_t n)
{
	char host[64] = "";

	gethostname(host, sizeof(host) - 1);
	bt_fmt(out, n, "%s/.%s-%s-%ld", c->work, name, host, (long)getpid());
}

static void warn_unsandboxed(const char *why)
{
	fprintf(stderr,
"\n"
"**********************************************************************\n"
"*  WARNING: STUDENT CODE WILL RUN WITHOUT A SANDBOX (UNSANDBOXED)    *\n"
"*  %-66s*\n"
"*  Each submission can read the others and the solutions, use the   *\n"
"*  network, start processes without limit and write wherever this   *\n"
"*  user can, results included. The gradebook and every report say   *\n"
"*  UNSANDBOXED. Leave SANDBOX unset to grade in the sandbox.         *\n"
"**********************************************************************\n"
"\n", why);
}

/* Why there is no sandbox, and what to do about it; nothing is graded. */
static void no_sandbox(const char *why, int missing)
{
	fprintf(stderr, "batch: cannot make a sandbox: %s\n"
		"batch: nothing was graded: student code runs only in a sandbox.\n",
		why);
	if (missing)
		fprintf(stderr,
"  Install bubblewrap: apt-get install bubblewrap (Debian, Ubuntu),\n"
"  dnf install bubblewrap (Fedora, RHEL).\n");
	else
		fprintf(stderr,
"  bubblewrap could not make its namespaces. As a normal user it needs\n"
"  unprivileged user namespaces; to enable them (as root):\n"
"    sysctl -w user.max_user_namespaces=15000          (where it is 0)\n"
"    sysctl -w kernel.unprivileged_userns_clone=1      (Debian 10 and older)\n"
"    sysctl -w kernel.apparmor_restrict_unprivileged_userns=0  (Ubuntu >= 23.10,\n"
"      or give bwrap an AppArmor profile that allows them)\n"
"  Or run the batch as root: it then needs no user namespace, and student\n"
"  code runs as SANDBOX_USER (default nobody). In a container, the container\n"
"  must allow namespaces (Docker's default seccomp profile does not).\n"
"  docs/batch-grading.md, section 6, says what each way needs.\n");
	fprintf(stderr,
"  To grade WITHOUT a sandbox anyway, at your own risk: SANDBOX=off (each\n"
"  submission can then read the others, use the network and write wherever\n"
"  this user can).\n");
}

/* The account sandboxes run as when the batch is root. */
static int sandbox_account(struct bt_conf *c)
{
	const char *name = c->sandbox_user ? c->sandbox_user : "nobody";
	struct passwd *pw = getpwnam(name);

	if (pw) {
		c->box_uid = pw->pw_uid;
		c->box_gid = pw->pw_gid;
	} else if (name[0] >= '0' && name[0] <= '9') {
		c->box_uid = c->box_gid = atol(name);
	} else {
		fprintf(stderr, "batch: SANDBOX_USER=%s: no such account\n", name);
		return -1;
	}
	if (c->box_uid == 0 || c->box_gid == 0) {
		fprintf(stderr, "batch: SANDBOX_USER=%s is root: student code "
				"never runs as root\n", name);
		return -1;
	}
	return 0;
}

/* Can a sandbox of this kind be made? 1 yes; 0 with why. */
static int try_box(struct bt_conf *c, enum bt_box_kind kind, char *why,
		   size_t n)
{
	char scratch[BT_PATH];
	struct bt_box b;
	int ok;

	own_scratch(c, "probe", scratch, sizeof(scratch));
	bt_rmtree(scratch);
	c->box_kind = kind;
	if (bt_conf_box(c, scratch, -1, &b)) {
		bt_fmt(why, n, "cannot make %s", scratch);
		return 0;
	}
	ok = bt_box_probe(&b, why, n);
	bt_rmtree(scratch);
	return ok;
}

static void fmt_size(char *out, size_t n, long long bytes)
{
	if (bytes >= 1LL << 30 && !(bytes % (1LL << 30)))
		bt_fmt(out, n, "%lld GiB", bytes >> 30);
	else
		bt_fmt(out, n, "%lld MiB", bytes >> 20);
}

/* What the sandbox is, for the batch's log and each student's meta. */
static void describe(struct bt_conf *c, const char *no_userns)
{
	char who[160], mem[32];
	size_t o;

	fmt_size(mem, sizeof(mem), c->mem);
	if (c->box_uid >= 0)
		bt_fmt(who, sizeof(who), "the account %s (uid %ld)",
		       c->sandbox_user ? c->sandbox_user : "nobody", c->box_uid);
	else
		bt_fmt(who, sizeof(who), "this user (uid %ld)", (long)getuid());
	if (c->box_kind == BT_BOX_USERNS)
		o = bt_fmt(c->box_desc, sizeof(c->box_desc), "bubblewrap, a user "
			   "namespace: uid %d inside, %s outside", BT_BOX_ID, who);
	else
		o = bt_fmt(c->box_desc, sizeof(c->box_desc), "bubblewrap as root, "
			   "no user namespace (%s): student code runs as %s",
			   no_userns, who);
	if (o >= sizeof(c->box_desc))
		return;
	if (c->cgroup[0])
		bt_fmt(c->box_desc + o, sizeof(c->box_desc) - o, "; a cgroup of "
		       "its own under %s: at most %ld processes (pids.max) and %s "
		       "of memory (memory.max)", c->cgroup, c->nproc, mem);
	else
		bt_fmt(c->box_desc + o, sizeof(c->box_desc) - o, "; at most %ld "
		       "processes %s (RLIMIT_NPROC), %s of data per process "
		       "(RLIMIT_DATA)", c->nproc, c->box_kind == BT_BOX_USERNS ?
		       "per sandbox" : "for all the sandboxes of the account at "
		       "once", mem);
}

/*
 * The sandbox every command of the batch runs in: required unless turned
 * off. boxes: how many may run at once (without a user namespace the
 * process limit counts them all together).
 */
static int setup_sandbox(struct bt_conf *c, int boxes)
{
	char why[256] = "", why_ns[512] = "";

	c->sandboxed = 0;
	if (c->sandbox == BT_SB_OFF) {
		bt_fmt(c->unsandboxed_why, sizeof(c->unsandboxed_why),
			 "the sandbox was turned off (SANDBOX=off)");
		warn_unsandboxed(c->unsandboxed_why);
		return 0;
	}
	if (!c->bwrap[0]) {
		no_sandbox("bubblewrap (bwrap) is not installed", 1);
		return -1;
	}
	if (c->cgroup[0] && !bt_cgroup_usable(c->cgroup, why, sizeof(why))) {
		fprintf(stderr, "batch: SANDBOX_CGROUP: %s\n", why);
		return -1;
	}
	if (geteuid() == 0 && sandbox_account(c))
		return -1;
	c->sandboxed = 1;
	if (!try_box(c, BT_BOX_USERNS, why_ns, sizeof(why_ns))) {
		if (geteuid() != 0 || !try_box(c, BT_BOX_SETUID, why, sizeof(why))) {
			c->sandboxed = 0;
			if (geteuid() == 0)
				bt_fmt(why_ns + strlen(why_ns), sizeof(why_ns) -
				       strlen(why_ns), "; and as root without a "
				       "user namespace: %s", why);
			no_sandbox(why_ns, 0);
			return -1;
		}
		/* The kernel counts the account's processes over the
		 * machine: room for every sandbox at once. */
		if (!c->cgroup[0])
			c->nproc *= boxes > 0 ? boxes : 1;
	}
	describe(c, why_ns);
	fprintf(stderr, "batch: sandbox: %s\n", c->box_desc);
	return 0;
}

/* ---- GPUs ------------------------------------------------------------- */

static int split_gpus(struct cli *k, char *list)
{
	struct bt_conf *c = &k->c;
	char *save = NULL;

	c->ngpus = 0;
	for (char *g = strtok_r(list, ", \n", &save); g && c->ngpus < BT_MAX_GPUS;
	     g = strtok_r(NULL, ", \n", &save))
		if (strcmp(g, "-1"))
			c->gpus[c->ngpus++] = g;
	return c->ngpus;
}

/* nvidia-smi's "index, uuid" lines (NULL without nvidia-smi), asked
 * once: find_gpus() and gpu_info() both read them. */
static const char *smi_uuids(struct cli *k)
{
	char smi[BT_PATH], out[BT_PATH];
	struct bt_args a;
	int status = -1;

	if (k->smi || bt_which("nvidia-smi", smi, sizeof(smi)))
		return k->smi;
	own_scratch(&k->c, "nvidia-smi.out", out, sizeof(out));
	bt_args_init(&a);
	bt_args_add(&a, smi);
	bt_args_add(&a, "--query-gpu=index,uuid");
	bt_args_add(&a, "--format=csv,noheader");
	if (!bt_run(&a, out, NULL, 60, -1, NULL, &status) && !status)
		k->smi = bt_read(out, 1 << 16);
	bt_args_free(&a);
	remove(out);
	return k->smi;
}

/* The GPUs to use: --gpus, else CUDA_VISIBLE_DEVICES, else nvidia-smi's. */
static int find_gpus(struct cli *k)
{
	const char *env = getenv("CUDA_VISIBLE_DEVICES");

	if (k->gpus_buf[0])
		return split_gpus(k, k->gpus_buf);
	if (env) {
		bt_fmt(k->gpus_buf, sizeof(k->gpus_buf), "%s", env);
		return split_gpus(k, k->gpus_buf);
	}
	if (!smi_uuids(k))
		return 0;
	/* Each line's index: the rest of the line (its UUID) blanked. */
	bt_fmt(k->gpus_buf, sizeof(k->gpus_buf), "%s", k->smi);
	for (char *p = k->gpus_buf; (p = strchr(p, ',')); )
		while (*p && *p != '\n')
			*p++ = ' ';
	return split_gpus(k, k->gpus_buf);
}

/* GPU g's UUID: itself, or nvidia-smi's for its index. */
static void gpu_uuid(struct bt_conf *c, int g, const char *smi)
{
	char want[32];

	c->gpu_uuid[g][0] = '\0';
	if (!strncmp(c->gpus[g], "GPU-", 4)) {
		bt_fmt(c->gpu_uuid[g], sizeof(c->gpu_uuid[g]), "%s", c->gpus[g]);
		return;
	}
	bt_fmt(want, sizeof(want), "%s, ", c->gpus[g]);
	for (const char *at = smi; at && (at = strstr(at, want)); at++)
		if (at == smi || at[-1] == '\n') {
			at += strlen(want);
			bt_fmt(c->gpu_uuid[g], sizeof(c->gpu_uuid[g]), "%.*s",
			       (int)strcspn(at, " \r\n"), at);
			return;
		}
}

/*
 * For each GPU: its UUID; the file grader/gpustate.c locks for it, <WB_LOCK_DIR
 * or /tmp>/cuda-workbook-gpu-<UUID>.lock ("cuda<N>" without one); and its
 * /dev/nvidia<N> (from the driver's /proc/driver/nvidia/gpus/<bus>/information),
 * the only GPU node its sandbox gets. Where that cannot be told, every node,
 * and the log says so.
 */
static void gpu_info(struct cli *k)
{
	struct bt_conf *c = &k->c;
	const char *dir = getenv("WB_LOCK_DIR");
	const char *proc = c->nvproc ? c->nvproc : "/proc/driver/nvidia/gpus";
	const char *smi = smi_uuids(k);

	for (int g = 0; g < c->ngpus; g++) {
		char key[128];

		gpu_uuid(c, g, smi);
		bt_fmt(key, sizeof(key), "%s", c->gpu_uuid[g][0] ?
		       c->gpu_uuid[g] : c->gpus[g]);
		if (!c->gpu_uuid[g][0] && strncmp(key, "MIG-", 4))
			bt_fmt(key, sizeof(key), "cuda%s", c->gpus[g]);
		gpu_lock_path(c->gpu_lock[g], sizeof(c->gpu_lock[g]), dir, key);
		c->gpu_minor[g] = bt_gpu_minor(proc, c->gpu_uuid[g]);
		if (!c->sandboxed)
			continue;
		if (c->gpu_minor[g] >= 0)
			fprintf(stderr, "batch: GPU %s (%s): its sandbox sees "
					"/dev/nvidia%d and no other GPU's node\n",
				c->gpus[g], c->gpu_uuid[g], c->gpu_minor[g]);
		else
			fprintf(stderr, "batch: GPU %s: which /dev/nvidia node is "
					"it? %s: its sandbox sees EVERY /dev/nvidia* "
					"node (CUDA_VISIBLE_DEVICES still picks it)\n",
				c->gpus[g], !c->gpu_uuid[g][0] ? "no UUID for it "
				"(nvidia-smi)" : "not in the driver's " "/proc/driver/"
				"nvidia/gpus/*/information");
	}
}

/* devinfo --check on each GPU, outside the sandbox and then inside. */
static int check_gpus(struct bt_conf *c)
{
	char out[BT_PATH], scratch[BT_PATH], *text;
	int status;

	own_scratch(c, "gpucheck", scratch, sizeof(scratch));
	bt_mkdirs(scratch);
	bt_fmt(out, sizeof(out), "%s.out", scratch);
	for (int g = 0; g < c->ngpus; g++) {
		for (int boxed = 0; boxed < 1 + c->sandboxed; boxed++) {
			struct bt_args a;
			struct bt_box b;

			bt_args_init(&a);
			if (boxed) {
				bt_conf_box(c, scratch, g, &b);
				bt_box_argv(&b, &a);
			}
			bt_args_add(&a, c->devinfo);
			bt_args_add(&a, "--check");
			if (bt_run(&a, out, NULL, 120, -1, c->gpus[g], &status))
				status = -1;
			bt_args_free(&a);
			if (status == 0)
				continue;
			text = bt_read(out, 2048);
			fprintf(stderr, "batch: GPU %s is not usable%s: %s\n",
				c->gpus[g], boxed ? " inside the sandbox (it works "
				"outside)" : "",
				text && *text ? text : "devinfo --check failed\n");
			free(text);
			remove(out);
			bt_rmtree(scratch);
			return -1;
		}
	}
	remove(out);
	bt_rmtree(scratch);
	return 0;
}

/* ---- settings and resume ------------------------------------------------ */

static void settings_text(const struct bt_conf *c, char *out, size_t n)
{
	unsigned long long course = 0;
	size_t o;

	if (c->course[0]) {
		char *text = bt_read(c->course, 1 << 20);

		course = text ? bt_fnv(BT_FNV_INIT, text, strlen(text)) : 0;
		free(text);
	}
	o = bt_fmt(out, n,
		     "# The settings this folder's grades were made with; a later "
		     "run must match.\n"
		     "mode %s\nlab %s\nsm %s\nseed %s\ntimeout_cap %s\n"
		     "course %s %016llx\n",
		     c->build_only ? "build-only" : "grade", c->lab ? c->lab : "all",
		     c->sm ? c->sm : "-", c->seed ? c->seed : "random",
		     c->timeout_cap ? c->timeout_cap : "-",
		     c->course[0] ? c->course : "-", course);
	for (int i = 0; i < c->ngrader_args && o < n; i++)
		o += bt_fmt(out + o, n - o, "grader_arg %s\n", c->grader_args[i]);
}

static int check_settings(const struct bt_conf *c)
{
	char path[BT_PATH], want[8192], *have;

	settings_text(c, want, sizeof(want));
	bt_fmt(path, sizeof(path), "%s/batch.conf", c->out);
	have = bt_read(path, sizeof(want));
	if (!have)
		return bt_write_atomic(path, want);
	if (strcmp(have, want)) {
		fprintf(stderr, "batch: %s holds grades made with other settings:\n"
				"  then: %s\n  now:  %s\n"
				"Grade into another folder (OUT=...), or remove "
				"this one to start over.\n", c->out, have, want);
		free(have);
		return -1;
	}
	free(have);
	return 0;
}

/* --merge takes the mode and the lab from the grades' own batch.conf. */
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
		else if (!strncmp(l, "lab ", 4) && strcmp(l + 4, "all") && !c->lab) {
			bt_fmt(lab, sizeof(lab), "%s", l + 4);
			c->lab = lab;
		}
	}
	free(text);
}

/* What a crash may have left of this student: tidy it (bt_recover). */
static void recover(const struct bt_conf *c, const struct bt_sub *s)
{
	char dir[BT_PATH], w[BT_PATH];

	bt_fmt(dir, sizeof(dir), "%s/students", c->out);
	bt_fmt(w, sizeof(w), "%s/work/%s", c->out, s->id);
	bt_recover(dir, s->id);
	bt_rmtree(w);
}

/* Graded before, from the same files? */
static int done_before(const struct bt_conf *c, const struct bt_sub *s)
{
	char path[BT_PATH], want[64], *meta;
	int same;

	bt_fmt(path, sizeof(path), "%s/students/%s/meta", c->out, s->id);
	meta = bt_read(path, 1 << 16);
	if (!meta)
		return 0;
	bt_fmt(want, sizeof(want), "\nfingerprint %016llx\n", s->fp);
	same = strstr(meta, want) != NULL;
	free(meta);
	bt_fmt(path, sizeof(path), "%s/students/%s/results.tsv", c->out, s->id);
	return same && bt_exists(path);
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

	if (!c->build_only && !find_gpus(k))
		fprintf(stderr, "batch: no GPU found (nvidia-smi): the command "
				"runs without one\n");
	if (setup_sandbox(c, 1))
		return 2;
	if (!c->build_only && c->ngpus) {
		gpu_info(k);
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
		bt_fmt(w, sizeof(w), "%s/work/%s", c->out, s[i].id);
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

	if (!c->build_only && find_gpus(k) == 0) {
		fprintf(stderr, "batch: no GPU found (nvidia-smi): grading "
				"needs one; BUILD_ONLY=1 builds and checks "
				"without running anything\n");
		return 2;
	}
	/* Sandboxes at once: the builds, and a grading on each slot. */
	if (setup_sandbox(c, c->jobs + (c->build_only ? c->jobs : c->ngpus)))
		return 2;
	if (!c->build_only) {
		gpu_info(k);
		if (check_gpus(c))
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
	c->task = -1;
	if (parse(argc, argv, &k))
		return usage();
	if (resolve(&k))
		return 2;
	if (k.merge)
		merge_settings(c);
	else if (find_tools(&k))
		return 2;
	if (k.sandbox_exec)
		return exec_boxed(&k, k.scratch_abs);
	bt_fmt(labs, sizeof(labs), "%s/labs", c->repo);
	if (bt_read_labs(labs, c->lab, &c->labs)) {
		fprintf(stderr, "batch: no lab%s%s in %s\n", c->lab ? " named " : "s",
			c->lab ? c->lab : "", labs);
		return 2;
	}
	if (!k.exec_id && !k.merge && check_settings(c))
		return 2;
	n = bt_list_subs(c->subs, &subs);
	if (n < 0 || select_subs(&k, &subs, &n))
		return 2;
	rc = run(&k, subs, n, argv[0]);
	bt_free_subs(subs, n);
	return rc;
}
