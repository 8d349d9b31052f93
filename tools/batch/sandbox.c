/* SPDX-License-Identifier: MIT */
/*
 * sandbox.c - the bubblewrap sandbox a submission is built and graded in,
 * the same for make batch, the Slurm array and the Gradescope autograder.
 *
 * What the student's code sees (everything else does not exist for it):
 *
 *   /usr (and /bin, /lib... as on the host), a few files of /etc (users,
 *   the dynamic linker's cache, alternatives), a fresh /proc and /dev,
 *   read-only;
 *   of the repository, only its build inputs (conf.c's repo_inputs[]: the
 *   Makefile, labs/, common/, grader/, calibrations/), read-only: not
 *   solutions/, tests/, .git, docs/, tools/, nor anything else a course
 *   keeps in that folder (a TA's notes, last term's submissions);
 *   the prebuilt lab objects, harness, staged headers, grader and
 *   devinfo, read-only;
 *   its own scratch folder, the only place it can write (TMPDIR and HOME
 *   point there too); /tmp is empty and read-only;
 *   for GPU runs: /dev/nvidiactl, /dev/nvidia-uvm, /dev/nvidia-uvm-tools,
 *   /dev/nvidia-caps and the /dev/nvidia<N> of its own GPU only (every
 *   /dev/nvidia* node when which one is its GPU is not known), and /sys,
 *   read-only.
 *
 * It is never root: in a user namespace it is uid and gid 65534, and
 * outside the batch's own user or, when the batch runs as root, the
 * sandbox account (SANDBOX_USER, default nobody). It has no network (a
 * network namespace with only a loopback of its own), its own process,
 * IPC and host-name namespaces, no capabilities, and it dies with the
 * batch. The build folder, the batch's output folder and the submissions
 * folder are covered by empty tmpfs mounts where they lie inside one of
 * the build inputs.
 *
 * Limits: RLIMIT_NPROC, set inside the sandbox's own user namespace, where
 * the kernel counts its processes alone (without one, the account's over
 * the machine); memory.max and pids.max of a cgroup of its own when a
 * delegated cgroup v2 folder is given (SANDBOX_CGROUP), else RLIMIT_DATA
 * per process (RLIMIT_AS would break the CUDA runtime, which reserves
 * huge address ranges); RLIMIT_FSIZE per file and the wall-clock limits
 * of the batch (schedule.c).
 *
 * The command line is three programs, each of which execs the next:
 *
 *   batch --box-enter [--uid U --gid G] [--cgroup DIR --nproc N --mem M] --
 *       joins the sandbox's cgroup, becomes the sandbox account (root
 *       only, with a user namespace); absent when there is nothing to do
 *   bwrap ... --
 *   batch --box-init --nproc N [--data M] [--uid U --gid G] --
 *       inside: the limits, and without a user namespace the account
 *   COMMAND ...
 *
 * The grader's per-GPU lock (grader/run/gpustate.c) lands in the scratch
 * folder (WB_LOCK_DIR), where it locks nothing: the batch takes that lock
 * itself, outside (schedule.c). LD_LIBRARY_PATH is passed on, for driver
 * libraries that live outside the linker's cache.
 *
 * Here: the command line (bt_box_argv()), whether a sandbox can be made
 * (bt_box_probe()) and each GPU's node. The steps inside it are
 * boxstep.c, its cgroup cgroup.c, the box of each of a run's commands
 * conf.c. Floor 2 (batch.h): uses args, util, files and process.
 */
#include "sandbox.h"
#include "files.h"
#include "process.h"
#include "util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Top-level folders that are links into /usr on merged-/usr systems. */
static const char *const sys_dirs[] = { "/bin", "/sbin", "/lib", "/lib64",
					"/lib32", "/libx32" };

/* What of /etc compilers, make and the CUDA runtime read. Not shadow,
 * not keys: the student's code could print them into its report. */
static const char *const etc_files[] = {
	"/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/hosts",
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	"/etc/alternatives", "/etc/localtime",
};

/* The GPU nodes every CUDA program needs, whichever its GPU. */
static const char *const gpu_shared[] = { "nvidiactl", "nvidia-uvm",
					  "nvidia-uvm-tools" };

