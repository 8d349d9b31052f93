/* SPDX-License-Identifier: MIT */
/*
 * test_batch.c - tools/batch: which files of a submission are taken and
 * why the rest is not, submission ids, taking files out of folders and
 * archives (with links, "..", absolute paths and duplicates), the grader's
 * TSV read back, the gradebook and the class summary, publishing a
 * student's results atomically and recovering from a crash in between,
 * the sandbox's bwrap arguments, quoting, and the Slurm scripts.
 */
#include "unit.h"

#include <sys/stat.h>

#include "args.h"
#include "book.h"
#include "collect.h"
#include "conf.h"
#include "files.h"
#include "json.h"
#include "lablist.h"
#include "match.h"
#include "roster.h"
#include "sandbox.h"
#include "slurm.h"
#include "sub.h"
#include "summary.h"
#include "util.h"
#include <jansson.h>

/* The labs of the tests: 05 (sum, argmax), 06 (rmsnorm), 09 (sum too). */
static void class_labs(struct bt_labs *l, int with_09)
{
	memset(l, 0, sizeof(*l));
	bt_add_lab(l, "05-reduction", "sum argmax", 1);
	bt_add_lab(l, "06-rmsnorm", "rmsnorm", 0);
	if (with_09)
		bt_add_lab(l, "09-other", "sum", 1);
}

static void mkpath(const char *dir, const char *rel, const char *text)
{
	char path[1024], *slash;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	assert_int_equal(bt_mkdirs(path), 0);
	*slash = '/';
	unit_write(path, text);
}

/* ---- bt_match ---------------------------------------------------------- */

static void expect_match(const struct bt_labs *l, const char *path,
			 const char *lab, const char *ex, int depth)
{
	char why[256] = "";
	int d, i = bt_match(l, path, &d, why, sizeof(why));

	if (i < 0)
		fail_msg("%s: not taken (%s)", path, why);
	assert_string_equal(l->ex[i].lab, lab);
	assert_string_equal(l->ex[i].name, ex);
	assert_int_equal(d, depth);
}

static char last_why[256]; /* expect_ignored()'s last reason */

static void expect_ignored(const struct bt_labs *l, const char *path,
			   const char *reason)
{
	char why[256] = "";
	int d;

	assert_int_equal(bt_match(l, path, &d, why, sizeof(why)), -1);
	assert_contains(why, reason);
	snprintf(last_why, sizeof(last_why), "%s", why);
}

static void test_match_lab_folders(void **state)
{
	struct bt_labs l;

	(void)state;
	class_labs(&l, 0);
	expect_match(&l, "05-reduction/sum.cu", "05-reduction", "sum", 2);
	expect_match(&l, "./05-reduction/argmax.cu", "05-reduction", "argmax", 2);
	expect_match(&l, "alice/labs/05-reduction/sum.cu", "05-reduction", "sum", 4);
	expect_match(&l, "sum.cu", "05-reduction", "sum", 1);
	expect_match(&l, "alice/argmax.cu", "05-reduction", "argmax", 2);
}

static void test_match_refuses(void **state)
{
	struct bt_labs l;

	(void)state;
	class_labs(&l, 0);
	expect_ignored(&l, "05-reduction/naive.cu",
		       "not a file students may edit (lab 05-reduction's are "
		       "sum.cu, argmax.cu)");
	expect_ignored(&l, "05-reduction/lab.c", "not a file students may edit");
	expect_ignored(&l, "notes.txt", "not a file students may edit");
	expect_ignored(&l, "../05-reduction/sum.cu", "\"..\"");
	expect_ignored(&l, "05-reduction/../../sum.cu", "\"..\"");
	expect_ignored(&l, "/etc/05-reduction/sum.cu", "absolute");
	expect_ignored(&l, ".git/05-reduction/sum.cu", "hidden folder");
	expect_ignored(&l, "05-reduction/s$um.cu", "unusual characters");
	expect_ignored(&l, "06-rmsnorm/rmsnorm.cu", "not graded in this batch");
	expect_ignored(&l, "rmsnorm.cu", "not graded in this batch");
	expect_ignored(&l, ".cu", "not a file students may edit");
}

static void test_match_ambiguous_flat(void **state)
{
	struct bt_labs l;

	(void)state;
	class_labs(&l, 1);
	expect_ignored(&l, "sum.cu", "several labs have an exercise sum");
	expect_match(&l, "09-other/sum.cu", "09-other", "sum", 2);
	expect_match(&l, "x/05-reduction/sum.cu", "05-reduction", "sum", 3);
	expect_match(&l, "argmax.cu", "05-reduction", "argmax", 1);
}

/* A near miss of a file name is ignored, and the report says which
 * file was meant. */
static void test_match_did_you_mean(void **state)
{
	struct bt_labs l;

	(void)state;
	class_labs(&l, 0);
	expect_ignored(&l, "Sum.cu", "did you mean 05-reduction/sum.cu?");
	expect_ignored(&l, "05-reduction/SUM.cu", "did you mean 05-reduction/sum.cu?");
	expect_ignored(&l, "sums.cu", "did you mean 05-reduction/sum.cu?");
	expect_ignored(&l, "argmx.cu", "did you mean 05-reduction/argmax.cu?");
	expect_ignored(&l, "sum.cpp", "did you mean 05-reduction/sum.cu?");
	expect_ignored(&l, "sum.cu.txt", "did you mean 05-reduction/sum.cu?");
	/* Far from every exercise, or of a lab not graded: no guess. */
	expect_ignored(&l, "notes.txt", "not a file students may edit");
	assert_null(strstr(last_why, "did you mean"));
	expect_ignored(&l, "05-reduction/naive.cu", "lab 05-reduction's are");
	assert_null(strstr(last_why, "did you mean"));
	expect_ignored(&l, "rmsnorm.cu", "not graded in this batch");
}

