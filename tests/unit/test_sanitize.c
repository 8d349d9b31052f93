/* SPDX-License-Identifier: MIT */
/*
 * test_sanitize.c - grader/sanitize.c: condensing compute-sanitizer's
 * output to the first report's own lines, for memcheck, racecheck and
 * synccheck reports in the tool's documented layout, with the program's
 * own output mixed in.
 */
#include "unit.h"

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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
