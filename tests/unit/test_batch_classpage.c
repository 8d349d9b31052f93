/* SPDX-License-Identifier: MIT */
/*
 * test_batch_classpage.c - tools/batch/classpage.c: class.html from a
 * class's students/<id>/results.tsv, as bt_merge() calls it: the verdict
 * counts, the points' histogram, the median speedup of those that passed
 * and the tiers, each as the page's data- attributes; nothing of what a
 * student's file holds becomes markup.
 */
#include "unit.h"

#include <sys/stat.h>

#include "book.h"
#include "classpage.h"
#include "conf.h"
#include "lablist.h"
#include "row.h"
#include "util.h"

#define HEAD "lab\texercise\tverdict\tpoints\tmax_points\tspeedup\ttier_speedups\n"

/* Five students on sum (PASS 2x, 4x, 6x; WRONG; NOT_IMPLEMENTED). */
static const char *const tsv[5] = {
	HEAD "05-reduction\tsum\tPASS\t60\t100\t2.0000\t2.000 4.000 6.000\n",
	HEAD "05-reduction\tsum\tPASS\t80\t100\t4.0000\t2.000 4.000 6.000\n",
	HEAD "05-reduction\tsum\tPASS\t100\t100\t6.0000\t2.100 4.200 6.300\n",
	HEAD "05-reduction\tsum\tWRONG\t0\t100\t0.0000\t-\n",
	HEAD "05-reduction\tsum\tNOT_IMPLEMENTED\t0\t100\t0.0000\t-\n",
};

static void classpage_counts_the_class(void **state)
{
	static struct bt_conf c;
	struct bt_row rows[5];
	char *dir = unit_tmpdir(), path[1400], *html;

	(void)state;
	assert_non_null(dir);
	memset(&c, 0, sizeof(c));
	bt_add_lab(&c.labs, "05-reduction", "sum", 1);
	bt_fmt(c.out, sizeof(c.out), "%s", dir);
	unit_path(path, sizeof(path), dir, "students");
	mkdir(path, 0755);
	for (int i = 0; i < 5; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		bt_fmt(rows[i].id, sizeof(rows[i].id), "s%d<b>", i);
		bt_fmt(path, sizeof(path), "%s/students/%s", dir, rows[i].id);
		mkdir(path, 0755);
		bt_fmt(path, sizeof(path), "%s/students/%s/results.tsv", dir,
			 rows[i].id);
		unit_write(path, tsv[i]);
		bt_fmt(path, sizeof(path), "%s/students/%s/meta", dir, rows[i].id);
		unit_write(path, "sandbox bwrap\n");
		bt_fmt(path, sizeof(path), "%s/students/%s", dir, rows[i].id);
		assert_int_equal(bt_read_student(path, &c.labs, &rows[i]), 0);
	}
	assert_int_equal(bt_write_classpage(&c, rows, 5, "subs <i>x</i>"), 0);
	unit_path(path, sizeof(path), dir, "class.html");
	html = unit_read(path);
	assert_non_null(html);
	assert_contains(html, "data-verdict=\"PASS\" data-count=\"3\"");
	assert_contains(html, "data-verdict=\"WRONG\" data-count=\"1\"");
	assert_contains(html, "data-verdict=\"NOT_IMPLEMENTED\" data-count=\"1\"");
	/* 0, 0 in the first tenth; 60, 80 and 100 (the last, capped). */
	assert_contains(html, "data-bin=\"0\" data-count=\"2\"");
	assert_contains(html, "data-bin=\"6\" data-count=\"1\"");
	assert_contains(html, "data-bin=\"8\" data-count=\"1\"");
	assert_contains(html, "data-bin=\"9\" data-count=\"1\"");
	assert_contains(html, "data-median=\"4.0000\" data-n=\"3\"");
	assert_contains(html, "tier\" data-value=\"4.000\"");
	assert_contains(html, "subs &lt;i&gt;x&lt;/i&gt;");
	/* No student is named on it. */
	assert_null(strstr(html, "s0"));
	free(html);
	unit_rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classpage_counts_the_class),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
