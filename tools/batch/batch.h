/* SPDX-License-Identifier: MIT */
/*
 * batch.h - grading a class: a folder of submissions, each a folder or a
 * .tar.gz / .zip of lab files, graded one submission per sandbox into a
 * gradebook. docs/batch-grading.md is the user's side of this file.
 *
 * The batch never grades anything itself. For each submission it runs
 * `make runners` (the submission's files as SRC, its own build folder)
 * and then the grader, both inside a bubblewrap sandbox that sees the
 * toolkit, the repository's build inputs (an allowlist, sandbox.c), the
 * prebuilt objects and that submission's scratch folder, and nothing
 * else. It only decides what goes where, when, and what the results add
 * up to.
 */
#ifndef BATCH_H
#define BATCH_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define BT_PATH 4096
#define BT_ID_LEN 96
#define BT_NAME_LEN 64
#define BT_MAX_EX 96        /* exercises over all labs */
#define BT_MAX_GPUS 16
#define BT_MAX_EXTRA 16     /* --grader-arg, --slurm-arg */
#define BT_MAX_ARGS 640
#define BT_MAX_NOTES 200    /* ignored entries listed per submission */

/* A submission's file may be at most this big: a .cu file never is. */
#define BT_MAX_FILE_BYTES (1 << 20)
/* Entries looked at in one submission, and how deep in its folders. */
#define BT_MAX_ENTRIES 10000
#define BT_MAX_DEPTH 8
/* An archive bigger than this is not opened. */
#define BT_MAX_ARCHIVE_BYTES (64LL << 20)

/* ---- util.c ------------------------------------------------------------ */

/*
 * snprintf, under a name of its own: every path here is built from parts
 * bounded by BT_PATH and a truncated one only fails to open, so gcc's
 * -Wformat-truncation, which cannot know that, is not asked. Returns what
 * snprintf returns.
 */