/* LAB= as a list, and a course's exercises alone. */
static void test_select_lists(void **state)
{
	char *dir = unit_tmpdir(), mk[1024];
	struct bt_labs l;

	(void)state;
	mkpath(dir, "05-reduction/lab.mk", "EXERCISES := sum argmax\n");
	mkpath(dir, "06-rmsnorm/lab.mk", "EXERCISES := rmsnorm\n");
	mkpath(dir, "07-fusion/lab.mk", "EXERCISES = gelu softmax\n");
	assert_int_equal(bt_read_labs(dir, "reduction 07-fusion", &l), 0);
	assert_true(l.ex[0].selected && l.ex[1].selected);
	assert_false(l.ex[2].selected);
	assert_true(l.ex[3].selected && l.ex[4].selected);
	assert_int_equal(bt_select_exercises(&l, "05-reduction/argmax\n"
						 "07-fusion/gelu\n"), 0);
	assert_false(l.ex[0].selected);
	assert_true(l.ex[1].selected && l.ex[3].selected);
	assert_false(l.ex[4].selected);
	/* "gelu" is not "gelu_x", nor a prefix of a line. */
	assert_int_equal(bt_select_exercises(&l, "07-fusion/gelu_x\nx05-reduction/sum\n"), -1);
	snprintf(mk, sizeof(mk), "rm -rf '%s'", dir);
	assert_int_equal(system(mk), 0);
	free(dir);
}

static void test_read_labs(void **state)
{
	char *dir = unit_tmpdir(), mk[1024];
	struct bt_labs l;

	(void)state;
	snprintf(mk, sizeof(mk), "%s/05-reduction", dir);
	bt_mkdirs(mk);
	mkpath(dir, "05-reduction/lab.mk",
	       "# EXERCISES: the files students edit\nEXERCISES := sum argmax\n"
	       "LAB_SRCS := lab.c\n");
	mkpath(dir, "07-fusion/lab.mk", "EXERCISES = gelu softmax\n");
	mkpath(dir, "08-nolab/README", "no lab.mk here\n");
	assert_int_equal(bt_read_labs(dir, "fusion", &l), 0);
	assert_int_equal(l.n, 4);
	assert_string_equal(l.ex[0].name, "sum");
	assert_false(l.ex[0].selected);
	assert_string_equal(l.ex[3].lab, "07-fusion");
	assert_string_equal(l.ex[3].name, "softmax");
	assert_true(l.ex[3].selected);
	assert_int_equal(bt_read_labs(dir, NULL, &l), 0);
	assert_true(l.ex[0].selected && l.ex[2].selected);
	assert_int_equal(bt_read_labs(dir, "nosuchlab", &l), -1);
	snprintf(mk, sizeof(mk), "rm -rf '%s'", dir);
	assert_int_equal(system(mk), 0);
	free(dir);
}

/* ---- submissions ------------------------------------------------------- */

static void test_sub_id(void **state)
{
	char id[BT_ID_LEN];

	(void)state;
	assert_int_equal(bt_sub_id("alice.tar.gz", 0, id, sizeof(id)), BT_TAR);
	assert_string_equal(id, "alice");
	assert_int_equal(bt_sub_id("bob.tgz", 0, id, sizeof(id)), BT_TAR);
	assert_string_equal(id, "bob");
	assert_int_equal(bt_sub_id("c d;e.zip", 0, id, sizeof(id)), BT_ZIP);
	assert_string_equal(id, "c_d_e");
	assert_int_equal(bt_sub_id("dave", 1, id, sizeof(id)), BT_DIR);
	assert_string_equal(id, "dave");
	assert_int_equal(bt_sub_id("..", 1, id, sizeof(id)), BT_DIR);
	assert_string_equal(id, "_.");
	assert_int_equal(bt_sub_id("x.tar.xz", 0, id, sizeof(id)), BT_TAR);
	assert_int_equal(bt_sub_id("notes.txt", 0, id, sizeof(id)), -1);
	assert_int_equal(bt_sub_id(".zip", 0, id, sizeof(id)), -1); /* no name */
}

