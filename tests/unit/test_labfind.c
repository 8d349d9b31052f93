/* SPDX-License-Identifier: MIT */
/*
 * test_labfind.c - grader/labfind.c, the one place that finds labs: the
 * lab folders (only those with a lab.mk, sorted), LAB= as a list of
 * names, numbers and whole folder names, a word that names no lab, and
 * the exercises a lab.mk lists (comment lines naming EXERCISES aside);
 * then the project's own labs/, as the grader and make batch see them.
 */
#include "unit.h"

#include <sys/stat.h>

#include "labfind.h"

static void put(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *labs_tree(void)
{
	static char dir[] = "/tmp/wb-labfind-XXXXXX";
	char sub[600];

	strcpy(dir + sizeof(dir) - 7, "XXXXXX");
	assert_non_null(mkdtemp(dir));
	for (const char *const *n = (const char *const[]){ "02-shfl",
	     "01-warps", "05-reduction", "09-notalab", NULL }; *n; n++) {
		snprintf(sub, sizeof(sub), "%s/%s", dir, *n);
		assert_int_equal(mkdir(sub, 0755), 0);
	}
	put(dir, "01-warps/lab.mk", "# EXERCISES: the files\n"
	    "EXERCISES := branch  occupancy\nHEADERS := warps.h\n");
	put(dir, "02-shfl/lab.mk", "EXERCISES := scan\n");
	put(dir, "05-reduction/lab.mk", "HEADERS := reduction.h\n");
	put(dir, "09-notalab/README.md", "no lab.mk here\n");
	return dir;
}

static void rm_tree(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void free_all(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
}

static void finds_lab_folders_sorted(void **state)
{
	char *dir = labs_tree(), *labs[LABS_MAX];
	int n = labs_find(dir, NULL, labs, LABS_MAX);

	(void)state;
	assert_int_equal(n, 3);
	assert_string_equal(labs[0], "01-warps");
	assert_string_equal(labs[1], "02-shfl");
	assert_string_equal(labs[2], "05-reduction");
	free_all(labs, n);
	assert_int_equal(labs_find("/nonexistent/wb", NULL, labs, LABS_MAX), -1);
	rm_tree(dir);
}

static void lab_words(void **state)
{
	char *dir = labs_tree(), *labs[LABS_MAX];
	int n;

	(void)state;
	assert_true(labs_match("05-reduction", "reduction"));
	assert_true(labs_match("05-reduction", "05"));
	assert_true(labs_match("05-reduction", "05-reduction"));
	assert_true(labs_match("05-reduction", "warps, reduction"));
	assert_true(labs_match("05-reduction", NULL));
	assert_false(labs_match("05-reduction", "reduc"));
	assert_false(labs_match("05-reduction", "5"));
	n = labs_find(dir, "shfl 01", labs, LABS_MAX);
	assert_int_equal(n, 2);
	assert_string_equal(labs[0], "01-warps");
	assert_int_equal(labs_words_exist("shfl 01", labs, n), 0);
	assert_int_equal(labs_words_exist("shfl nosuch", labs, n), -1);
	free_all(labs, n);
	rm_tree(dir);
}

static void exercises_of_lab_mk(void **state)
{
	char *dir = labs_tree(), ex[256];

	(void)state;
	assert_int_equal(labs_mk_exercises(dir, "01-warps", ex, sizeof(ex)), 0);
	assert_contains(ex, "branch  occupancy");
	assert_null(strstr(ex, "files"));
	assert_int_equal(labs_mk_exercises(dir, "05-reduction", ex,
					   sizeof(ex)), -1);
	assert_int_equal(labs_mk_exercises(dir, "09-notalab", ex,
					   sizeof(ex)), -1);
	rm_tree(dir);
}

/* The project's labs/, from the repository's root (where make test runs
 * it): every folder with a lab.mk is found, and each lists exercises. */
static void the_projects_labs(void **state)
{
	char *labs[LABS_MAX], ex[1024];
	int n = labs_find("labs", NULL, labs, LABS_MAX);

	(void)state;
	if (n < 0)
		skip();
	assert_true(n >= 8);
	for (int i = 0; i < n; i++) {
		assert_int_equal(labs_mk_exercises("labs", labs[i], ex,
						   sizeof(ex)), 0);
		assert_true(strspn(ex, " \t") < strlen(ex));
	}
	assert_string_equal(labs[0], "01-warps");
	free_all(labs, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_lab_folders_sorted),
		cmocka_unit_test(lab_words),
		cmocka_unit_test(exercises_of_lab_mk),
		cmocka_unit_test(the_projects_labs),
	};

	return cmocka_run_group_tests_name("labfind", tests, NULL, NULL);
}
