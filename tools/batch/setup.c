/* SPDX-License-Identifier: MIT */
/*
 * setup.c - the batch tool before it grades anything (main.c's first
 * steps): where the repository, the build, the grader and the output are;
 * the sandbox (which kind can be made here, and for whom); the GPUs (which
 * to use, their UUIDs, the per-GPU lock files, the /dev node each sandbox
 * gets, and that each GPU works inside the sandbox as outside).
 *
 * Floor 6 (batch.h): uses cli, conf, sandbox (a probe, each GPU's node),
 * cgroup, process, args, util, files and the grader's grader/gpulock.h
 * (each GPU's lock file).
 */
#include "setup.h"
#include "args.h"
#include "cgroup.h"
#include "files.h"
#include "process.h"
#include "sandbox.h"
#include "util.h"
#include "../../grader/gpulock.h"

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
int setup_tools(struct cli *k)
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
	/* make takes no space (nor :, #, $, =...) in a path it is given
	 * (SRC=, T=): where OUT has one, the scratch folders go to a folder
	 * of this user's own in /tmp instead, one per OUT. */
	if (strpbrk(c->work, " \t:#$%=;&*?[]()'\"\\|<>`!")) {
		unsigned long long h = bt_fnv(BT_FNV_INIT, c->out, strlen(c->out));
		struct stat st;

		bt_fmt(c->work, sizeof(c->work), "/tmp/cuda-workbook-batch-%ld",
		       (long)getuid());
		/* Ours, a real folder: never one someone left there. Others
		 * may pass through (the sandbox account must reach its
		 * scratch folder), not list it. */
		if (bt_mkdirs(c->work) || lstat(c->work, &st) ||
		    !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
		    chmod(c->work, 0711)) {
			fprintf(stderr, "batch: %s is not a folder of this "
					"user's own: remove it\n", c->work);
			return -1;
		}
		bt_fmt(c->work + strlen(c->work), sizeof(c->work) - strlen(c->work),
		       "/%016llx", h);
	}
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

int setup_paths(struct cli *k)
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
	if (!c->chunk) {
		c->chunk = 1;
		c->chunk_auto = 1; /* make slurm-script picks one */
	}
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
int setup_sandbox(struct bt_conf *c, int boxes)
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
 * once: setup_gpus() and setup_gpu_info() both read them. */
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
int setup_gpus(struct cli *k)
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
 * For each GPU: its UUID; the file grader/run/gpustate.c locks for it, <WB_LOCK_DIR
 * or /tmp>/cuda-workbook-gpu-<UUID>.lock ("cuda<N>" without one); and its
 * /dev/nvidia<N> (from the driver's /proc/driver/nvidia/gpus/<bus>/information),
 * the only GPU node its sandbox gets. Where that cannot be told, every node,
 * and the log says so.
 */
void setup_gpu_info(struct cli *k)
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
int setup_check_gpus(struct bt_conf *c)
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