int bt_fmt(char *out, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An argument vector whose strings it owns. */
struct bt_args {
	char *v[BT_MAX_ARGS + 1];
	int n;
	int overflow;        /* an add did not fit: never run it */
	const char *cgroup;  /* a sandbox's cgroups are made under this
			      * folder: removed when the command ends */
};

void bt_args_init(struct bt_args *a);
void bt_args_add(struct bt_args *a, const char *s);
void bt_args_addf(struct bt_args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bt_args_free(struct bt_args *a);

int bt_mkdirs(const char *path);
int bt_rmtree(const char *path);
int bt_is_dir(const char *path);
int bt_exists(const char *path);
/* Copy a regular file (at most max bytes: -1 when it is bigger). */
long bt_copy_file(const char *from, const char *to, long max);
/* Write text to path through path.tmp and a rename, flushed to disk. */
int bt_write_atomic(const char *path, const char *text);
int bt_fsync_path(const char *path);
/* Rename the finished folder tmp to dir/<id>, replacing an older one
 * atomically; and tidy what a crash in the middle of that left. */
int bt_publish(const char *dir, const char *id, const char *tmp);
void bt_recover(const char *dir, const char *id);
/* The absolute path of a program on PATH (or of name, if it has a '/'). */
int bt_which(const char *name, char *out, size_t n);
/* The absolute, symlink-free form of an existing path. */
int bt_realpath(const char *path, char *out, size_t n);
/* path is dir or lies under it (both absolute, normalised). */
int bt_path_inside(const char *path, const char *dir);
unsigned long long bt_fnv(unsigned long long h, const void *p, size_t n);
#define BT_FNV_INIT 0xcbf29ce484222325ULL
/* s as one word for sh, in single quotes. */
void bt_shell_quote(const char *s, char *out, size_t n);
/* s as the inside of a JSON string (no quotes); a new string. */
char *bt_json_escape(const char *s);
/* Put note in front of the top-level "output" text of a results.json. */
int bt_json_add_note(const char *json_path, const char *note);
/* Every from in text (a malloc'd string, freed) replaced by to. */
char *bt_replace(char *text, const char *from, const char *to);
/* Read a whole file; NULL on error (max: bytes at most). */
char *bt_read(const char *path, size_t max);
/* path is a regular file whose real path lies inside dir: a file that
 * sandboxed code may have replaced by a link is never read through it. */
int bt_inside_regular(const char *path, const char *dir);
/* text is one JSON object (RFC 8259 syntax, nothing after it). */
int bt_json_valid(const char *text);
/* Copy a results.json that sandboxed code wrote (from) to to, outside:
 * a regular file, no link followed, at most max bytes, one JSON object.
 * 0, or -1 with the reason in why. */
int bt_take_json(const char *from, const char *to, long max, char *why,
		 size_t n);
double bt_now(void);
/* "45 s", "12 min", "1 h 05 min" */
void bt_fmt_duration(char *buf, size_t n, double s);

/* ---- labs: what students may hand in (collect.c) ----------------------- */

struct bt_exercise {
	char lab[BT_NAME_LEN];
	char name[BT_NAME_LEN];
	int selected; /* graded in this batch (LAB=) */
};

struct bt_labs {
	struct bt_exercise ex[BT_MAX_EX];
	int n;
};

/* Every labs/<lab>/lab.mk's EXERCISES, in lab order; selected by lab
 * (a list of "05-reduction" or "reduction" words, or NULL for all). -1
 * if no lab matches. */
int bt_read_labs(const char *labs_dir, const char *lab, struct bt_labs *l);
/* Select only the exercises of pairs, "lab/exercise" lines (what a
 * course file grades): 0, or -1 when none of them is here. */
int bt_select_exercises(struct bt_labs *l, const char *pairs);
/* Add one lab's EXERCISES line (the unit tests use this directly). */
int bt_add_lab(struct bt_labs *l, const char *lab, const char *exercises,
	       int selected);

/*
 * Which exercise a path inside a submission is: its index in l, or -1
 * with the reason in why. "05-reduction/sum.cu" at any depth, or a flat
 * "sum.cu" when no other lab has an exercise called sum. *depth is the
 * number of components, to prefer the shallowest of several copies.
 */
int bt_match(const struct bt_labs *l, const char *path, int *depth,
	     char *why, size_t n);

/* ---- submissions ---------------------------------------------------- */

enum bt_kind { BT_DIR, BT_TAR, BT_ZIP };

struct bt_note {
	char path[256];
	char why[224];
};

struct bt_sub {
	char id[BT_ID_LEN];     /* the student: the entry's name, no suffix */
	char name[256];         /* the entry in the submissions folder */
	char path[BT_PATH];     /* its absolute path */
	enum bt_kind kind;

	/* collect */
	char from[BT_MAX_EX][256]; /* where each taken file came from; "" */
	int depth[BT_MAX_EX];
	int ntaken;
	struct bt_note *notes;  /* ignored entries */
	int nnotes, more_notes;
	char error[256];        /* the submission could not be read: why */
	unsigned long long fp;  /* the taken files, for resume */
	int exact;              /* the id is the entry's own name (no
				 * character replaced, no suffix added) */
	long long submitted;    /* when it arrived (Unix time; 0: not known) */
	char submitted_from[32]; /* how that is known: "arrival", "times" */

	/* scheduling (sched.c) */
	int state;
	pid_t pid;
	int slot;               /* the GPU (or check slot) it holds */
	double t0, build_s, grade_s;
	int skipped;            /* graded by an earlier run */
};

/* The id for a submission entry: "alice.tar.gz" -> "alice"; characters
 * other than [A-Za-z0-9._@+-] become '_'. Returns the kind, -1 when the
 * entry is neither a folder nor an archive we read. */
int bt_sub_id(const char *name, int is_dir, char *id, size_t n);
/* The submissions in a folder, sorted by name. A symbolic link is never
 * a submission. Two entries with one id: the later one is graded under
 * its whole entry name where that is an id of its own (alice/ and
 * alice.zip); otherwise -1, both named (an id is never made up). */
int bt_list_subs(const char *dir, struct bt_sub **out);
/* The same, with ids from ids, a CSV file "entry,login" (NULL: none):
 * a mapped entry is graded as its login. -1 on a collision or a bad
 * line, said with the file's line. */
int bt_list_subs_ids(const char *dir, const char *ids, struct bt_sub **out);
void bt_free_subs(struct bt_sub *s, int n);
void bt_note(struct bt_sub *s, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Offer a candidate path (from a listing) for exercise i: keeps the
 * shallowest; the loser is noted. Returns 1 if it is now the one taken. */
int bt_offer(struct bt_sub *s, const struct bt_labs *l, int i,
	     const char *path, int depth);

struct bt_box;
/*
 * Take the submission's files into dest/<lab>/<exercise>.cu: only the
 * files students may edit, regular files of at most BT_MAX_FILE_BYTES;
 * everything else is noted. Archives are listed with tar or unzip, and
 * only the chosen members are extracted, into stage, inside box when it
 * is a sandbox. Fills s->from, s->notes, s->error, s->fp.
 */
int bt_collect(struct bt_sub *s, const struct bt_labs *l, const char *dest,
	       const char *stage, const struct bt_box *box);
/* The "Files" part of a student's report. */
void bt_files_report(FILE *f, const struct bt_sub *s,
		     const struct bt_labs *l);

/* ---- the sandbox (sandbox.c) ----------------------------------------- */

/* The uid and gid student code has inside a user namespace. */
#define BT_BOX_ID 65534
/* Processes and threads one sandbox may have at once (RLIMIT_NPROC, and
 * pids.max in a cgroup): a build or a grading uses a few dozen. */
#define BT_BOX_NPROC 256
/* Memory, at most: half the machine's, at most this much. */
#define BT_BOX_MEM_MAX (16LL << 30)

enum bt_box_kind {
	/* bwrap --unshare-user: uid 65534 inside; outside, the batch's own
	 * user, or when the batch runs as root the sandbox account, which
	 * --box-enter becomes before bwrap starts. RLIMIT_NPROC, set inside
	 * the new namespace, counts that sandbox's processes alone. */
	BT_BOX_USERNS,
	/* No user namespace (the batch runs as root): bwrap runs as root and
	 * --box-init becomes the sandbox account inside, before the command.
	 * RLIMIT_NPROC then counts that account's processes machine-wide. */
	BT_BOX_SETUID,
};

struct bt_box {
	const char *bwrap;         /* NULL: no sandbox */
	enum bt_box_kind kind;
	const char *self;          /* this program: --box-enter, --box-init */
	long uid, gid;             /* the sandbox account (-1: the batch's) */
	long nproc;                /* RLIMIT_NPROC, and pids.max */
	long long mem;             /* memory.max, else RLIMIT_DATA (0: none) */
	const char *cgroup;        /* a delegated cgroup v2 folder, or NULL */
	const char *repo;          /* where commands start (--chdir); not
				    * bound itself: of it, input[] alone */
	const char *input[8];      /* read-only, bound first: the repository's
				    * build inputs (bt_conf_box's allowlist) */
	int ninput;
	const char *hide[12];      /* folders covered by an empty tmpfs, where
				    * they lie inside an input[] */
	int nhide;
	const char *ro[12];        /* read-only paths bound after the hiding
				    * (the objects and tools in the build) */
	int nro;
	const char *scratch;       /* the one writable folder */
	int gpu;                   /* /dev/nvidia* and /sys */
	int gpu_minor;             /* only /dev/nvidia<N> of the GPUs; -1:
				    * every node (which one is not known) */
	const char *devdir;        /* where the nodes are (NULL: /dev) */
	const char *cuda_visible;  /* CUDA_VISIBLE_DEVICES, or NULL */
	const char *path_env;      /* PATH inside */
};

/*
 * Append the sandbox's command line for b to a: "[self --box-enter ...
 * --] bwrap ... -- self --box-init ... --"; the command follows. Nothing
 * when b->bwrap is NULL.
 */
int bt_box_argv(const struct bt_box *b, struct bt_args *a);
/* Can a sandbox be made here (b from bt_conf_box())? 1 yes; 0 with the
 * reason in why. */
int bt_box_probe(const struct bt_box *b, char *why, size_t n);
/* The two steps of the command line above, run as this program:
 * argv starts after "--box-enter" / "--box-init". They return only when
 * they fail (126 or 127, the reason on stderr). */
int bt_box_enter(char **argv);
int bt_box_init(char **argv);
/* After a sandbox whose first process was pid has ended: remove its
 * cgroup (under cgroup; nothing when NULL). */
void bt_box_cleanup(const char *cgroup, long pid);
/* Is dir a cgroup v2 folder a sandbox's cgroup can be made in? 1 yes;
 * 0 with the reason in why. */
int bt_cgroup_usable(const char *dir, char *why, size_t n);
/* The /dev/nvidia<N> minor of the GPU with this UUID, from the driver's
 * procdir (/proc/driver/nvidia/gpus/<bus>/information); -1 if not found. */
int bt_gpu_minor(const char *procdir, const char *uuid);

/* ---- the gradebook (book.c) ----------------------------------------- */

struct bt_cell {
	char verdict[24];      /* the grader's verdict key */
	double points, max;
	char audit[96];        /* results.tsv's audit words; "-": none */
};

struct bt_row {
	char id[BT_ID_LEN];
	int graded;            /* students/<id> exists */
	int stale;             /* it does, graded under other rules: not
				* counted (a regrade is under way) */
	int sandboxed;
	long long submitted;   /* Unix time; 0 not known */
	double late_s;         /* past the deadline (0: on time, none) */
	double penalty;        /* percent of the points taken off */
	char late_note[64];    /* "" or e.g. "past the cutoff" */
	struct bt_cell cell[BT_MAX_EX];
	int have[BT_MAX_EX];
	double total, max;
};

/* One grader results.tsv into row (by the labs' order); -1 if unusable.
 * The verdicts are the grader's, as in the student's report. */
int bt_read_tsv(const char *text, const struct bt_labs *l,
		struct bt_row *row);
/* The student's finished folder into row (results.tsv and meta). */
int bt_read_student(const char *dir, const struct bt_labs *l,
		    struct bt_row *row);
void bt_write_gradebook(FILE *f, const struct bt_labs *l,
			const struct bt_row *rows, int n, int verdicts);
/* scores.csv: student, score, max_score, percent, status. */
void bt_write_scores(FILE *f, const struct bt_row *rows, int n);
/* The same, for the gradebook: with_late adds submitted_at, late (hours)
 * and penalty (percent) columns; build_only leaves every score empty
 * (status "built only: no points"): nothing an import could take. */
void bt_write_scores_full(FILE *f, const struct bt_row *rows, int n,
			  int build_only, int with_late);
/* The gradebook's late columns for a row (with a deadline): ",..." */
void bt_late_columns(FILE *f, const struct bt_row *row);
/* built_only: no points were given (a build-only batch). */
void bt_write_summary(FILE *f, const struct bt_labs *l,
		      const struct bt_row *rows, int n, const char *title,
		      int built_only);
/* audit.tsv: one line per exercise a person should look at (an audit
 * word, or a REJECTED or SUSPICIOUS verdict); returns how many. */
int bt_write_audit(FILE *f, const struct bt_labs *l,
		   const struct bt_row *rows, int n);
/* Quantile q of sorted x[0..n-1], linear between ranks. */
double bt_quantile(const double *x, int n, double q);

/* ---- deadlines (late.c) ----------------------------------------------- */

/* A course file's deadline and late policy:
 *   deadline = 2026-12-01 23:59 UTC     (or +01:00; ISO 8601 with a T or Z)
 *   late_grace = 15m                    (s, m, h or d; nothing taken off)
 *   late_per_day = 10                   (percent of the score per day or
 *                                        part of one, after the grace)
 *   late_cutoff = 3d                    (past deadline + this: no points)
 */
struct bt_late {
	long long deadline;    /* Unix time; 0: the course has none */
	double grace_s, per_day, cutoff_s; /* cutoff_s < 0: none */
	int leaderboard;       /* "leaderboard =": 0 off, BT_BOARD_NAMES or
				* BT_BOARD_PSEUDONYMS (board.c) */
};

/* "2026-12-01 23:59 UTC" and the like: Unix time, or -1. */
long long bt_parse_time(const char *s);
/* "15m", "3d", "90" (seconds): seconds, or -1. */
double bt_parse_duration(const char *s);
/* The course file's deadline lines into l (zeroed first): 0, or -1 with
 * "file:line: why" on stderr. */
int bt_read_late(const char *course, struct bt_late *l);
/* A submission's lateness and penalty under l, into row. */
void bt_apply_late(const struct bt_late *l, struct bt_row *row);
/* Each submission's time: from times (a CSV "entry,time" the instructor
 * made: Gradescope's created_at, GitHub's push time, pull.sh's marks),
 * else its arrival in the submissions folder (the entry's ctime, which
 * no one can set back). 0, or -1 said. */
int bt_submission_times(const char *times, struct bt_sub *s, int n);
/* "2026-12-01 23:59:00 UTC" */
void bt_fmt_time(char *buf, size_t n, long long t);

/* ---- the leaderboard (board.c) ----------------------------------------- */

enum { BT_BOARD_NAMES = 1, BT_BOARD_PSEUDONYMS = 2 };
struct bt_conf;

/* Add Gradescope's "leaderboard" to a results.json: each exercise that
 * passed, its speedup on its GPU model ("05-reduction/sum speedup, NVIDIA
 * H100 80GB HBM3"), from the grader's TSV (read without following a
 * link). 0, or -1. */
int bt_json_add_leaderboard(const char *json_path, const char *tsv_path);
/* The class page's leaderboard: per exercise and GPU model, the ten
 * fastest that passed, by id or by pseudonym (c->late.leaderboard). */
void bt_board_html(FILE *f, const struct bt_conf *c,
		   const struct bt_row *rows, int n);

/* ---- the run (main.c, sched.c) ---------------------------------------- */

/* SANDBOX=require (the default; "auto" is another name for it) or off:
 * without a sandbox nothing is graded unless it was turned off. */
enum bt_sandbox_mode { BT_SB_REQUIRE, BT_SB_OFF };

struct bt_conf {
	char repo[BT_PATH], build[BT_PATH], objs[BT_PATH];
	char grader[BT_PATH], devinfo[BT_PATH], cuda[BT_PATH];
	char subs[BT_PATH], out[BT_PATH], course[BT_PATH];
	char manifest[BT_PATH];
	/* The rules the grades are made under: a fingerprint of the grader,
	 * the graded labs' own files, the calibrations and the course file
	 * (batch.conf; each student's meta) */
	char rules[20];
	const char *regrade;       /* REGRADE=: "all" or ids, comma-separated */
	const char *ids, *times;   /* IDS=ids.csv, TIMES=times.csv */
	struct bt_late late;
	int chunk_auto;            /* no --chunk: make slurm-script picks one */
	const char *sm, *lab, *seed, *timeout_cap;
	int build_only;
	int jobs;
	enum bt_sandbox_mode sandbox;
	const char *gpus[BT_MAX_GPUS];
	int ngpus;
	char gpu_lock[BT_MAX_GPUS][160]; /* grader/run/gpustate.c's lock file */
	char gpu_uuid[BT_MAX_GPUS][96];  /* "" when not known */
	int gpu_minor[BT_MAX_GPUS];      /* its /dev/nvidia<N>; -1 unknown */
	const char *grader_args[BT_MAX_EXTRA];
	int ngrader_args;
	double build_timeout, grade_timeout;

	/* a Slurm array task grades chunk number task of the manifest */
	int chunk, task;
	/* make slurm-script: the grading array's partition, time, CPUs; its
	 * GPU's type (--gres=gpu:TYPE:1) or a node constraint, memory and
	 * exclusive nodes; the merge job's partition (a CPU one; none: the
	 * cluster's default); shell lines every job runs first (module load) */
	const char *partition, *time_limit, *cpus;
	const char *gpu_type, *constraint, *slurm_mem, *merge_partition;
	const char *prologue;
	int exclusive;
	const char *slurm_args[BT_MAX_EXTRA];
	int nslurm_args;

	/* the sandbox's settings (SANDBOX_USER, SANDBOX_NPROC, SANDBOX_MEM,
	 * SANDBOX_CGROUP) and, for tests, where the GPU nodes are */
	const char *sandbox_user;
	const char *nproc_opt, *mem_opt; /* as given (for Slurm's nodes) */
	long nproc;
	long long mem;
	char cgroup[BT_PATH];
	const char *devdir, *nvproc;

	/* resolved at start */
	char make[BT_PATH], bwrap[BT_PATH], self[BT_PATH];
	char work[BT_PATH];        /* where the batch's scratch folders go */
	/* The prebuilt objects every submission links: make is told they are
	 * up to date (-o), so a source touched since never sends a
	 * submission's build into the read-only build folder. */
	char **prebuilt;
	int nprebuilt;
	int sandboxed;
	char unsandboxed_why[256];
	enum bt_box_kind box_kind;
	long box_uid, box_gid;     /* the sandbox account; -1: the batch's */
	char box_desc[768];        /* what the sandbox is, in words */
	struct bt_labs labs;
};

/* The sandbox a submission's commands run in (scratch: its folder, made
 * here with its tmp/ and given to the sandbox account); gpu: the index in
 * c->gpus of the GPU it may use, -1 for none. -1 when scratch/tmp cannot
 * be made. */
int bt_conf_box(const struct bt_conf *c, const char *scratch, int gpu,
		struct bt_box *b);
/* Grade subs[0..n-1] (those not skipped); 0 all finished, 1 some failed,
 * 130 interrupted. */
int bt_schedule(struct bt_conf *c, struct bt_sub *subs, int n);
/* Was s graded in this run? */
int bt_sub_done(const struct bt_sub *s);
/* Run a command to its end: its exit code (128 + signal; 124 when it ran
 * past timeout_s and was killed) in *status; -1 if it could not start.
 * Output to out_path, errors to err_path (NULL: to out_path too; out_path
 * BT_STDIO: this process's own). fsize: RLIMIT_FSIZE for it (-1: none). */
#define BT_STDIO ""
int bt_run(struct bt_args *a, const char *out_path, const char *err_path,
	   double timeout_s, long fsize, const char *cuda_visible, int *status);
/* Rebuild gradebook.csv, verdicts.csv, scores.csv, summary.txt and
 * audit.tsv from students/. */
int bt_merge(const struct bt_conf *c, struct bt_sub *subs, int n, int quiet);
/* class.html in out: each exercise's verdict counts, points and speedups
 * over the class (classpage.c). 0, or -1. */
int bt_write_classpage(const struct bt_conf *c, const struct bt_row *rows,
		       int n, const char *title);

/* ---- Slurm (slurm.c) ------------------------------------------------ */

/* Write out/slurm/{manifest,grade.sbatch,merge.sbatch,submit.sh}. */
int bt_slurm_script(const struct bt_conf *c, const struct bt_sub *subs,
		    int n, const char *self);
/* Read a manifest: one submission entry name per line. */
int bt_read_manifest(const char *path, char ***names);

#endif /* BATCH_H */