static void add3(struct bt_args *a, const char *x, const char *y,
		 const char *z)
{
	bt_args_add(a, x);
	bt_args_add(a, y);
	if (z)
		bt_args_add(a, z);
}

static void sys_binds(struct bt_args *a)
{
	for (size_t i = 0; i < sizeof(sys_dirs) / sizeof(sys_dirs[0]); i++) {
		char target[BT_PATH];
		struct stat st;
		ssize_t len;

		if (lstat(sys_dirs[i], &st))
			continue;
		if (S_ISLNK(st.st_mode)) {
			len = readlink(sys_dirs[i], target, sizeof(target) - 1);
			if (len <= 0)
				continue;
			target[len] = '\0';
			add3(a, "--symlink", target, sys_dirs[i]);
		} else if (S_ISDIR(st.st_mode)) {
			add3(a, "--ro-bind", sys_dirs[i], sys_dirs[i]);
		}
	}
	/* Made open: bwrap as root would make it 0700. */
	add3(a, "--dir", "/etc", NULL);
	for (size_t i = 0; i < sizeof(etc_files) / sizeof(etc_files[0]); i++)
		add3(a, "--ro-bind-try", etc_files[i], etc_files[i]);
}

/* Is /dev/<name> a node this sandbox's GPU needs? */
static int gpu_node(const char *name, int minor)
{
	char own[32];

	if (strncmp(name, "nvidia", 6))
		return 0;
	if (minor < 0)
		return 1;
	for (size_t i = 0; i < sizeof(gpu_shared) / sizeof(gpu_shared[0]); i++)
		if (!strcmp(name, gpu_shared[i]))
			return 1;
	bt_fmt(own, sizeof(own), "nvidia%d", minor);
	return !strcmp(name, own) || !strncmp(name, "nvidia-caps", 11);
}

