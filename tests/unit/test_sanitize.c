/* SPDX-License-Identifier: MIT */
/*
 * test_sanitize.c - grader/run/sanitize.c: condensing compute-sanitizer's
 * output to the first report's own lines, for memcheck, racecheck and
 * synccheck reports in the tool's documented layout, with the program's
 * own output mixed in.
 */
#include "unit.h"

#include <sys/stat.h>

#include "sanitize.h"

static const char memcheck_out[] =
	"device: NVIDIA H200 (sm_90, 132 SMs)\n"
	"========= COMPUTE-SANITIZER\n"
	"========= Invalid __global__ write of size 4 bytes\n"
	"=========     at block_partials(const float *, unsigned long, float *)+0x2b0 in sum.cu:24\n"
	"=========     by thread (0,0,0) in block (17,0,0)\n"
	"=========     Address 0x7f3a00001044 is out of bounds\n"
	"=========     and is 69 bytes after the nearest allocation at 0x7f3a00000000 of size 4356 bytes\n"
	"=========     Saved host backtrace up to driver entry point at kernel launch time\n"
	"=========     Host Frame: [0x2f2a1] in libcuda.so.1\n"
	"========= \n"
	"========= Invalid __global__ write of size 4 bytes\n"
	"=========     at block_partials(const float *, unsigned long, float *)+0x2b0 in sum.cu:24\n"
	"========= ERROR SUMMARY: 2 errors\n";

static const char racecheck_out[] =
	"========= COMPUTE-SANITIZER\n"
	"  n=33           ok\n"
	"========= Error: Race reported between Write access at sum_kernel(const float *, unsigned long, float *)+0x1f0 in sum.cu:31\n"
	"=========     and Read access at sum_kernel(const float *, unsigned long, float *)+0x210 in sum.cu:32 [992 hazards]\n"
	"========= \n"
	"========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";

static const char clean_out[] =
	"========= COMPUTE-SANITIZER\n"
	"verdict PASS\n"
	"========= ERROR SUMMARY: 0 errors\n";

static void memcheck_keeps_the_first_report(void **state)
{
	char out[SAN_LINES][G_DETAIL_LEN];
	int n = san_condense(memcheck_out, out, SAN_LINES);

	(void)state;
	assert_int_equal(n, 4);
	assert_string_equal(out[0], "Invalid __global__ write of size 4 bytes");
	assert_contains(out[1], "at block_partials(");
	assert_contains(out[1], "sum.cu:24");
	assert_string_equal(out[2], "by thread (0,0,0) in block (17,0,0)");
	assert_contains(out[3], "out of bounds");
}

static void host_backtrace_ends_a_report(void **state)
{
	char out[8][G_DETAIL_LEN];
	int n = san_condense(memcheck_out, out, 8);

	(void)state;
	/* Five lines of the first report, then the backtrace stops it. */
	assert_int_equal(n, 5);
	for (int i = 0; i < n; i++) {
		assert_null(strstr(out[i], "Host Frame"));
		assert_null(strstr(out[i], "ERROR SUMMARY"));
	}
}

static void racecheck_names_both_accesses(void **state)
{
	char out[SAN_LINES][G_DETAIL_LEN];
	int n = san_condense(racecheck_out, out, SAN_LINES);

	(void)state;
	assert_int_equal(n, 2);
	assert_contains(out[0], "Race reported between Write access");
	assert_contains(out[0], "sum.cu:31");
	assert_contains(out[1], "and Read access");
	assert_contains(out[1], "[992 hazards]");
}

static void program_output_is_ignored(void **state)
{
	char out[SAN_LINES][G_DETAIL_LEN];

	(void)state;
	assert_int_equal(san_condense(racecheck_out, out, SAN_LINES), 2);
	for (int i = 0; i < 2; i++)
		assert_null(strstr(out[i], "n=33"));
}

static void clean_run_reports_nothing(void **state)
{
	char out[SAN_LINES][G_DETAIL_LEN];

	(void)state;
	assert_int_equal(san_condense(clean_out, out, SAN_LINES), 0);
	assert_int_equal(san_condense("", out, SAN_LINES), 0);
}

static void long_lines_are_cut_not_overflowed(void **state)
{
	char text[2 * G_DETAIL_LEN + 64], out[1][G_DETAIL_LEN];

	(void)state;
	strcpy(text, "========= ");
	memset(text + 10, 'x', 2 * G_DETAIL_LEN);
	strcpy(text + 10 + 2 * G_DETAIL_LEN, "\n");
	assert_int_equal(san_condense(text, out, 1), 1);
	assert_true(strlen(out[0]) < G_DETAIL_LEN);
}

/* Recorded on an H200: racecheck on tests/broken/warp-sync-race. */
static void recorded_racecheck_report(void **state)
{
	char out[SAN_LINES][G_DETAIL_LEN];
	char *text = NULL;
	FILE *f = fopen("tests/unit/data/racecheck-warp-sync.out", "r");
	size_t len = 0;
	int n;

	(void)state;
	assert_non_null(f);
	assert_int_equal(getdelim(&text, &len, '\0', f) > 0, 1);
	fclose(f);
	n = san_condense(text, out, SAN_LINES);
	free(text);
	/* The first report only: its three lines, not the next one's. */
	assert_int_equal(n, 3);
	assert_contains(out[0], "Race reported between Read access");
	assert_contains(out[0], "sum.cu:38");
	assert_contains(out[1], "and Write access");
	assert_contains(out[2], "[124 hazards]");
}