static void test_list_subs(void **state)
{
	char *dir = unit_tmpdir(), cmd[1200];
	struct bt_sub *s;
	int n;

	(void)state;
	mkpath(dir, "alice/05-reduction/sum.cu", "x");
	mkpath(dir, "alice.zip", "x");
	mkpath(dir, "bob.tar.gz", "x");
	mkpath(dir, "README", "not a submission");
	mkpath(dir, ".hidden/x", "x");
	n = bt_list_subs(dir, &s);
	assert_int_equal(n, 3);
	assert_string_equal(s[0].name, "alice");
	assert_string_equal(s[0].id, "alice");
	assert_int_equal(s[0].kind, BT_DIR);
	assert_string_equal(s[1].name, "alice.zip");
	assert_string_equal(s[1].id, "alice.zip"); /* not a second "alice" */
	assert_string_equal(s[2].id, "bob");
	assert_int_equal(s[2].kind, BT_TAR);
	bt_free_subs(s, n);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

static int has_note(const struct bt_sub *s, const char *path, const char *why)
{
	for (int i = 0; i < s->nnotes; i++)
		if (!strcmp(s->notes[i].path, path) && strstr(s->notes[i].why, why))
			return 1;
	return 0;
}

static void test_offer_prefers_shallow(void **state)
{
	struct bt_labs l;
	struct bt_sub s;

	(void)state;
	class_labs(&l, 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(bt_offer(&s, &l, 0, "old/05-reduction/sum.cu", 3), 1);
	assert_int_equal(bt_offer(&s, &l, 0, "05-reduction/sum.cu", 2), 1);
	assert_int_equal(bt_offer(&s, &l, 0, "z/05-reduction/sum.cu", 3), 0);
	/* A tie on depth goes to the first in byte order: '0' < 'a'. */
	assert_int_equal(bt_offer(&s, &l, 0, "a/sum.cu", 2), 0);
	assert_string_equal(s.from[0], "05-reduction/sum.cu");
	assert_true(has_note(&s, "old/05-reduction/sum.cu", "another copy was taken"));
	assert_true(has_note(&s, "z/05-reduction/sum.cu", "another copy was taken"));
	free(s.notes);
}

static unsigned long long collect_dir(const char *root, const char *dest,
				      struct bt_sub *s, const struct bt_labs *l)
{
	char stage[1024];

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", root);
	snprintf(s->name, sizeof(s->name), "alice");
	snprintf(s->id, sizeof(s->id), "alice");
	s->kind = BT_DIR;
	snprintf(stage, sizeof(stage), "%s/stage", dest);
	assert_int_equal(bt_collect(s, l, dest, stage, NULL), 0);
	return s->fp;
}

static void test_collect_folder(void **state)
{
	char *dir = unit_tmpdir(), root[1024], dest[1024], path[1200], *text;
	unsigned long long fp1, fp2;
	struct bt_labs l;
	struct bt_sub s;

	(void)state;
	class_labs(&l, 0);
	snprintf(root, sizeof(root), "%s/sub", dir);
	snprintf(dest, sizeof(dest), "%s/src", dir);
	mkpath(root, "05-reduction/sum.cu", "/* the one */");
	mkpath(root, "old/05-reduction/sum.cu", "/* older */");
	mkpath(root, "05-reduction/lab.c", "/* mine */");
	mkpath(root, "notes.txt", "notes");
	snprintf(path, sizeof(path), "%s/05-reduction/argmax.cu", root);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	fp1 = collect_dir(root, dest, &s, &l);
	assert_int_equal(s.ntaken, 1);
	assert_string_equal(s.from[0], "05-reduction/sum.cu");
	assert_string_equal(s.from[1], "");
	snprintf(path, sizeof(path), "%s/05-reduction/sum.cu", dest);
	text = bt_read(path, 100);
	assert_non_null(text);
	assert_string_equal(text, "/* the one */");
	free(text);
	snprintf(path, sizeof(path), "%s/05-reduction/argmax.cu", dest);
	assert_false(bt_exists(path));
	assert_true(has_note(&s, "05-reduction/argmax.cu", "symbolic link"));
	assert_true(has_note(&s, "05-reduction/lab.c", "not a file students may edit"));
	assert_true(has_note(&s, "old/05-reduction/sum.cu", "another copy"));
	assert_true(has_note(&s, "notes.txt", "not a file"));
	free(s.notes);

	/* Same files, same fingerprint; another sum, another one. */
	assert_int_equal(bt_rmtree(dest), 0);
	fp2 = collect_dir(root, dest, &s, &l);
	free(s.notes);
	assert_true(fp1 == fp2);
	mkpath(root, "05-reduction/sum.cu", "/* changed */");
	fp2 = collect_dir(root, dest, &s, &l);
	free(s.notes);
	assert_true(fp1 != fp2);
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

static void test_collect_tar(void **state)
{
	char *dir = unit_tmpdir(), cmd[4096], dest[1024], stage[1024], path[1200];
	struct bt_labs l;
	struct bt_sub s;
	FILE *f;

	(void)state;
	class_labs(&l, 0);
	mkpath(dir, "in/05-reduction/sum.cu", "/* sum */");
	mkpath(dir, "in/evil.cu", "/* evil */");
	mkpath(dir, "in/06-rmsnorm/rmsnorm.cu", "/* another lab */");
	snprintf(cmd, sizeof(cmd),
		 "tar -czf '%s/a.tar.gz' -C '%s/in' -P "
		 "--transform 's|^evil.cu$|../../argmax.cu|' "
		 "evil.cu 05-reduction/sum.cu 06-rmsnorm/rmsnorm.cu 2> /dev/null",
		 dir, dir);
	if (system(cmd) != 0)
		skip();
	memset(&s, 0, sizeof(s));
	snprintf(s.path, sizeof(s.path), "%s/a.tar.gz", dir);
	snprintf(s.name, sizeof(s.name), "a.tar.gz");
	s.kind = BT_TAR;
	snprintf(dest, sizeof(dest), "%s/w/src", dir);
	snprintf(stage, sizeof(stage), "%s/w/stage", dir);
	assert_int_equal(bt_collect(&s, &l, dest, stage, NULL), 0);
	assert_string_equal(s.error, "");
	assert_int_equal(s.ntaken, 1);
	assert_true(has_note(&s, "../../argmax.cu", "\"..\""));
	assert_true(has_note(&s, "06-rmsnorm/rmsnorm.cu", "not graded in this batch"));
	snprintf(path, sizeof(path), "%s/05-reduction/sum.cu", dest);
	assert_true(bt_exists(path));
	snprintf(path, sizeof(path), "%s/argmax.cu", dir);
	assert_false(bt_exists(path)); /* nothing escaped */
	assert_false(bt_exists(stage)); /* the stage is gone */
	free(s.notes);

	/* Not an archive at all: an error, nothing taken. */
	snprintf(path, sizeof(path), "%s/b.zip", dir);
	f = fopen(path, "w");
	fputs("this is not a zip", f);
	fclose(f);
	memset(&s, 0, sizeof(s));
	snprintf(s.path, sizeof(s.path), "%s", path);
	s.kind = BT_ZIP;
	snprintf(dest, sizeof(dest), "%s/w2/src", dir);
	snprintf(stage, sizeof(stage), "%s/w2/stage", dir);
	assert_int_equal(bt_collect(&s, &l, dest, stage, NULL), 0);
	if (!strstr(s.error, "not installed"))
		assert_contains(s.error, "could not read the archive");
	assert_int_equal(s.ntaken, 0);
	free(s.notes);
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

/* ---- results and the gradebook ---------------------------------------- */

static const char tsv[] =
	"lab\texercise\tverdict\tpoints\tmax_points\tspeedup\tsettings\n"
	"05-reduction\tsum\tPASS\t87.5\t100\t6.1\tlab\n"
	"05-reduction\targmax\tCOMPILE_ERROR\t0\t100\t0\tlab\n"
	"05-reduction\tnosuch\tPASS\t5\t5\t0\tlab\n";

static void test_read_tsv(void **state)
{
	struct bt_labs l;
	struct bt_row row;
	(void)state;
	class_labs(&l, 0);
	assert_int_equal(bt_read_tsv(tsv, &l, &row), 2);
	assert_string_equal(row.cell[0].verdict, "PASS");
	assert_near(row.cell[0].points, 87.5, 1e-12);
	assert_near(row.total, 87.5, 1e-12);
	assert_near(row.max, 200, 1e-12);
	assert_false(row.have[2]);
	assert_string_equal(row.cell[1].verdict, "COMPILE_ERROR");
	assert_int_equal(bt_read_tsv("lab\texercise\n05-reduction\tsum\n", &l,
				     &row), -1);
	assert_int_equal(bt_read_tsv("", &l, &row), -1);
}

static void rows3(struct bt_labs *l, struct bt_row *rows)
{
	class_labs(l, 0);
	memset(rows, 0, 3 * sizeof(*rows));
	snprintf(rows[0].id, BT_ID_LEN, "alice");
	rows[0].graded = rows[0].sandboxed = 1;
	bt_read_tsv(tsv, l, &rows[0]);
	snprintf(rows[1].id, BT_ID_LEN, "bob,jr");
	rows[1].graded = rows[1].sandboxed = 1;
	bt_read_tsv("lab\texercise\tverdict\tpoints\tmax_points\n"
		    "05-reduction\tsum\tWRONG\t0\t100\n"
		    "05-reduction\targmax\tPASS\t100\t100\n", l, &rows[1]);
	snprintf(rows[2].id, BT_ID_LEN, "carol");
}

static char *to_text(void (*fn)(FILE *, const struct bt_labs *,
				const struct bt_row *, int, int),
		     const struct bt_labs *l, const struct bt_row *rows, int n,
		     int flag)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	fn(m, l, rows, n, flag);
	fclose(m);
	return text;
}

static void test_gradebook_csv(void **state)
{
	struct bt_row rows[3];
	struct bt_labs l;
	char *text;

	(void)state;
	rows3(&l, rows);
	text = to_text(bt_write_gradebook, &l, rows, 3, 0);
	assert_string_equal(text,
		"student,05-reduction/sum,05-reduction/argmax,total,max,status\n"
		"alice,87.5,0,87.5,200,graded\n"
		"\"bob,jr\",0,100,100,200,graded\n"
		"carol,,,,,not graded\n");
	free(text);
	text = to_text(bt_write_gradebook, &l, rows, 3, 1);
	assert_string_equal(text,
		"student,05-reduction/sum,05-reduction/argmax,status\n"
		"alice,PASS,COMPILE_ERROR,graded\n"
		"\"bob,jr\",WRONG,PASS,graded\n"
		"carol,,,not graded\n");
	free(text);
	rows[1].sandboxed = 0;
	text = to_text(bt_write_gradebook, &l, rows, 3, 0);
	assert_contains(text, "\"bob,jr\",0,100,100,200,graded UNSANDBOXED\n");
	free(text);
}

static void scores_fn(FILE *f, const struct bt_labs *l,
		      const struct bt_row *rows, int n, int flag)
{
	(void)l;
	(void)flag;
	bt_write_scores(f, rows, n);
}

/* scores.csv: one score per student, for a platform's import. */
static void test_scores_csv(void **state)
{
	struct bt_row rows[3];
	struct bt_labs l;
	char *text;

	(void)state;
	rows3(&l, rows);
	text = to_text(scores_fn, &l, rows, 3, 0);
	assert_string_equal(text,
		"student,score,max_score,percent,status\n"
		"alice,87.5,200,43.8,graded\n"
		"\"bob,jr\",100,200,50.0,graded\n"
		"carol,,,,not graded\n");
	free(text);
}

/* The audit list: audit words, REJECTED and SUSPICIOUS; older TSVs. */
static void audit_fn(FILE *f, const struct bt_labs *l,
		     const struct bt_row *rows, int n, int flag)
{
	(void)flag;
	bt_write_audit(f, l, rows, n);
}

static void test_audit(void **state)
{
	struct bt_row rows[3];
	struct bt_labs l;
	char *text;

	(void)state;
	rows3(&l, rows);
	/* rows3's TSVs have no audit column: nothing to look at. */
	assert_string_equal(rows[0].cell[0].audit, "-");
	text = to_text(audit_fn, &l, rows, 3, 0);
	assert_string_equal(text, "student\texercise\tverdict\taudit\n");
	free(text);
	bt_read_tsv("lab\texercise\tverdict\tpoints\tmax_points\ttechnique\taudit\n"
		    "05-reduction\tsum\tPASS\t100\t100\tok\tinline-ptx,streams\n"
		    "05-reduction\targmax\tPASS\t100\t100\tok\t-\n", &l,
		    &rows[0]);
	assert_string_equal(rows[0].cell[0].audit, "inline-ptx,streams");
	bt_read_tsv("lab\texercise\tverdict\tpoints\tmax_points\taudit\n"
		    "05-reduction\tsum\tREJECTED\t0\t100\t-\n"
		    "05-reduction\targmax\tSUSPICIOUS\t0\t100\n", &l,
		    &rows[1]);
	assert_string_equal(rows[1].cell[1].audit, "-"); /* a short row */
	text = to_text(audit_fn, &l, rows, 3, 0);
	assert_string_equal(text,
		"student\texercise\tverdict\taudit\n"
		"alice\t05-reduction/sum\tPASS\tinline-ptx,streams\n"
		"bob,jr\t05-reduction/sum\tREJECTED\t-\n"
		"bob,jr\t05-reduction/argmax\tSUSPICIOUS\t-\n");
	free(text);
}

static void summary_fn(FILE *f, const struct bt_labs *l,
		       const struct bt_row *rows, int n, int built_only)
{
	bt_write_summary(f, l, rows, n, "hw3", built_only);
}

static void test_summary(void **state)
{
	struct bt_row rows[3];
	struct bt_labs l;
	char *text;

	(void)state;
	rows3(&l, rows);
	text = to_text(summary_fn, &l, rows, 3, 0);
	assert_contains(text, "Class summary: hw3");
	assert_contains(text, "3 submissions: 2 graded, 1 not graded");
	assert_contains(text, "Every submission was built and run in the sandbox");
	assert_contains(text, "Total points (of 200): min 87.5, 25% 90.6, "
			      "median 93.8, 75% 96.9, max 100, mean 93.8");
	assert_contains(text, "  40-59%    2  ##\n");
	assert_contains(text, "05-reduction/sum               100    43.8    "
			      "43.8     1     1     0");
	assert_contains(text, "05-reduction/sum             PASS 1, WRONG 1");
	assert_contains(text, "COMPILE_ERROR   05-reduction/argmax          alice");
	assert_contains(text, "Not graded yet");
	assert_contains(text, "  carol\n");
	free(text);

	rows[0].sandboxed = 0;
	text = to_text(summary_fn, &l, rows, 3, 1);
	assert_contains(text, "WARNING: UNSANDBOXED: 1 submission was graded "
			      "WITHOUT a sandbox (SANDBOX=off)");
	assert_contains(text, "no points were given");
	assert_null(strstr(text, "Total points"));
	free(text);
}

/* ---- publishing atomically --------------------------------------------- */

static void folder_with(const char *dir, const char *name, const char *text)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(bt_mkdirs(path), 0);
	snprintf(path, sizeof(path), "%s/%s/meta", dir, name);
	unit_write(path, text);
}

static char *meta_of(const char *dir, const char *name)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/%s/meta", dir, name);
	return bt_read(path, 100);
}

static void test_publish_and_recover(void **state)
{
	char *dir = unit_tmpdir(), tmp[1200], *m;

	(void)state;
	/* First result. */
	folder_with(dir, ".tmp-alice", "one");
	snprintf(tmp, sizeof(tmp), "%s/.tmp-alice", dir);
	assert_int_equal(bt_publish(dir, "alice", tmp), 0);
	m = meta_of(dir, "alice");
	assert_string_equal(m, "one");
	free(m);
	/* A regrade replaces it whole, and leaves nothing beside it. */
	folder_with(dir, ".tmp-alice", "two");
	assert_int_equal(bt_publish(dir, "alice", tmp), 0);
	m = meta_of(dir, "alice");
	assert_string_equal(m, "two");
	free(m);
	assert_int_equal(unit_dir_entries(dir), 1);

	/* A crash while writing: the half-made folder goes, the result stays. */
	folder_with(dir, ".tmp-alice", "half");
	bt_recover(dir, "alice");
	m = meta_of(dir, "alice");
	assert_string_equal(m, "two");
	free(m);
	assert_int_equal(unit_dir_entries(dir), 1);

	/* A crash between the two renames: the old result comes back. */
	snprintf(tmp, sizeof(tmp), "mv '%s/alice' '%s/.old-alice'", dir, dir);
	assert_int_equal(system(tmp), 0);
	bt_recover(dir, "alice");
	m = meta_of(dir, "alice");
	assert_string_equal(m, "two");
	free(m);
	/* A crash after them: the new one stays, the old one goes. */
	folder_with(dir, ".old-alice", "older");
	bt_recover(dir, "alice");
	m = meta_of(dir, "alice");
	assert_string_equal(m, "two");
	free(m);
	assert_int_equal(unit_dir_entries(dir), 1);
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

static void test_write_atomic(void **state)
{
	char *dir = unit_tmpdir(), path[1200], *text;

	(void)state;
	snprintf(path, sizeof(path), "%s/gradebook.csv", dir);
	assert_int_equal(bt_write_atomic(path, "a,b\n"), 0);
	assert_int_equal(bt_write_atomic(path, "c,d\n"), 0);
	text = bt_read(path, 100);
	assert_string_equal(text, "c,d\n");
	free(text);
	assert_int_equal(unit_dir_entries(dir), 1); /* no .tmp left */
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

/* ---- the sandbox's arguments -------------------------------------------- */

/* Where a holds s0 followed by s1 (either NULL: any); -1 if nowhere. */
static int arg_at(const struct bt_args *a, const char *s0, const char *s1)
{
	for (int i = 0; i + 1 < a->n; i++)
		if ((!s0 || !strcmp(a->v[i], s0)) &&
		    (!s1 || !strcmp(a->v[i + 1], s1)))
			return i;
	return -1;
}

static void test_box_argv(void **state)
{
	char *dir = unit_tmpdir(), input[1200], hide[1200], other[1200];
	char ro[1200], scratch[1200];
	struct bt_args a;
	struct bt_box b;
	int labs, tmpfs, robind, bind, sep, init;

	(void)state;
	snprintf(input, sizeof(input), "%s/labs", dir);
	snprintf(hide, sizeof(hide), "%s/labs/out", dir);
	snprintf(other, sizeof(other), "%s/subs", dir);
	snprintf(ro, sizeof(ro), "%s/build/sm90/lab", dir);
	snprintf(scratch, sizeof(scratch), "%s/labs/out/work/alice", dir);
	bt_mkdirs(hide);
	bt_mkdirs(other);
	memset(&b, 0, sizeof(b));
	b.bwrap = "/usr/bin/bwrap";
	b.kind = BT_BOX_USERNS;
	b.self = "/b/batch";
	b.uid = b.gid = -1;
	b.nproc = 99;
	b.mem = 1 << 30;
	b.repo = dir;
	b.input[b.ninput++] = input;
	b.hide[b.nhide++] = hide;
	b.hide[b.nhide++] = other;
	b.hide[b.nhide++] = "/no/such/folder";
	b.ro[b.nro++] = ro;
	b.scratch = scratch;
	b.gpu = 1;
	b.gpu_minor = -1;
	b.devdir = "/no/such/dev";
	b.cuda_visible = "1";
	bt_args_init(&a);
	assert_int_equal(bt_box_argv(&b, &a), 0);
	/* Not root, no cgroup: nothing to do before bwrap. */
	assert_string_equal(a.v[0], "/usr/bin/bwrap");
	assert_null(a.cgroup);
	assert_true(arg_at(&a, "--unshare-net", NULL) > 0);
	assert_true(arg_at(&a, "--unshare-pid", NULL) > 0);
	assert_true(arg_at(&a, "--unshare-user", NULL) > 0);
	assert_true(arg_at(&a, "--uid", "65534") > 0);
	assert_true(arg_at(&a, "--gid", "65534") > 0);
	assert_true(arg_at(&a, "--die-with-parent", NULL) > 0);
	assert_true(arg_at(&a, "--clearenv", NULL) > 0);
	assert_true(arg_at(&a, "--cap-drop", "ALL") > 0);
	assert_true(arg_at(&a, "CUDA_VISIBLE_DEVICES", "1") > 0);
	assert_true(arg_at(&a, "/sys", "/sys") > 0);
	assert_true(arg_at(&a, "--remount-ro", "/") > 0);
	assert_true(arg_at(&a, "--chdir", dir) > 0);
	assert_int_equal(arg_at(&a, "/no/such/folder", NULL), -1);
	assert_int_equal(arg_at(&a, "/etc/shadow", NULL), -1);
	/* The folders above a mount point are made open first. */
	assert_true(arg_at(&a, "--dir", "/etc") > 0);
	assert_true(arg_at(&a, "--dir", dir) < arg_at(&a, "--ro-bind", ro));
	/* Of the repository, its inputs alone: the folder is bwrap's own. */
	assert_int_equal(arg_at(&a, "--ro-bind", dir), -1);
	assert_true(arg_at(&a, "--dir", dir) > 0);
	/* The inputs, then what lies in them to hide (a folder in none is
	 * not there to hide), then the objects, then the scratch folder: a
	 * later mount covers an earlier one. */
	labs = arg_at(&a, "--ro-bind", input);
	tmpfs = arg_at(&a, "--tmpfs", hide);
	robind = arg_at(&a, "--ro-bind", ro);
	bind = arg_at(&a, "--bind", scratch);
	assert_true(labs > 0 && labs < tmpfs && tmpfs < robind && robind < bind);
	assert_int_equal(arg_at(&a, NULL, other), -1);
	assert_true(arg_at(&a, "--tmpfs", "/tmp") < labs);
	assert_true(arg_at(&a, "--ro-bind", "/b/batch") > 0);
	/* After bwrap's "--": the limits, then the command's "--". */
	sep = arg_at(&a, "--", "/b/batch");
	init = arg_at(&a, "/b/batch", "--box-init");
	assert_true(sep > bind && init == sep + 1);
	assert_true(arg_at(&a, "--nproc", "99") > init);
	assert_true(arg_at(&a, "--data", "1073741824") > init);
	assert_int_equal(arg_at(&a, "--uid", "-1"), -1);
	assert_string_equal(a.v[a.n - 1], "--");
	bt_args_free(&a);

	/* As root: the sandbox account outside, entered before bwrap; with
	 * a cgroup, memory.max instead of RLIMIT_DATA. */
	b.uid = b.gid = 4242;
	b.cgroup = "/sys/fs/cgroup/wb";
	assert_int_equal(bt_box_argv(&b, &a), 0);
	assert_string_equal(a.v[0], "/b/batch");
	assert_string_equal(a.v[1], "--box-enter");
	assert_true(arg_at(&a, "--uid", "4242") < arg_at(&a, "/usr/bin/bwrap", NULL));
	assert_true(arg_at(&a, "--cgroup", "/sys/fs/cgroup/wb") > 0);
	assert_true(arg_at(&a, "--mem", "1073741824") > 0);
	assert_int_equal(arg_at(&a, "--data", NULL), -1);
	assert_string_equal(a.cgroup, "/sys/fs/cgroup/wb");
	bt_args_free(&a);

	/* No user namespace: bwrap as root, --box-init becomes the account. */
	b.kind = BT_BOX_SETUID;
	b.cgroup = NULL;
	assert_int_equal(bt_box_argv(&b, &a), 0);
	assert_string_equal(a.v[0], "/usr/bin/bwrap");
	assert_int_equal(arg_at(&a, "--unshare-user", NULL), -1);
	assert_int_equal(arg_at(&a, "--cap-drop", "ALL"), -1);
	init = arg_at(&a, "/b/batch", "--box-init");
	assert_true(init > 0 && arg_at(&a, "--uid", "4242") > init);
	bt_args_free(&a);

	b.bwrap = NULL;
	assert_int_equal(bt_box_argv(&b, &a), 0);
	assert_int_equal(a.n, 0);
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

/* A fake /proc/driver/nvidia/gpus and /dev of two GPUs. */
static void fake_gpus(const char *dir)
{
	static const char *const nodes[] = { "nvidia0", "nvidia1", "nvidiactl",
		"nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset",
		"nvidia-caps/nvidia-cap1", "null" };
	char path[1200];

	for (size_t i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++)
		mkpath(dir, nodes[i], "");
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkpath(path, "0000:01:00.0/information",
	       "Model: \t\t Fake\nGPU UUID: \t GPU-aaaa\nBus Location: \t "
	       "0000:01:00.0\nDevice Minor: \t 0\n");
	mkpath(path, "0000:02:00.0/information",
	       "Model: \t\t Fake\nGPU UUID: \t GPU-bbbb\nBus Location: \t "
	       "0000:02:00.0\nDevice Minor: \t 1\nGPU Excluded:\t No\n");
}

static void test_gpu_nodes(void **state)
{
	char *dir = unit_tmpdir(), proc[1200], node[1200];
	struct bt_args a;
	struct bt_box b;

	(void)state;
	fake_gpus(dir);
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	assert_int_equal(bt_gpu_minor(proc, "GPU-bbbb"), 1);
	assert_int_equal(bt_gpu_minor(proc, "gpu-AAAA"), 0);
	assert_int_equal(bt_gpu_minor(proc, "GPU-cccc"), -1);
	assert_int_equal(bt_gpu_minor(proc, ""), -1);
	assert_int_equal(bt_gpu_minor("/no/such/proc", "GPU-aaaa"), -1);

	memset(&b, 0, sizeof(b));
	b.bwrap = "/usr/bin/bwrap";
	b.self = "/b/batch";
	b.uid = b.gid = -1;
	b.nproc = 10;
	b.repo = "/repo";
	b.scratch = "/out/work/alice";
	b.gpu = 1;
	b.gpu_minor = 1;
	b.devdir = dir;
	bt_args_init(&a);
	assert_int_equal(bt_box_argv(&b, &a), 0);
	snprintf(node, sizeof(node), "%s/nvidia1", dir);
	assert_true(arg_at(&a, node, "/dev/nvidia1") > 0);
	snprintf(node, sizeof(node), "%s/nvidiactl", dir);
	assert_true(arg_at(&a, node, "/dev/nvidiactl") > 0);
	assert_true(arg_at(&a, "--dev-bind", NULL) > 0);
	assert_true(arg_at(&a, NULL, "/dev/nvidia-uvm") > 0);
	assert_true(arg_at(&a, NULL, "/dev/nvidia-uvm-tools") > 0);
	assert_true(arg_at(&a, NULL, "/dev/nvidia-caps") > 0);
	assert_int_equal(arg_at(&a, NULL, "/dev/nvidia0"), -1);
	assert_int_equal(arg_at(&a, NULL, "/dev/nvidia-modeset"), -1);
	assert_int_equal(arg_at(&a, NULL, "/dev/null"), -1);
	bt_args_free(&a);

	/* Which node is its GPU's not known: every one. */
	b.gpu_minor = -1;
	assert_int_equal(bt_box_argv(&b, &a), 0);
	assert_true(arg_at(&a, NULL, "/dev/nvidia0") > 0);
	assert_true(arg_at(&a, NULL, "/dev/nvidia1") > 0);
	assert_true(arg_at(&a, NULL, "/dev/nvidia-modeset") > 0);
	assert_int_equal(arg_at(&a, NULL, "/dev/null"), -1);
	bt_args_free(&a);
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

/* ---- text helpers ------------------------------------------------------- */

static void test_quote_and_durations(void **state)
{
	char buf[64];

	(void)state;
	bt_shell_quote("it's", buf, sizeof(buf));
	assert_string_equal(buf, "'it'\\''s'");
	bt_shell_quote("/a b/c", buf, sizeof(buf));
	assert_string_equal(buf, "'/a b/c'");
	bt_fmt_duration(buf, sizeof(buf), 45);
	assert_string_equal(buf, "45 s");
	bt_fmt_duration(buf, sizeof(buf), 600);
	assert_string_equal(buf, "10 min");
	bt_fmt_duration(buf, sizeof(buf), 5400);
	assert_string_equal(buf, "1 h 30 min");
	assert_true(bt_path_inside("/a/b", "/a"));
	assert_true(bt_path_inside("/a", "/a"));
	assert_false(bt_path_inside("/ab", "/a"));
}

static void test_json_note(void **state)
{
	char *dir = unit_tmpdir(), path[1200], *text;
	json_error_t err;
	json_t *root;

	(void)state;
	snprintf(path, sizeof(path), "%s/results.json", dir);
	unit_write(path, "{\n  \"score\": 1,\n  \"output\": \"Graded on X.\",\n"
			 "  \"tests\": [{\"name\": \"a\", \"output\": \"PASS\"}]\n}\n");
	assert_int_equal(bt_json_add_note(path, "Taken:\n  \"sum.cu\"\t\x01\n"), 0);
	root = json_load_file(path, 0, &err);
	if (!root)
		fail_msg("not JSON any more: %s", err.text);
	assert_string_equal(json_string_value(json_object_get(root, "output")),
			    "Taken:\n  \"sum.cu\"\t\x01\nGraded on X.");
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(root, "tests"), 0), "output")), "PASS");
	json_decref(root);

	unit_write(path, "{\"tests\": [{\"output\": \"x\"}]}\n");
	assert_int_equal(bt_json_add_note(path, "note"), -1);
	text = bt_read(path, 100);
	assert_string_equal(text, "{\"tests\": [{\"output\": \"x\"}]}\n");
	free(text);
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

/* What a sandbox wrote is taken out only as one JSON object. */
static void test_json_valid(void **state)
{
	static const char *const good[] = {
		"{}", " {\"a\": [1, -2.5e+3, true, false, null, \"x\\u00e9\\n\"]} \n",
		"{\"score\": 0, \"tests\": [{\"output\": \"\xc3\xa9\"}]}",
	};
	static const char *const bad[] = {
		"", "[]", "{", "{\"a\" 1}", "{\"a\": 01}", "{\"a\": 1,}",
		"{\"a\": \"\x01\"}", "{\"a\": \"\\x\"}", "{\"a\": \"\\u12\"}",
		"{} {}", "{\"a\": tru}", "{\"a\": \"\xc3\"}", "{\"a\": .5}",
	};
	char *dir = unit_tmpdir(), from[1200], to[1200], link[1200], why[256];
	char deep[400];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!bt_json_valid(good[i]))
			fail_msg("refused: %s", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (bt_json_valid(bad[i]))
			fail_msg("taken: %s", bad[i]);
	/* Nesting: 60 levels are taken, 100 are not (the stack is safe). */
	for (int depth = 60; depth <= 100; depth += 40) {
		int o = snprintf(deep, sizeof(deep), "{\"a\": ");

		for (int i = 0; i < depth; i++)
			deep[o++] = '[';
		for (int i = 0; i < depth; i++)
			deep[o++] = ']';
		snprintf(deep + o, sizeof(deep) - o, "}");
		assert_int_equal(bt_json_valid(deep), depth == 60);
	}

	snprintf(from, sizeof(from), "%s/results.json", dir);
	snprintf(to, sizeof(to), "%s/taken.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	unit_write(from, "{\"score\": 1}\n");
	assert_int_equal(bt_take_json(from, to, 100, why, sizeof(why)), 0);
	assert_int_equal(bt_take_json(from, to, 5, why, sizeof(why)), -1);
	assert_int_equal(symlink(from, link), 0);
	assert_int_equal(bt_take_json(link, to, 100, why, sizeof(why)), -1);
	assert_contains(why, "a link is never followed");
	unit_write(from, "{\"score\": 1} trailing\n");
	assert_int_equal(bt_take_json(from, to, 100, why, sizeof(why)), -1);
	assert_contains(why, "not one JSON object");
	/* A file of the folder, or a link to one, is read; a link out of
	 * the folder, or a folder, is not. */
	assert_true(bt_inside_regular(to, dir));
	assert_true(bt_inside_regular(link, dir));
	remove(link);
	assert_int_equal(symlink("/etc/passwd", link), 0);
	assert_false(bt_inside_regular(link, dir));
	assert_false(bt_inside_regular(dir, dir));
	assert_false(bt_inside_regular("/etc/passwd", dir));
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

/* ---- Slurm ---------------------------------------------------------------- */

/* Run grade.sbatch in dir with sh, its devinfo saying compute capability
 * cc; what it printed into out. Its exit status. */
static int run_sbatch(const char *dir, const char *cc, char *out, size_t n)
{
	char cmd[2048], *text;
	int rc;

	snprintf(cmd, sizeof(cmd), "printf '#!/bin/sh\\necho name X\\necho cc %s\\n' "
		 "> '%s/devinfo' && chmod +x '%s/devinfo' && unset CUDA_HOME && SLURM_ARRAY_TASK_ID=0 sh '%s/slurm/grade.sbatch' "
		 "> '%s/sbatch.out' 2>&1", cc, dir, dir, dir, dir);
	rc = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s/sbatch.out", dir);
	text = bt_read(cmd, 1 << 16);
	snprintf(out, n, "%s", text ? text : "");
	free(text);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* A real cluster's settings: a GPU type, a constraint, memory, exclusive
 * nodes, a CPU partition for the merge, a prologue; and a node whose GPU
 * is not one the batch was built for grades nothing. */
static void test_slurm_cluster(void **state)
{
	static struct bt_conf c;
	char *dir = unit_tmpdir(), path[1200], out[4096], *text;
	struct bt_sub subs[1];

	(void)state;
	memset(&c, 0, sizeof(c));
	memset(subs, 0, sizeof(subs));
	snprintf(c.out, sizeof(c.out), "%s", dir);
	snprintf(c.subs, sizeof(c.subs), "/class/hw3");
	snprintf(c.devinfo, sizeof(c.devinfo), "%s/devinfo", dir);
	snprintf(c.cuda, sizeof(c.cuda), "/opt/cuda");
	snprintf(subs[0].name, sizeof(subs[0].name), "s0.zip");
	c.chunk = 1;
	c.time_limit = "01:00:00";
	c.cpus = "4";
	c.partition = "gpu";
	c.sm = "80 90";
	c.gpu_type = "a100";
	c.constraint = "a100|h100";
	c.slurm_mem = "32G";
	c.exclusive = 1;
	c.merge_partition = "cpu";
	c.prologue = "echo prologue ran; CUDA_HOME=/sw/cuda-12.4";
	assert_int_equal(bt_slurm_script(&c, subs, 1, "/bin/echo"), 0);
	snprintf(path, sizeof(path), "%s/slurm/grade.sbatch", dir);
	text = bt_read(path, 1 << 16);
	assert_contains(text, "#SBATCH --gres=gpu:a100:1\n");
	assert_contains(text, "#SBATCH --constraint=a100|h100\n");
	assert_contains(text, "#SBATCH --mem=32G\n");
	assert_contains(text, "#SBATCH --exclusive\n");
	assert_contains(text, "#SBATCH --partition=gpu\n");
	free(text);
	snprintf(path, sizeof(path), "%s/slurm/merge.sbatch", dir);
	text = bt_read(path, 1 << 16);
	assert_contains(text, "#SBATCH --partition=cpu\n");
	assert_contains(text, "echo prologue ran");
	assert_null(strstr(text, "gres"));
	assert_null(strstr(text, "--exclusive"));
	assert_null(strstr(text, "--constraint"));
	free(text);
	/* Run as a task would (the batch: echo): on an sm_75 node it stops
	 * before grading; on sm_90 it grades, with the prologue's toolkit. */
	assert_int_equal(run_sbatch(dir, "75", out, sizeof(out)), 1);
	assert_contains(out, "prologue ran");
	assert_contains(out, "its GPU is sm_75, not one this batch was built for (SM='80 90')");
	assert_null(strstr(out, "--submissions"));
	assert_int_equal(run_sbatch(dir, "90", out, sizeof(out)), 0);
	assert_contains(out, "--cuda /sw/cuda-12.4 --sm 80 90 --submissions /class/hw3");
	/* Without a prologue's CUDA_HOME, make's toolkit. */
	c.prologue = NULL;
	assert_int_equal(bt_slurm_script(&c, subs, 1, "/bin/echo"), 0);
	assert_int_equal(run_sbatch(dir, "80", out, sizeof(out)), 0);
	assert_contains(out, "--cuda /opt/cuda ");
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

static void test_slurm_script(void **state)
{
	static struct bt_conf c;
	char *dir = unit_tmpdir(), path[1200], *text, **names;
	struct bt_sub subs[5];

	(void)state;
	memset(&c, 0, sizeof(c));
	memset(subs, 0, sizeof(subs));
	snprintf(c.out, sizeof(c.out), "%s", dir);
	snprintf(c.subs, sizeof(c.subs), "/class/hw3");
	snprintf(c.repo, sizeof(c.repo), "/repo");
	c.lab = "05-reduction";
	c.chunk = 2;
	c.time_limit = "01:00:00";
	c.cpus = "4";
	c.partition = "gpu";
	c.slurm_args[c.nslurm_args++] = "--account=cs759";
	for (int i = 0; i < 5; i++)
		snprintf(subs[i].name, sizeof(subs[i].name), "s%d.zip", i);
	assert_int_equal(bt_slurm_script(&c, subs, 5, "/bin/batch"), 0);
	snprintf(path, sizeof(path), "%s/slurm/grade.sbatch", dir);
	text = bt_read(path, 1 << 16);
	assert_non_null(text);
	assert_contains(text, "#SBATCH --array=0-2\n");
	assert_contains(text, "#SBATCH --gres=gpu:1\n");
	assert_contains(text, "#SBATCH --partition=gpu\n");
	assert_contains(text, "#SBATCH --account=cs759\n");
	assert_contains(text, "#SBATCH --cpus-per-task=4\n");
	assert_contains(text, "--task \"$SLURM_ARRAY_TASK_ID\"");
	assert_contains(text, "--submissions '/class/hw3'");
	assert_contains(text, "--lab '05-reduction'");
	assert_contains(text, "--chunk '2'");
	/* A node without a sandbox grades nothing: require, by default. */
	assert_contains(text, "--sandbox 'require'");
	assert_null(strstr(text, "--sandbox-user"));
	free(text);
	snprintf(path, sizeof(path), "%s/slurm/merge.sbatch", dir);
	text = bt_read(path, 1 << 16);
	assert_contains(text, "\t--merge\n");
	assert_null(strstr(text, "gres"));
	/* Not the GPU partition: the cluster's default, or MERGE_PARTITION. */
	assert_null(strstr(text, "--partition"));
	assert_contains(text, "#SBATCH --account=cs759\n");
	free(text);
	snprintf(path, sizeof(path), "%s/slurm/submit.sh", dir);
	text = bt_read(path, 1 << 16);
	assert_contains(text, "--dependency=afterany:$job merge.sbatch");
	assert_contains(text, "job=${job%%;*}");
	free(text);
	snprintf(path, sizeof(path), "%s/slurm/manifest", dir);
	assert_int_equal(bt_read_manifest(path, &names), 5);
	assert_string_equal(names[4], "s4.zip");
	for (int i = 0; i < 5; i++)
		free(names[i]);
	free(names);

	c.build_only = 1;
	c.chunk = 5;
	c.sandbox = BT_SB_OFF;
	c.sandbox_user = "wb-sandbox";
	assert_int_equal(bt_slurm_script(&c, subs, 5, "/bin/batch"), 0);
	snprintf(path, sizeof(path), "%s/slurm/grade.sbatch", dir);
	text = bt_read(path, 1 << 16);
	assert_contains(text, "#SBATCH --array=0-0\n");
	assert_null(strstr(text, "gres"));
	assert_contains(text, "--build-only");
	assert_contains(text, "--sandbox 'off'");
	assert_contains(text, "--sandbox-user 'wb-sandbox'");
	free(text);
	assert_int_equal(bt_rmtree(dir), 0);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match_lab_folders),
		cmocka_unit_test(test_match_refuses),
		cmocka_unit_test(test_match_ambiguous_flat),
		cmocka_unit_test(test_match_did_you_mean),
		cmocka_unit_test(test_select_lists),
		cmocka_unit_test(test_read_labs),
		cmocka_unit_test(test_sub_id),
		cmocka_unit_test(test_list_subs),
		cmocka_unit_test(test_offer_prefers_shallow),
		cmocka_unit_test(test_collect_folder),
		cmocka_unit_test(test_collect_tar),
		cmocka_unit_test(test_read_tsv),
		cmocka_unit_test(test_gradebook_csv),
		cmocka_unit_test(test_scores_csv),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_publish_and_recover),
		cmocka_unit_test(test_write_atomic),
		cmocka_unit_test(test_box_argv),
		cmocka_unit_test(test_gpu_nodes),
		cmocka_unit_test(test_audit),
		cmocka_unit_test(test_json_valid),
		cmocka_unit_test(test_quote_and_durations),
		cmocka_unit_test(test_json_note),
		cmocka_unit_test(test_slurm_script),
		cmocka_unit_test(test_slurm_cluster),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
