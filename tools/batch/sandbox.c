/* SPDX-License-Identifier: MIT */
/*
 * sandbox.c - the bubblewrap sandbox a submission is built and graded in.
 *
 * What the student's code sees (everything else does not exist for it):
 *
 *   /usr (and /bin, /lib... as on the host), a few files of /etc (users,
 *   the dynamic linker's cache, alternatives), a fresh /proc and /dev,
 *   read-only;
 *   the repository, read-only, less solutions/, tests/ (its ladder holds
 *   partial solutions), .git, dist/ (the instructor tarball) and the
 *   build folder, each covered by an empty tmpfs;
 *   the prebuilt lab objects, harness, grader and devinfo, read-only;
 *   its own scratch folder, the only place it can write (TMPDIR and HOME
 *   point there too); /tmp is empty and read-only;
 *   for GPU runs: /dev/nvidia* and /sys, read-only.
 *
 * It has no network (a network namespace with only a loopback of its
 * own), its own process, IPC and host-name namespaces, no capabilities
 * when the batch runs as root, and it dies with the batch. The batch's
 * output folder and the submissions folder are covered by empty tmpfs
 * mounts too, in case they lie inside one of the paths above.
 *
 * The grader's per-GPU lock (grader/gpustate.c) lands in the scratch
 * folder (WB_LOCK_DIR), where it locks nothing: the batch takes that lock
 * itself, outside (sched.c). LD_LIBRARY_PATH is passed on, for driver
 * libraries that live outside the linker's cache.
 */
#include "batch.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
			bt_args_add(a, "--symlink");
			bt_args_add(a, target);
			bt_args_add(a, sys_dirs[i]);
		} else if (S_ISDIR(st.st_mode)) {
			bt_args_add(a, "--ro-bind");
			bt_args_add(a, sys_dirs[i]);
			bt_args_add(a, sys_dirs[i]);
		}
	}
	for (size_t i = 0; i < sizeof(etc_files) / sizeof(etc_files[0]); i++) {
		bt_args_add(a, "--ro-bind-try");
		bt_args_add(a, etc_files[i]);
		bt_args_add(a, etc_files[i]);
	}
}

/* Every /dev/nvidia* node (nvidia0.., nvidiactl, nvidia-uvm, caps). */
static void gpu_binds(struct bt_args *a)
{
	struct dirent **list;
	int n = scandir("/dev", &list, NULL, alphasort);

	for (int i = 0; i < n; i++) {
		if (!strncmp(list[i]->d_name, "nvidia", 6)) {
			bt_args_add(a, "--dev-bind");
			bt_args_addf(a, "/dev/%s", list[i]->d_name);
			bt_args_addf(a, "/dev/%s", list[i]->d_name);
		}
		free(list[i]);
	}
	if (n >= 0)
		free(list);
	bt_args_add(a, "--ro-bind");
	bt_args_add(a, "/sys");
	bt_args_add(a, "/sys");
}

static void env(struct bt_args *a, const char *name, const char *value)
{
	bt_args_add(a, "--setenv");
	bt_args_add(a, name);
	bt_args_add(a, value);
}

int bt_box_argv(const struct bt_box *b, struct bt_args *a)
{
	char tmpdir[BT_PATH];

	if (!b->bwrap)
		return 0;
	bt_args_add(a, b->bwrap);
	bt_args_add(a, "--die-with-parent");
	bt_args_add(a, "--new-session");
	bt_args_add(a, "--unshare-net");
	bt_args_add(a, "--unshare-pid");
	bt_args_add(a, "--unshare-ipc");
	bt_args_add(a, "--unshare-uts");
	bt_args_add(a, "--unshare-cgroup-try");
	bt_args_add(a, "--hostname");
	bt_args_add(a, "grading");
	if (b->as_root) {
		bt_args_add(a, "--cap-drop");
		bt_args_add(a, "ALL");
	}
	bt_args_add(a, "--clearenv");
	env(a, "PATH", b->path_env ? b->path_env : "/usr/local/bin:/usr/bin:/bin");
	env(a, "HOME", b->scratch);
	bt_fmt(tmpdir, sizeof(tmpdir), "%s/tmp", b->scratch);
	env(a, "TMPDIR", tmpdir);
	/* The grader's per-GPU lock (grader/gpustate.c) has no /tmp to go
	 * to in here; the batch holds the real one (sched.c). */
	env(a, "WB_LOCK_DIR", tmpdir);
	if (getenv("LD_LIBRARY_PATH"))
		env(a, "LD_LIBRARY_PATH", getenv("LD_LIBRARY_PATH"));
	env(a, "LANG", "C.UTF-8");
	if (b->cuda_visible) {
		env(a, "CUDA_VISIBLE_DEVICES", b->cuda_visible);
		env(a, "CUDA_DEVICE_ORDER", "PCI_BUS_ID");
	}

	/* Mount order matters: a later mount covers an earlier one. */
	bt_args_add(a, "--tmpfs");
	bt_args_add(a, "/tmp");
	bt_args_add(a, "--ro-bind");
	bt_args_add(a, "/usr");
	bt_args_add(a, "/usr");
	sys_binds(a);
	bt_args_add(a, "--proc");
	bt_args_add(a, "/proc");
	bt_args_add(a, "--dev");
	bt_args_add(a, "/dev");
	if (b->gpu)
		gpu_binds(a);
	bt_args_add(a, "--ro-bind");
	bt_args_add(a, b->repo);
	bt_args_add(a, b->repo);
	for (int i = 0; i < b->nhide; i++) {
		/* A tmpfs needs a folder to cover: one that is not there
		 * inside a read-only mount has nothing to hide either. */
		if (!bt_is_dir(b->hide[i]))
			continue;
		bt_args_add(a, "--tmpfs");
		bt_args_add(a, b->hide[i]);
	}
	for (int i = 0; i < b->nro; i++) {
		bt_args_add(a, "--ro-bind");
		bt_args_add(a, b->ro[i]);
		bt_args_add(a, b->ro[i]);
	}
	bt_args_add(a, "--bind");
	bt_args_add(a, b->scratch);
	bt_args_add(a, b->scratch);
	/* The tmpfs mounts were writable while the mounts inside them were
	 * made; from here on only the scratch folder is. */
	bt_args_add(a, "--remount-ro");
	bt_args_add(a, "/tmp");
	for (int i = 0; i < b->nhide; i++) {
		if (!bt_is_dir(b->hide[i]))
			continue;
		bt_args_add(a, "--remount-ro");
		bt_args_add(a, b->hide[i]);
	}
	bt_args_add(a, "--remount-ro");
	bt_args_add(a, "/");
	bt_args_add(a, "--chdir");
	bt_args_add(a, b->repo);
	bt_args_add(a, "--");
	return a->overflow ? -1 : 0;
}