static void tools_map_to_verdicts(void **state)
{
	(void)state;
	assert_string_equal(san_tools[0].name, "memcheck");
	assert_int_equal(san_tools[0].verdict, WB_V_MEMCHECK);
	assert_string_equal(san_tools[1].name, "racecheck");
	assert_int_equal(san_tools[1].verdict, WB_V_RACE);
	assert_string_equal(san_tools[2].name, "synccheck");
	assert_int_equal(san_tools[2].verdict, WB_V_SYNC);
	assert_string_equal(wb_verdict_key(WB_V_RACE), "RACE");
	assert_int_equal(wb_verdict_parse("MEMCHECK"), WB_V_MEMCHECK);
}

/* ---- san_plan, san_run_plan: which tools run, and what a missing or
 * unfinished one does ---- */

/* A fake tool run: what each tool "found" (0 clean, 1 found, -1 did not
 * finish), and which tools were asked. */
struct fake_tools {
	int result[3];
	unsigned asked;
};

static int fake_run(const struct san_tool *t, struct g_result *r, void *arg)
{
	struct fake_tools *f = arg;
	int i = (int)(t - san_tools);

	f->asked |= 1u << i;
	if (f->result[i] > 0)
		r->verdict = t->verdict;
	return f->result[i];
}

static struct g_result passed(void)
{
	struct g_result r;

	memset(&r, 0, sizeof(r));
	r.verdict = WB_V_PASS;
	return r;
}

static int details_contain(const struct g_result *r, const char *s)
{
	for (int i = 0; i < r->ndetails; i++)
		if (strstr(r->details[i], s))
			return 1;
	return 0;
}

#define RACE_SYNC (2u | 4u) /* lab 02's lockstep: racecheck, synccheck */

static void plan_is_all_or_required(void **state)
{
	(void)state;
	assert_int_equal(san_plan(0, 0), 0);
	assert_int_equal(san_plan(1, 0), SAN_ALL);
	assert_int_equal(san_plan(0, RACE_SYNC), RACE_SYNC);
	assert_int_equal(san_plan(1, RACE_SYNC), SAN_ALL);
}

/* No SANITIZE=1, no requirement: nothing runs, nothing is said. */
static void nothing_asked_runs_nothing(void **state)
{
	struct fake_tools f = { { 1, 1, 1 }, 0 };
	struct g_result r = passed();

	(void)state;
	assert_int_equal(san_run_plan(0, 0, "/cs", "/cs", fake_run, &f, &r),
			 WB_V_PASS);
	assert_int_equal(f.asked, 0);
	assert_int_equal(r.ndetails, 0);
}

/* Required tools run without SANITIZE=1, only they, and a race is RACE. */
static void required_tools_run_alone(void **state)
{
	struct fake_tools f = { { 1, 1, 0 }, 0 };
	struct g_result r = passed();

	(void)state;
	assert_int_equal(san_run_plan(san_plan(0, RACE_SYNC), RACE_SYNC, "/cs",
				      "/cs", fake_run, &f, &r), WB_V_RACE);
	assert_int_equal(f.asked, 2u); /* racecheck found it: no synccheck */
}

static void required_clean_says_so(void **state)
{
	struct fake_tools f = { { 0, 0, 0 }, 0 };
	struct g_result r = passed();

	(void)state;
	assert_int_equal(san_run_plan(RACE_SYNC, RACE_SYNC, "/cs", "/cs",
				      fake_run, &f, &r), WB_V_PASS);
	assert_int_equal(f.asked, RACE_SYNC);
	assert_true(details_contain(&r, "racecheck and synccheck found "
					"nothing"));
	assert_true(details_contain(&r, "always runs"));
}

/* No compute-sanitizer: a required check is GRADER ERROR (no points),
 * an optional one (SANITIZE=1 alone) only says it was not run. */
static void missing_tool_fails_only_when_required(void **state)
{
	struct fake_tools f = { { 0, 0, 0 }, 0 };
	struct g_result r = passed();

	(void)state;
	assert_int_equal(san_run_plan(RACE_SYNC, RACE_SYNC, NULL, "/nowhere/cs",
				      fake_run, &f, &r), WB_V_ERROR);
	assert_int_equal(f.asked, 0);
	assert_true(details_contain(&r, "racecheck and synccheck"));
	assert_true(details_contain(&r, "/nowhere/cs"));
	assert_true(details_contain(&r, "no points"));

	r = passed();
	assert_int_equal(san_run_plan(SAN_ALL, 0, NULL, "/nowhere/cs",
				      fake_run, &f, &r), WB_V_PASS);
	assert_true(details_contain(&r, "not run"));
}

/* A required tool that does not finish cannot vouch: GRADER ERROR; an
 * optional one is skipped and the others still run. */
