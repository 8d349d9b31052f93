/* SPDX-License-Identifier: MIT */
/*
 * conf.c - a run's commands in their sandboxes (conf.h): the box of each
 * one, made from the run's settings (the repository's build inputs, an
 * allowlist kept here; the prebuilt objects and tools; the submission's
 * scratch folder; its GPU's node), and where each submission's scratch
 * folder is.
 *
 * Floor 3 (batch.h): uses sandbox, sub, util and files.
 */
#include "conf.h"
#include "files.h"
#include "util.h"

#include <string.h>
#include <unistd.h>

void bt_work_dir(const struct bt_conf *c, const struct bt_sub *s,
		 const char *sub, char *out, size_t n)
{
	bt_fmt(out, n, "%s/%s%s%s", c->work, s->id, *sub ? "/" : "", sub);
}

/*
 * The repository's build inputs: all that a sandbox sees of the repository
 * folder, an allowlist. What `make runners` and the grader read there, and
 * why:
 */
static const char *const repo_inputs[] = {
	/* The rules every submission is built by (make -C repo runners). */
	"Makefile",
	/* Each lab's lab.mk, which the Makefile includes; its public headers,
	 * a submission's include path; and what the grader reads (--labs):
	 * each lab's table, and the skeletons that stand in for a file not
	 * handed in (the Gradescope autograder's SRC="sub labs"). */
	"labs",
	/* The workbook headers the labs' headers include. */
	"common",
	/* The scripts each exercise's build runs (inspect.sh, build.sh). */
	"grader",
	/* The grader's --calibrations: the grading GPU's, if the course has
	 * one (make calibrate). */
	"calibrations",
};
/*
 * Nothing else of it exists inside: not solutions/, tests/ (its ladder
 * holds partial solutions), .git, docs/, tools/, dist/ or the build
 * folder (of which the prebuilt objects alone, bound below), nor whatever
 * a course keeps there: a TA's untracked notes, last term's submissions.
 * A compile that #includes one of them, by any path, finds nothing.
 */
#define BT_NINPUTS (sizeof(repo_inputs) / sizeof(repo_inputs[0]))
_Static_assert(BT_NINPUTS <= sizeof(((struct bt_box *)0)->input) /
	       sizeof(((struct bt_box *)0)->input[0]),
	       "struct bt_box's input[] holds every build input");

/* The build inputs the repository has (where c->repo is). */
static void bind_inputs(const struct bt_conf *c, struct bt_box *b)
{
	static char path[BT_NINPUTS][BT_PATH];

	for (size_t i = 0; i < BT_NINPUTS; i++) {
		bt_fmt(path[i], sizeof(path[i]), "%s/%s", c->repo, repo_inputs[i]);
		if (access(path[i], F_OK) == 0)
			b->input[b->ninput++] = path[i];
	}
}

/* The scratch folder and its tmp/, the sandbox account's to write. */
static int own_scratch_dir(const struct bt_conf *c, const char *scratch)
{
	char tmp[BT_PATH];

	bt_fmt(tmp, sizeof(tmp), "%s/tmp", scratch);
	if (bt_mkdirs(tmp))
		return -1;
	if (c->sandboxed && c->box_uid >= 0) {
		(void)!chown(scratch, (uid_t)c->box_uid, (gid_t)c->box_gid);
		(void)!chown(tmp, (uid_t)c->box_uid, (gid_t)c->box_gid);
	}
	return 0;
}

/*
 * The box for one of the batch's commands. Its paths are the batch's own,
 * the same for every submission, and live in static storage: every box
 * points at the same strings.
 */
int bt_conf_box(const struct bt_conf *c, const char *scratch, int gpu,
		struct bt_box *b)
{
	static char lab[BT_PATH], common[BT_PATH], include[BT_PATH];
	static char path[BT_PATH + 64];

	memset(b, 0, sizeof(*b));
	b->bwrap = c->sandboxed ? c->bwrap : NULL;
	b->kind = c->box_kind;
	b->self = c->self;
	b->uid = c->box_uid;
	b->gid = c->box_gid;
	b->nproc = c->nproc;
	b->mem = c->mem;
	b->cgroup = c->cgroup[0] ? c->cgroup : NULL;
	b->repo = c->repo;
	bind_inputs(c, b);
	/* The batch's own folders, in case one lies inside an input. */
	b->hide[b->nhide++] = c->build;
	if (c->out[0])
		b->hide[b->nhide++] = c->out;
	if (c->subs[0])
		b->hide[b->nhide++] = c->subs;
	/* Of the build folder: the labs' objects and the harness, which
	 * every runner links; each lab's staged public headers (grader/
	 * build.sh --stage), a submission's include path. */
	bt_fmt(lab, sizeof(lab), "%s/lab", c->objs);
	bt_fmt(common, sizeof(common), "%s/common", c->objs);
	bt_fmt(include, sizeof(include), "%s/include", c->objs);
	if (bt_is_dir(lab))
		b->ro[b->nro++] = lab;
	if (bt_is_dir(common))
		b->ro[b->nro++] = common;
	if (bt_is_dir(include))
		b->ro[b->nro++] = include;
	b->ro[b->nro++] = c->grader;
	if (!c->build_only)
		b->ro[b->nro++] = c->devinfo;
	if (c->course[0])
		b->ro[b->nro++] = c->course;
	if (c->cuda[0] && !bt_path_inside(c->cuda, "/usr"))
		b->ro[b->nro++] = c->cuda;
	b->scratch = scratch;
	b->gpu = gpu >= 0;
	b->gpu_minor = gpu >= 0 ? c->gpu_minor[gpu] : -1;
	b->devdir = c->devdir;
	/* With its node alone, the GPU is the only one CUDA can open, and
	 * its UUID names it whatever the numbering inside. */
	if (gpu >= 0)
		b->cuda_visible = b->gpu_minor >= 0 && c->gpu_uuid[gpu][0] ?
				  c->gpu_uuid[gpu] : c->gpus[gpu];
	bt_fmt(path, sizeof(path), "%s/bin:/usr/local/bin:/usr/bin:/bin",
	       c->cuda[0] ? c->cuda : "/usr/local/cuda");
	b->path_env = path;
	return own_scratch_dir(c, scratch);
}