int bt_box_probe(const struct bt_box *b, char *why, size_t n)
{
	char out[BT_PATH], tmp[BT_PATH], *text;
	struct bt_args a;
	int status = -1;

	if (!b->bwrap) {
		bt_fmt(why, n, "bubblewrap (bwrap) is not installed");
		return 0;
	}
	bt_fmt(out, sizeof(out), "%s/probe.out", b->scratch);
	bt_fmt(tmp, sizeof(tmp), "%s/tmp", b->scratch);
	bt_mkdirs(tmp);
	bt_args_init(&a);
	bt_box_argv(b, &a);
	bt_args_add(&a, "/bin/sh");
	bt_args_add(&a, "-c");
	bt_args_add(&a, "test -r Makefile && test -d labs && test -w \"$TMPDIR\"");
	if (!bt_run(&a, out, NULL, 60, -1, NULL, &status) && status == 0) {
		bt_args_free(&a);
		return 1;
	}
	bt_args_free(&a);
	text = bt_read(out, 1024);
	if (text && strchr(text, '\n'))
		*strchr(text, '\n') = '\0';
	bt_fmt(why, n, "bwrap cannot make a sandbox here (%s)",
		 text && *text ? text : "it failed without a message");
	free(text);
	return 0;
}

/* What of the repository a submission must not see. */
static const char *const secret[] = { "solutions", "tests", ".git", "dist" };

/*
 * The box for one of the batch's commands. Its paths are the batch's own,
 * the same for every submission, and live in static storage: every box
 * points at the same strings.
 */
void bt_conf_box(const struct bt_conf *c, const char *scratch, int gpu,
		 const char *cuda_visible, struct bt_box *b)
{
	static char lab[BT_PATH], common[BT_PATH], path[BT_PATH + 64];
	static char hidden[4][BT_PATH];

	memset(b, 0, sizeof(*b));
	b->bwrap = c->sandboxed ? c->bwrap : NULL;
	b->repo = c->repo;
	for (int i = 0; i < 4; i++) {
		bt_fmt(hidden[i], sizeof(hidden[i]), "%s/%s", c->repo, secret[i]);
		b->hide[b->nhide++] = hidden[i];
	}
	b->hide[b->nhide++] = c->build;
	bt_fmt(lab, sizeof(lab), "%s/lab", c->objs);
	bt_fmt(common, sizeof(common), "%s/common", c->objs);
	b->ro[b->nro++] = lab;
	b->ro[b->nro++] = common;
	b->ro[b->nro++] = c->grader;
	if (!c->build_only)
		b->ro[b->nro++] = c->devinfo;
	if (c->course[0])
		b->ro[b->nro++] = c->course;
	if (c->cuda[0] && !bt_path_inside(c->cuda, "/usr"))
		b->ro[b->nro++] = c->cuda;
	b->hide[b->nhide++] = c->out;
	b->hide[b->nhide++] = c->subs;
	b->scratch = scratch;
	b->gpu = gpu;
	b->cuda_visible = cuda_visible;
	bt_fmt(path, sizeof(path), "%s/bin:/usr/local/bin:/usr/bin:/bin",
	       c->cuda[0] ? c->cuda : "/usr/local/cuda");
	b->path_env = path;
	b->as_root = geteuid() == 0;
}