/* Its GPU's /dev/nvidia* nodes (every one when minor < 0), and /sys. */
static void gpu_binds(struct bt_args *a, const char *devdir, int minor)
{
	struct dirent **list;
	int n = scandir(devdir, &list, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		if (gpu_node(list[i]->d_name, minor)) {
			bt_args_add(a, "--dev-bind");
			bt_args_addf(a, "%s/%s", devdir, list[i]->d_name);
			bt_args_addf(a, "/dev/%s", list[i]->d_name);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	add3(a, "--ro-bind", "/sys", "/sys");
}

static void env(struct bt_args *a, const char *name, const char *value)
{
	add3(a, "--setenv", name, value);
}

/* "self --box-enter ... --", when there is anything to do outside. */
static void enter_argv(const struct bt_box *b, struct bt_args *a)
{
	int setuid_here = b->kind == BT_BOX_USERNS && b->uid >= 0;

	if (!setuid_here && !b->cgroup)
		return;
	add3(a, b->self, "--box-enter", NULL);
	if (setuid_here) {
		bt_args_add(a, "--uid");
		bt_args_addf(a, "%ld", b->uid);
		bt_args_add(a, "--gid");
		bt_args_addf(a, "%ld", b->gid);
	}
	if (b->cgroup) {
		add3(a, "--cgroup", b->cgroup, NULL);
		bt_args_add(a, "--nproc");
		bt_args_addf(a, "%ld", b->nproc);
		bt_args_add(a, "--mem");
		bt_args_addf(a, "%lld", b->mem);
	}
	bt_args_add(a, "--");
	a->cgroup = b->cgroup;
}

/* "self --box-init ... --": the first thing that runs inside. */
static void init_argv(const struct bt_box *b, struct bt_args *a)
{
	add3(a, b->self, "--box-init", "--nproc");
	bt_args_addf(a, "%ld", b->nproc);
	if (!b->cgroup && b->mem > 0) {
		bt_args_add(a, "--data");
		bt_args_addf(a, "%lld", b->mem);
	}
	if (b->kind == BT_BOX_SETUID) {
		bt_args_add(a, "--uid");
		bt_args_addf(a, "%ld", b->uid);
		bt_args_add(a, "--gid");
		bt_args_addf(a, "%ld", b->gid);
	}
	bt_args_add(a, "--");
}

static void namespaces(const struct bt_box *b, struct bt_args *a)
{
	bt_args_add(a, b->bwrap);
	bt_args_add(a, "--die-with-parent");
	bt_args_add(a, "--new-session");
	bt_args_add(a, "--unshare-net");
	bt_args_add(a, "--unshare-pid");
	bt_args_add(a, "--unshare-ipc");
	bt_args_add(a, "--unshare-uts");
	bt_args_add(a, "--unshare-cgroup-try");
	add3(a, "--hostname", "grading", NULL);
	if (b->kind == BT_BOX_USERNS) {
		bt_args_add(a, "--unshare-user");
		bt_args_add(a, "--uid");
		bt_args_addf(a, "%d", BT_BOX_ID);
		bt_args_add(a, "--gid");
		bt_args_addf(a, "%d", BT_BOX_ID);
		/* Nothing to keep: --box-init only lowers its limits. */
		add3(a, "--cap-drop", "ALL", NULL);
	}
	/* Without a user namespace bwrap runs as root and keeps its
	 * capabilities for --box-init, which gives them all up when it
	 * becomes the sandbox account. */
}

static void environment(const struct bt_box *b, struct bt_args *a)
{
	char tmpdir[BT_PATH];

	bt_args_add(a, "--clearenv");
	env(a, "PATH", b->path_env ? b->path_env : "/usr/local/bin:/usr/bin:/bin");
	env(a, "HOME", b->scratch);
	bt_fmt(tmpdir, sizeof(tmpdir), "%s/tmp", b->scratch);
	env(a, "TMPDIR", tmpdir);
	/* The grader's per-GPU lock (grader/run/gpustate.c) has no /tmp to go
	 * to in here; the batch holds the real one (schedule.c). */
	env(a, "WB_LOCK_DIR", tmpdir);
	if (getenv("LD_LIBRARY_PATH"))
		env(a, "LD_LIBRARY_PATH", getenv("LD_LIBRARY_PATH"));
	env(a, "LANG", "C.UTF-8");
	if (b->cuda_visible) {
		env(a, "CUDA_VISIBLE_DEVICES", b->cuda_visible);
		env(a, "CUDA_DEVICE_ORDER", "PCI_BUS_ID");
	}
}

/*
 * bwrap makes the folders missing above a mount point with the modes the
 * host's have: one closed to others there (a home folder) would close the
 * path to the sandbox's uid here. They are made first, open (0755).
 */
static void open_parents(struct bt_args *a, const char *path)
{
	char buf[BT_PATH];

	bt_fmt(buf, sizeof(buf), "%s", path);
	for (char *p = strchr(buf + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		add3(a, "--dir", buf, NULL);
		*p = '/';
	}
}

static void ro_bind(struct bt_args *a, const char *path)
{
	open_parents(a, path);
	add3(a, "--ro-bind", path, path);
}

/*
 * Is hide[i] a folder to cover? Only one inside a bound input shows at
 * all; and a tmpfs needs a folder to cover: one that is not there has
 * nothing to hide either.
 */
static int to_hide(const struct bt_box *b, int i)
{
	if (!bt_is_dir(b->hide[i]))
		return 0;
	for (int j = 0; j < b->ninput; j++)
		if (bt_path_inside(b->hide[i], b->input[j]))
			return 1;
	return 0;
}

static void mounts(const struct bt_box *b, struct bt_args *a)
{
	/* Mount order matters: a later mount covers an earlier one. */
	add3(a, "--tmpfs", "/tmp", NULL);
	add3(a, "--ro-bind", "/usr", "/usr");
	sys_binds(a);
	add3(a, "--proc", "/proc", NULL);
	add3(a, "--dev", "/dev", NULL);
	if (b->gpu)
		gpu_binds(a, b->devdir ? b->devdir : "/dev", b->gpu_minor);
	/* The repository is a folder of bwrap's own, holding the build
	 * inputs alone. */
	open_parents(a, b->repo);
	add3(a, "--dir", b->repo, NULL);
	for (int i = 0; i < b->ninput; i++)
		ro_bind(a, b->input[i]);
	for (int i = 0; i < b->nhide; i++) {
		if (!to_hide(b, i))
			continue;
		open_parents(a, b->hide[i]);
		add3(a, "--tmpfs", b->hide[i], NULL);
	}
	for (int i = 0; i < b->nro; i++)
		ro_bind(a, b->ro[i]);
	ro_bind(a, b->self);
	open_parents(a, b->scratch);
	add3(a, "--bind", b->scratch, b->scratch);
	/* The tmpfs mounts were writable while the mounts inside them were
	 * made; from here on only the scratch folder is. */
	add3(a, "--remount-ro", "/tmp", NULL);
	for (int i = 0; i < b->nhide; i++)
		if (to_hide(b, i))
			add3(a, "--remount-ro", b->hide[i], NULL);
	add3(a, "--remount-ro", "/", NULL);
	add3(a, "--chdir", b->repo, NULL);
}

int bt_box_argv(const struct bt_box *b, struct bt_args *a)
{
	if (!b->bwrap)
		return 0;
	enter_argv(b, a);
	namespaces(b, a);
	environment(b, a);
	mounts(b, a);
	bt_args_add(a, "--");
	init_argv(b, a);
	return a->overflow ? -1 : 0;
}

int bt_box_probe(const struct bt_box *b, char *why, size_t n)
{
	char out[BT_PATH], *text, *nl;
	struct bt_args a;
	int status = -1;

	if (!b->bwrap) {
		bt_fmt(why, n, "bubblewrap (bwrap) is not installed");
		return 0;
	}
	/* Can the sandbox read the repository and write its TMPDIR (which
	 * bt_conf_box() made)? That it is not root, --box-init sees to. */
	bt_fmt(out, sizeof(out), "%s.out", b->scratch);
	bt_args_init(&a);
	bt_box_argv(b, &a);
	add3(&a, "/bin/sh", "-c", "test -r Makefile && test -d labs && "
	     "test -w \"$TMPDIR\" || { echo \"the repository, or the scratch "
	     "folder, cannot be used as uid $(id -u)\"; exit 1; }");
	if (!bt_run(&a, out, NULL, 60, -1, NULL, &status) && status == 0) {
		bt_args_free(&a);
		remove(out);
		return 1;
	}
	bt_args_free(&a);
	text = bt_read(out, 1024);
	remove(out);
	if (text && (nl = strchr(text, '\n')))
		*nl = '\0';
	bt_fmt(why, n, "%s", text && *text ? text : "it failed without a message");
	free(text);
	return 0;
}

/* ---- which /dev/nvidia node is which GPU --------------------------- */

/* The value of "Key:  value" in text, trimmed, into out. */
static int field(const char *text, const char *key, char *out, size_t n)
{
	const char *at = text;
	size_t len = strlen(key);

	while (at && *at) {
		if (!strncmp(at, key, len)) {
			at += len;
			at += strspn(at, " \t");
			bt_fmt(out, n, "%.*s", (int)strcspn(at, " \t\r\n"), at);
			return 0;
		}
		at = strchr(at, '\n');
		at = at ? at + 1 : NULL;
	}
	return -1;
}

int bt_gpu_minor(const char *procdir, const char *uuid)
{
	struct dirent **list;
	int n = procdir && uuid && *uuid ? scandir(procdir, &list, NULL,
						   alphasort) : -1;
	int minor = -1;

	for (int i = 0; i < n; i++) {
		char path[BT_PATH], have[128], num[32], *text;

		bt_fmt(path, sizeof(path), "%s/%s/information", procdir,
		       list[i]->d_name);
		text = list[i]->d_name[0] != '.' ? bt_read(path, 1 << 16) : NULL;
		if (minor < 0 && text && !field(text, "GPU UUID:", have, sizeof(have)) &&
		    !strcasecmp(have, uuid) &&
		    !field(text, "Device Minor:", num, sizeof(num)) &&
		    num[0] >= '0' && num[0] <= '9')
			minor = atoi(num);
		free(text);
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	return minor;
}