static void unfinished_tool_fails_only_when_required(void **state)
{
	struct fake_tools f = { { 0, -1, 0 }, 0 };
	struct g_result r = passed();

	(void)state;
	assert_int_equal(san_run_plan(RACE_SYNC, RACE_SYNC, "/cs", "/cs",
				      fake_run, &f, &r), WB_V_ERROR);
	assert_true(details_contain(&r, "racecheck could not check it"));

	f.asked = 0;
	r = passed();
	assert_int_equal(san_run_plan(SAN_ALL, 0, "/cs", "/cs", fake_run, &f,
				      &r), WB_V_PASS);
	assert_int_equal(f.asked, SAN_ALL);
	assert_true(details_contain(&r, "memcheck and synccheck found nothing"));
}

/* A clean tool run counts only when the exercise passed under it. */
static void clean_run_needs_a_passing_record(void **state)
{
	char *dir = unit_tmpdir(), res[512];
	struct g_result r = passed();
	FILE *f;

	(void)state;
	assert_non_null(dir);
	snprintf(res, sizeof(res), "%s/lockstep.racecheck.result", dir);
	f = fopen(res, "w");
	assert_non_null(f);
	fputs("seed 1\nsize 1x1 ok\nverdict PASS\nend\n", f);
	fclose(f);
	assert_int_equal(san_record_passed(&san_tools[1], res, &r), 0);
	assert_int_equal(r.ndetails, 0);

	f = fopen(res, "w");
	assert_non_null(f);
	fputs("seed 1\ndetail y[0] = 2, expected 1\nverdict WRONG\nend\n", f);
	fclose(f);
	assert_int_equal(san_record_passed(&san_tools[1], res, &r), -1);
	assert_true(details_contain(&r, "under racecheck the exercise was WRONG"));
	assert_true(details_contain(&r, "y[0] = 2"));
	assert_int_equal(r.verdict, WB_V_PASS); /* san_run_plan decides */

	r = passed();
	f = fopen(res, "w");
	assert_non_null(f);
	fputs("seed 1\nsize 1x1 ok\n", f); /* cut short: no verdict */
	fclose(f);
	assert_int_equal(san_record_passed(&san_tools[2], res, &r), -1);
	assert_true(details_contain(&r, "left no complete result"));

	remove(res);
	r = passed();
	assert_int_equal(san_record_passed(&san_tools[2], res, &r), -1);
	rmdir(dir);
	free(dir);
}

/* san_locate: a path given, then CUDA_HOME's bin, then PATH; only an
 * executable file counts. */
static void locate_finds_the_tool(void **state)
{
	char *dir = unit_tmpdir(), bin[512], tool[600], path[700], buf[700];
	FILE *f;

	(void)state;
	assert_non_null(dir);
	snprintf(bin, sizeof(bin), "%s/bin", dir);
	assert_int_equal(mkdir(bin, 0755), 0);
	snprintf(tool, sizeof(tool), "%s/compute-sanitizer", bin);
	f = fopen(tool, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(path, sizeof(path), "/nonexistent::%s", bin);
	assert_null(san_locate(NULL, "/nonexistent", path, buf, sizeof(buf)));
	assert_int_equal(chmod(tool, 0755), 0);
	assert_non_null(san_locate(NULL, "/nonexistent", path, buf, sizeof(buf)));
	assert_string_equal(buf, tool);
	assert_non_null(san_locate(NULL, dir, NULL, buf, sizeof(buf)));
	assert_string_equal(buf, tool);
	/* A bare name (make's default when it found none) is looked for. */
	assert_non_null(san_locate("compute-sanitizer", NULL, path, buf,
				   sizeof(buf)));
	assert_string_equal(buf, tool);
	assert_null(san_locate("compute-sanitizer", NULL, NULL, buf,
			       sizeof(buf)));
	/* A path given is taken as it is, or not at all. */
	assert_non_null(san_locate(tool, NULL, NULL, buf, sizeof(buf)));
	assert_null(san_locate("/nonexistent/compute-sanitizer", dir, path,
			       buf, sizeof(buf)));
	remove(tool);
	rmdir(bin);
	rmdir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memcheck_keeps_the_first_report),
		cmocka_unit_test(host_backtrace_ends_a_report),
		cmocka_unit_test(racecheck_names_both_accesses),
		cmocka_unit_test(program_output_is_ignored),
		cmocka_unit_test(clean_run_reports_nothing),
		cmocka_unit_test(long_lines_are_cut_not_overflowed),
		cmocka_unit_test(recorded_racecheck_report),
		cmocka_unit_test(tools_map_to_verdicts),
		cmocka_unit_test(plan_is_all_or_required),
		cmocka_unit_test(nothing_asked_runs_nothing),
		cmocka_unit_test(required_tools_run_alone),
		cmocka_unit_test(required_clean_says_so),
		cmocka_unit_test(missing_tool_fails_only_when_required),
		cmocka_unit_test(unfinished_tool_fails_only_when_required),
		cmocka_unit_test(clean_run_needs_a_passing_record),
		cmocka_unit_test(locate_finds_the_tool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
