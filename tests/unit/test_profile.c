/* SPDX-License-Identifier: MIT */
/*
 * test_profile.c - the profiler's files (grader/profile/profile.h lists them):
 * reading Nsight Compute's raw CSV (quotes, commas in names and numbers,
 * the units row, "n/a", several kernels, the program's output mixed in),
 * its refusals (counters not permitted, unknown metrics), combining a
 * call's kernels, and the hints, each only from a measured number.
 *
 * The recordings are under tests/profile/: NAME.csv (ncu's log) and
 * NAME.result (the runner's record) from tests/gpu/record-ncu.sh, recorded
 * on an H100 with ncu 2025.3.1 (tests/profile/README.md), or
 * NAME.provisional.* where no GPU could record one (refused: a driver that
 * keeps the counters to administrators). The assertions on recordings are
 * relative (the naive's sectors per request against their ideal and the
 * solution's, the hint a naive gets), so they hold on any GPU the files
 * come from. WB_SHOW_TABLES=1 prints the table each recorded pair gives.
 * tests/profile/fake-ncu stands in for ncu to test the running of it.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "unit.h"

#include "metrics.h"
#include "ncu.h"
#include "ncu_csv.h"
#include "profile_derive.h"
#include "profile_render.h"
#include "report.h"

#define DIR "tests/profile/"

/*
 * The groups labs/03-coalescing/lab.c declares for matvec. The recording's
 * record says 50 (WB_PROF_DEFAULT): it was made before the lab declared
 * any, and the hints are judged here as make profile shows them now.
 */
#define MATVEC_GROUPS (WB_PROF_COALESCING | WB_PROF_THROUGHPUT | \
		       WB_PROF_OCCUPANCY)

/* tests/profile/NAME.EXT, or NAME.provisional.EXT; NULL if neither. */
static char *recording(const char *name, const char *ext)
{
	char path[256];
	FILE *f;
	char *text = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), DIR "%s.%s", name, ext);
	f = fopen(path, "r");
	if (!f) {
		snprintf(path, sizeof(path), DIR "%s.provisional.%s", name, ext);
		f = fopen(path, "r");
	}
	if (!f)
		return NULL;
	if (getdelim(&text, &len, '\0', f) < 0) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

/*
 * The student handout ships the naive code's recordings only: those of
 * the solutions and the ladder steps would show their kernels (names,
 * block sizes, registers). There, without solutions/, a recording that is
 * not here is skipped; in the workbook it is a failure.
 */
static int handout_lacks(const char *name)
{
	char *csv;
	int here;

	if (access("solutions", F_OK) == 0)
		return 0;
	csv = recording(name, "csv");
	here = csv != NULL;
	free(csv);
	if (here)
		return 0;
	print_message("skip %s: not in the student handout\n", name);
	return 1;
}

/* Read recording NAME (ncu's log and the record) into r. */
static enum prof_status load(const char *name, struct prof_run *r)
{
	char *csv = recording(name, "csv"), *rec = recording(name, "result");
	enum prof_status st;

	if (!csv || !rec)
		fail_msg("no recording %s under " DIR, name);
	st = ncsv_read(csv, rec, r);
	free(csv);
	free(rec);
	return st;
}

static struct prof_run run_a, run_b; /* large: not on the stack */

static void view_of(const char *name, const char *label, struct prof_view *v)
{
	if (handout_lacks(name))
		skip();
	assert_int_equal(load(name, &run_a), PROF_OK);
	prof_view_all(&run_a, label, v);
}

static int has_hint(const struct prof_view *v, unsigned groups,
		    enum prof_hint id, char *text, size_t n)
{
	char lines[PROF_NHINTS][G_DETAIL_LEN];
	int ids[PROF_NHINTS], k = prof_hints(v, groups, ids, lines, PROF_NHINTS);

	for (int i = 0; i < k; i++)
		if (ids[i] == (int)id) {
			if (text)
				snprintf(text, n, "%s", lines[i]);
			return 1;
		}
	return 0;
}

static int count_hints(const struct prof_view *v, unsigned groups)
{
	return prof_hints(v, groups, NULL, NULL, PROF_NHINTS);
}

/* ---- the CSV ---- */

static const char two_kernels[] =
	"==PROF== Connected to process 77 (/x/sum)\n"
	"device: NVIDIA H200 (sm_90, 132 SMs)\n"
	"\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\","
	"\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\","
	"\"dram__bytes_read.sum\",\"gpu__time_duration.sum\","
	"\"launch__registers_per_thread\",\"some__metric_we_do_not_ask.sum\"\r\n"
	"\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Mbyte\","
	"\"usecond\",\"register/thread\",\"\"\r\n"
	"\"0\",\"77\",\"sum\",\"127.0.0.1\",\"k1(const float *, unsigned long, "
	"float *)\",\"1\",\"7\",\"(256, 1, 1)\",\"(262,144, 1, 1)\",\"0\","
	"\"9.0\",\"268.44\",\"640.12\",\"16\",\"3\"\n"
	"  n=33 ok\n"
	"\"1\",\"77\",\"sum\",\"127.0.0.1\",\"say \"\"hi\"\", k2\",\"1\",\"7\","
	"\"(32, 2, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\",\"n/a\",\"1,234.5\","
	"\"\",\"\"\n"
	"==PROF== Disconnected from process 77\n";

static void csv_kernels_names_units(void **state)
{
	struct prof_run *r = &run_a;

	(void)state;
	assert_int_equal(ncsv_parse(two_kernels, r), PROF_OK);
	assert_int_equal(r->nk, 2);
	/* The function's name, without its parameter list. */
	assert_string_equal(r->k[0].name, "k1");
	/* Quotes inside a quoted field are doubled; commas stay. */
	assert_string_equal(r->k[1].name, "say \"hi\", k2");
	assert_int_equal(r->k[0].block, 256);
	assert_int_equal(r->k[0].grid, 262144);
	assert_int_equal(r->k[1].block, 64);
	/* Units: Mbyte to bytes, usecond to nanoseconds. */
	assert_near(r->k[0].m[M_DRAM_RD], 268.44e6, 1);
	assert_near(r->k[0].m[M_TIME_NS], 640120, 1e-6);
	assert_near(r->k[0].m[M_REGS], 16, 0);
	/* Thousands separators; n/a and empty are "not measured". */
	assert_near(r->k[1].m[M_TIME_NS], 1234500, 1e-6);
	assert_true(isnan(r->k[1].m[M_DRAM_RD]));
	assert_true(isnan(r->k[1].m[M_REGS]));
	/* Metrics not asked for are not taken; those not printed stay NAN. */
	assert_true(isnan(r->k[0].m[M_DRAM_PCT]));
}

static void csv_base_units(void **state)
{
	static const char text[] =
		"\"ID\",\"Kernel Name\",\"dram__bytes_write.sum\","
		"\"gpu__time_duration.sum\"\n"
		"\"\",\"\",\"byte\",\"nsecond\"\n"
		"\"0\",\"k\",\"1,048,576\",\"77,532\"\n"
		"\"1\",\"k\",\"2.5e3\",\"1\"\n";
	struct prof_run *r = &run_a;

	(void)state;
	assert_int_equal(ncsv_parse(text, r), PROF_OK);
	assert_near(r->k[0].m[M_DRAM_WR], 1048576, 0);
	assert_near(r->k[0].m[M_TIME_NS], 77532, 0);
	assert_near(r->k[1].m[M_DRAM_WR], 2500, 0);
}

/*
 * What ncu 2025.3 prints: its warnings first, hundreds of columns (every
 * device__attribute_* and launch__* figure), and for each metric asked by
 * its full name the .avg, .max and .min of the same counter beside it.
 * Only the column named exactly as asked is taken, wherever it is.
 */
static void csv_hundreds_of_columns(void **state)
{
	size_t cap = 64 * 1024, len = 0;
	char *text = malloc(cap);
	static const char *const rollup[] = { "avg", "max", "min", "sum" };
	struct prof_run *r = &run_a;

	(void)state;
	assert_non_null(text);
#define ADD(...) (len += snprintf(text + len, cap - len, __VA_ARGS__))
	ADD("==WARNING== Note: Running with unmodified GPU clocks.\n"
	    "==PROF== Connected to process 4814 (/x/matvec)\n"
	    "==PROF== Disconnected from process 4814\n");
	/* Header: the launch columns, 300 attributes, then the metrics. */
	ADD("\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\"");
	for (int i = 0; i < 300; i++)
		ADD(",\"device__attribute_x%d\"", i);
	for (int i = 0; i < 4; i++)
		ADD(",\"dram__bytes_read.%s\"", rollup[i]);
	for (int i = 0; i < 4; i++)
		ADD(",\"gpu__time_duration.%s\"", rollup[i]);
	ADD(",\"launch__waves_per_multiprocessor\"\n");
	/* Units. */
	ADD("\"\",\"\",\"\",\"\"");
	for (int i = 0; i < 300; i++)
		ADD(",\"\"");
	ADD(",\"byte\",\"byte\",\"byte\",\"byte\",\"ns\",\"ns\",\"ns\","
	    "\"ns\",\"\"\n");
	/* One kernel: attributes that hold commas, rollups that differ. */
	ADD("\"0\",\"naive_matvec_kernel\",\"(256, 1, 1)\",\"(64, 1, 1)\"");
	for (int i = 0; i < 300; i++)
		ADD(",\"%s\"", i % 7 ? "1,234" : "NVIDIA H100 80GB HBM3");
	ADD(",\"13,422,752\",\"13,424,128\",\"13,421,056\",\"536,910,080\""
	    ",\"1,125,248\",\"1,125,248\",\"1,125,248\",\"1,125,248\""
	    ",\"0.06\"\n");
#undef ADD
	assert_true(len < cap);
	assert_int_equal(ncsv_parse(text, r), PROF_OK);
	assert_int_equal(r->nk, 1);
	assert_string_equal(r->k[0].name, "naive_matvec_kernel");
	assert_int_equal(r->k[0].grid, 64);
	/* The .sum column, not the .avg beside it; "ns" is nanoseconds. */
	assert_near(r->k[0].m[M_DRAM_RD], 536910080, 0);
	assert_near(r->k[0].m[M_TIME_NS], 1125248, 0);
	assert_near(r->k[0].m[M_WAVES], 0.06, 1e-12);
	free(text);
}

static void no_kernels_and_garbage(void **state)
{
	struct prof_run *r = &run_a;

	(void)state;
	assert_int_equal(ncsv_parse("", r), PROF_NO_KERNELS);
	assert_int_equal(ncsv_parse(NULL, r), PROF_NO_KERNELS);
	assert_int_equal(ncsv_parse("==PROF== Connected to process 1 (x)\n"
				    "==WARNING== No kernels were profiled.\n",
				    r), PROF_NO_KERNELS);
	assert_contains(r->why, "no kernel was profiled");
	/* A data row before any header is not a kernel. */
	assert_int_equal(ncsv_parse("\"0\",\"k\",\"1\"\n", r), PROF_NO_KERNELS);
	/* Another error of ncu's: its words, one line. */
	assert_int_equal(ncsv_parse("==ERROR== Profiling is not supported on "
				    "this device\n", r), PROF_ERROR);
	assert_string_equal(r->why, "ncu: Profiling is not supported on this "
				    "device");
}

static void too_many_kernels_are_counted(void **state)
{
	char text[8192];
	size_t len = snprintf(text, sizeof(text),
			      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n");
	struct prof_run *r = &run_a;

	(void)state;
	for (int i = 0; i < PROF_MAX_KERNELS + 3; i++)
		len += snprintf(text + len, sizeof(text) - len,
				"\"%d\",\"k%d\",\"10\"\n", i, i);
	assert_int_equal(ncsv_parse(text, r), PROF_OK);
	assert_int_equal(r->nk, PROF_MAX_KERNELS);
	assert_int_equal(r->dropped_kernels, 3);
}

/* ---- refusals ---- */

static void refused_counters(void **state)
{
	struct prof_run *r = &run_a;

	(void)state;
	/* Recorded from a run whose counters were not permitted; the
	 * runner's record still says the call ran. */
	assert_int_equal(load("refused", r), PROF_NO_PERMISSION);
	assert_int_equal(r->nk, 0);
	assert_contains(r->why, "ERR_NVGPUCTRPERM");
	assert_contains(r->why, "docs/nsight-compute.md");
	assert_null(strchr(r->why, '\n'));
}

static void unknown_metrics_are_named(void **state)
{
	struct prof_run *r = &run_a;

	(void)state;
	assert_int_equal(ncsv_parse("==PROF== Connected to process 9 (x)\n"
		"==ERROR== Failed to find metric regex:^lts__t_sectors_srcunit"
		"_tex_op_write\\.sum$\n"
		"==ERROR== Failed to find metric dram__bytes_read.sum\n"
		"==ERROR== Failed to find metric regex:^flop_count_sp\\.(sum|min"
		"|max|avg|pct|ratio|max_rate)$\n", r), PROF_BAD_METRICS);
	assert_int_equal(r->nunknown, 3);
	assert_string_equal(r->unknown[0], "lts__t_sectors_srcunit_tex_op_write");
	assert_string_equal(r->unknown[1], "dram__bytes_read.sum");
	assert_string_equal(r->unknown[2], "flop_count_sp");
}

static void record_decides_a_run_that_did_not_run(void **state)
{
	struct prof_run *r = &run_a;
	static const char todo[] = "seed 1\nshape n=64M\nprofile 2\nbytes 8\n"
		"detail not implemented: write it (labs/x.cu:3)\n"
		"verdict NOT_IMPLEMENTED\nend\n";
	static const char crash[] = "seed 1\ndetail cudaErrorIllegalAddress: "
		"an illegal memory access\nverdict CRASH\nend\n";

	(void)state;
	assert_int_equal(ncsv_read("==WARNING== No kernels were profiled.\n",
				   todo, r), PROF_RUN_FAILED);
	assert_contains(r->why, "not implemented");
	assert_int_equal(r->groups, 2);
	assert_near(r->min_bytes, 8, 0);
	assert_string_equal(r->shape, "n=64M");
	assert_int_equal(ncsv_read("", crash, r), PROF_RUN_FAILED);
	assert_contains(r->why, "CRASH");
	assert_contains(r->why, "illegal memory access");
	/* A record cut short: the run ended before the profiled call... */
	assert_int_equal(ncsv_read("", "seed 1\nshape n=1\n", r),
			 PROF_RUN_FAILED);
	assert_contains(r->why, "ended before");
	/* ...unless ncu said why: its words explain more. */
	assert_int_equal(ncsv_read("==ERROR== Profiling is not supported on "
				   "this device\n", "seed 1\n", r), PROF_ERROR);
	/* Refused counters and unknown metrics are ncu's, whatever ran. */
	assert_int_equal(ncsv_read("==ERROR== ERR_NVGPUCTRPERM - no\n", "",
				   r), PROF_NO_PERMISSION);
	assert_int_equal(ncsv_read("==ERROR== Failed to find metric x.sum\n",
				   "seed 1\n", r), PROF_BAD_METRICS);
}

/* ---- recordings: structure ---- */

/*
 * The scheduler counters were first asked for in issue 17, after every
 * recording here was made: a recording may lack all three, not some. Drop
 * this once tests/profile/ is recorded again (tests/gpu/issue17b.sh).
 */
static int newer_metric(const struct prof_run *r, int m)
{
	int any = 0;

	if (m != M_ISSUE_ACTIVE && m != M_WARPS_ACTIVE && m != M_WARPS_ELIGIBLE)
		return 0;
	for (int k = 0; k < r->nk; k++)
		any |= !isnan(r->k[k].m[M_ISSUE_ACTIVE]) ||
		       !isnan(r->k[k].m[M_WARPS_ACTIVE]) ||
		       !isnan(r->k[k].m[M_WARPS_ELIGIBLE]);
	return !any;
}

static void recordings_have_every_metric(void **state)
{
	static const char *const names[] = {
		"sum-naive", "sum-solution", "matvec-naive", "matvec-solution",
		"gelu-naive", "gelu-solution", "branch-naive", "branch-solution",
		"trip_count-naive", "trip_count-solution", "segment_sum-naive",
		"segment_sum-solution", "filter-naive", "filter-solution",
		"grayscale-naive", "grayscale-solution", "transpose-naive",
		"transpose-solution", "transpose-1-shared-tile", "matmul-naive",
		"matmul-solution", "mean_dim0-naive", "mean_dim0-solution",
		"mean_dim0-1-parallel-uncoalesced",
		"mean_dim0-2-coalesced-scalar",
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct prof_run *r = &run_a;

		if (handout_lacks(names[i]))
			continue;
		assert_int_equal(load(names[i], r), PROF_OK);
		assert_true(r->nk >= 1);
		assert_true(r->groups != 0);
		/* The task's minimum bytes, or (matmul) its operations. */
		assert_true(r->min_bytes > 0 || r->flops > 0);
		assert_true(*r->shape);
		for (int k = 0; k < r->nk; k++) {
			assert_true(*r->k[k].name);
			assert_null(strchr(r->k[k].name, '('));
			assert_true(r->k[k].block > 0 && r->k[k].grid > 0);
			/* Every metric the grader asks for came back: one
			 * missing means ncu renamed it (see its log). */
			for (int m = 0; m < PROF_NMETRICS; m++)
				if (isnan(r->k[k].m[m]) && !newer_metric(r, m))
					fail_msg("%s: kernel %s has no %s", names[i],
						 r->k[k].name, metric_name(m));
		}
	}
}

static void two_kernel_call_combines(void **state)
{
	struct prof_run *r = &run_a;
	struct prof_view all, one;
	double t = 0, rd = 0, dram_w = 0;
	int longest = 0;

	(void)state;
	assert_int_equal(load("gelu-naive", r), PROF_OK);
	assert_true(r->nk > 1);
	for (int k = 0; k < r->nk; k++) {
		t += r->k[k].m[M_TIME_NS];
		rd += r->k[k].m[M_DRAM_RD];
		dram_w += r->k[k].m[M_TIME_NS] * r->k[k].m[M_DRAM_PCT];
		if (r->k[k].m[M_TIME_NS] > r->k[longest].m[M_TIME_NS])
			longest = k;
	}
	prof_view_all(r, "naive", &all);
	assert_string_equal(all.label, "naive");
	assert_int_equal(all.nkernels, r->nk);
	/* Counters add up; rates are weighted by time; launch figures are
	 * the longest kernel's. */
	assert_near(all.time_ns, t, 1e-6 * t);
	assert_near(all.m[M_DRAM_RD], rd, 1e-6 * rd);
	assert_near(all.m[M_DRAM_PCT], dram_w / t, 1e-6);
	assert_near(all.m[M_REGS], r->k[longest].m[M_REGS], 0);
	assert_string_equal(all.main_kernel, r->k[longest].name);
	assert_int_equal(all.grid, r->k[longest].grid);
	prof_view_kernel(r, 1, &one);
	assert_int_equal(one.nkernels, 1);
	assert_string_equal(one.label, r->k[1].name);
	assert_near(one.time_ns, r->k[1].m[M_TIME_NS], 1e-9);
}

static void small_kernel_gets_no_hint(void **state)
{
	static const char text[] =
		"\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\","
		"\"gpu__time_duration.sum\",\"launch__waves_per_multiprocessor\","
		"\"device__attribute_multiprocessor_count\"\n"
		"\"0\",\"argmax_blocks\",\"(256, 1, 1)\",\"(262144, 1, 1)\","
		"\"800,000\",\"248.2\",\"132\"\n"
		"\"1\",\"key_to_index\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"2,000\","
		"\"0.0001\",\"132\"\n";
	struct prof_run *r = &run_a;
	struct prof_view big, tiny, all;
	char lines[PROF_MAX_LINES][G_DETAIL_LEN];
	struct prof_view v[3];
	int n, said = 0;

	(void)state;
	assert_int_equal(ncsv_parse(text, r), PROF_OK);
	prof_view_kernel(r, 0, &big);
	prof_view_kernel(r, 1, &tiny);
	prof_view_all(r, "naive", &all);
	assert_near(tiny.share, 2000.0 / 802000, 1e-9);
	assert_near(all.share, 1, 0);
	/* One block, a tiny share of the time: not the problem. */
	assert_int_equal(count_hints(&tiny, ~0u), 0);
	assert_false(has_hint(&all, ~0u, H_GRID, NULL, 0));
	assert_false(has_hint(&big, ~0u, H_GRID, NULL, 0));
	v[0] = big;
	v[1] = tiny;
	v[2] = all;
	n = render_table(v, 3, 2, WB_PROF_OCCUPANCY, lines, PROF_MAX_LINES);
	for (int i = 0; i < n; i++)
		said |= strstr(lines[i], "hints for key_to_index: none, it takes "
				"0%") != NULL;
	assert_true(said);
}

/* ---- recordings: the lessons ---- */

static void matvec_sectors_gap(void **state)
{
	struct prof_view naive, sol;
	double xn, xs, spr, id, st;
	char text[G_DETAIL_LEN];

	(void)state;
	view_of("matvec-naive", "naive", &naive);
	assert_int_equal(run_a.groups, WB_PROF_DEFAULT);
	view_of("matvec-solution", "solution", &sol);
	assert_true(prof_ld_excess(&naive, &xn));
	assert_true(prof_ld_excess(&sol, &xs));
	/* A thread per row: each lane of a warp-wide load reads its own row,
	 * a sector each. A warp per row: coalesced. */
	assert_true(xn >= 4 * xs);
	assert_true(xs <= 1.25);
	assert_true(prof_ld_sectors_per_request(&naive, &spr));
	assert_true(prof_ld_ideal(&naive, &id));
	assert_true(spr >= 4 * id);
	/* The raw counts are alike (16.5 and 16.0): the solution's float4
	 * loads have an ideal of 16. The ratio to the ideal is the figure. */
	assert_true(prof_ld_ideal(&sol, &id));
	assert_near(id, 16, 0.5);
	assert_true(prof_st_excess(&naive, &st) && st <= 1.25);
	assert_true(has_hint(&naive, MATVEC_GROUPS, H_COALESCING, text,
			     sizeof(text)));
	assert_contains(text, "sectors per request");
	assert_contains(text, "labs/03-coalescing/README.md");
	/* The naive's grid is 64 blocks: that is measured too. */
	assert_true(has_hint(&naive, MATVEC_GROUPS, H_GRID, text, sizeof(text)));
	assert_contains(text, "64 blocks");
	/* The grid explains the idle DRAM: not "latency-bound" as well. */
	assert_false(has_hint(&naive, MATVEC_GROUPS, H_LATENCY, NULL, 0));
	assert_false(has_hint(&sol, MATVEC_GROUPS, H_COALESCING, NULL, 0));
	assert_int_equal(count_hints(&sol, MATVEC_GROUPS), 0);
	/* As recorded (the default groups): the grid hint alone. */
	assert_int_equal(count_hints(&sol, WB_PROF_DEFAULT), 0);
	assert_true(has_hint(&naive, WB_PROF_DEFAULT, H_GRID, NULL, 0));
}

static void sum_naive_busy_solution_not(void **state)
{
	struct prof_view naive, sol;
	char text[G_DETAIL_LEN];
	unsigned groups;

	(void)state;
	view_of("sum-naive", "naive", &naive);
	groups = run_a.groups;
	view_of("sum-solution", "solution", &sol);
	assert_int_equal(groups, WB_PROF_THROUGHPUT | WB_PROF_OCCUPANCY |
			 WB_PROF_STALLS);
	/* The lesson of lab 05: the naive is coalesced, and it does not
	 * wait: one element per thread and a tree per block of 256 keep
	 * the SMs busy while the DRAM idles. Coarsening fixes it. */
	assert_false(has_hint(&naive, WB_PROF_COALESCING | groups,
			      H_COALESCING, NULL, 0));
	assert_true(naive.m[M_SM_PCT] > 2 * sol.m[M_SM_PCT]);
	assert_true(naive.m[M_DRAM_PCT] < sol.m[M_DRAM_PCT] / 2);
	assert_true(has_hint(&naive, groups, H_INSTRUCTIONS, text,
			     sizeof(text)));
	assert_contains(text, "4 bytes per thread");
	assert_contains(text, "labs/05-reduction");
	assert_false(has_hint(&naive, groups, H_LATENCY, NULL, 0));
	assert_int_equal(count_hints(&sol, groups), 0);
}

static void gelu_naive_moves_too_much(void **state)
{
	struct prof_view naive, sol;
	double xn, xs;
	char text[G_DETAIL_LEN];
	unsigned groups;

	(void)state;
	view_of("gelu-naive", "naive", &naive);
	groups = run_a.groups;
	assert_int_equal(run_a.nk, 9);
	view_of("gelu-solution", "solution", &sol);
	assert_true(prof_traffic_ratio(&naive, &xn));
	assert_true(prof_traffic_ratio(&sol, &xs));
	/* Nine kernels, intermediates through DRAM: several times the
	 * bytes; the fused kernel about the minimum. */
	assert_true(xn >= 4 * xs);
	assert_true(xs < 1.15);
	assert_true(has_hint(&naive, groups, H_FUSION, text, sizeof(text)));
	assert_contains(text, "9 kernels");
	assert_contains(text, "labs/07-fusion/README.md");
	assert_int_equal(count_hints(&sol, groups), 0);
}

/*
 * The table each recorded pair gives, as make profile prints it: every
 * row of the groups shown has a value in both columns (the metrics were
 * all read), and the hints name the lab's lesson. WB_SHOW_TABLES=1
 * prints the tables.
 */
static void recorded_tables(void **state)
{
	static const struct {
		const char *name;
		unsigned groups; /* 0: the recorded groups */
		const char *naive_hint;
	} pairs[] = {
		{ "matvec", MATVEC_GROUPS, "coalescing: global loads touch 16.5" },
		{ "sum", 0, "instruction-bound" },
		{ "gelu", 0, "fusion: 9 kernels" },
	};
	static struct prof_run naive_run, sol_run;
	const char *show = getenv("WB_SHOW_TABLES");

	(void)state;
	for (unsigned p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
		char name[64], lines[PROF_MAX_LINES][G_DETAIL_LEN];
		struct prof_view v[2];
		unsigned groups;
		int n, hint_line = -1, none = -1, rows = 0;

		snprintf(name, sizeof(name), "%s-solution", pairs[p].name);
		if (handout_lacks(name))
			continue;
		assert_int_equal(load(name, &sol_run), PROF_OK);
		snprintf(name, sizeof(name), "%s-naive", pairs[p].name);
		assert_int_equal(load(name, &naive_run), PROF_OK);
		groups = pairs[p].groups ? pairs[p].groups : naive_run.groups;
		prof_view_all(&naive_run, "naive", &v[0]);
		prof_view_all(&sol_run, "solution", &v[1]);
		v[0].copy_gbps = v[1].copy_gbps = 2728; /* as measured then */
		n = render_table(v, 2, 0, groups, lines, PROF_MAX_LINES);
		if (show && *show == '1') {
			printf("%s (groups %#x):\n", pairs[p].name, groups);
			for (int i = 0; i < n; i++)
				printf("  %s\n", lines[i]);
		}
		for (int i = 1; i < n && strncmp(lines[i], "hints", 5); i++) {
			/* The label, then the naive's and the solution's
			 * cells (table_line: 30 + 1 + 12, + 1 + 12). */
			assert_true(strlen(lines[i]) > 56);
			if (!strncmp(lines[i] + 31, "           -", 12) ||
			    !strncmp(lines[i] + 44, "           -", 12))
				fail_msg("%s: a row without a value: %s",
					 pairs[p].name, lines[i]);
			rows++;
		}
		assert_true(rows >= 3);
		for (int i = 0; i < n; i++) {
			if (strstr(lines[i], pairs[p].naive_hint))
				hint_line = i;
			if (strstr(lines[i], "hints for solution: none"))
				none = i;
		}
		assert_true(hint_line > 0);
		assert_true(none > hint_line);
	}
}

/*
 * Labs 01-04 as make profile shows them (the recorded groups are what each
 * lab declares): the naive gets the hints of its lab's lesson, the
 * solution none. These recordings set the thresholds that separate them
 * (grader/profile/profile_derive.c says which number decided which).
 */
static void lab_lessons(void **state)
{
	static const struct {
		const char *name;
		unsigned want, not; /* hint bits: given, and not given */
	} cases[] = {
		/* 01: lanes idle in each chain; a warp waits for its
		 * heaviest lane. The solutions: none. */
		{ "branch-naive", 1u << H_DIVERGENCE, 0 },
		{ "branch-solution", 0, ~0u },
		{ "trip_count-naive", 1u << H_DIVERGENCE, 0 },
		{ "trip_count-solution", 0, ~0u },
		/* 02: a tree in shared memory keeps the SMs busy; atomics
		 * on one address leave everything idle. */
		{ "segment_sum-naive", 1u << H_INSTRUCTIONS, 1u << H_BANKS },
		{ "segment_sum-solution", 0, ~0u },
		{ "filter-naive", 1u << H_LATENCY, 1u << H_REREAD },
		{ "filter-solution", 0, ~0u },
		/* 03: sectors per request; a grid of 8 blocks. */
		{ "grayscale-naive", 1u << H_COALESCING | 1u << H_LATENCY, 0 },
		{ "grayscale-solution", 0, ~0u },
		{ "mean_dim0-naive", 1u << H_COALESCING | 1u << H_GRID,
		  1u << H_LATENCY },
		{ "mean_dim0-1-parallel-uncoalesced",
		  1u << H_COALESCING | 1u << H_LG_THROTTLE, 1u << H_GRID },
		{ "mean_dim0-2-coalesced-scalar", 0, ~0u },
		{ "mean_dim0-solution", 0, ~0u },
		/* 04: strided stores, not re-reads; an unpadded tile's
		 * conflicts; a matmul that loads every operand again. */
		{ "transpose-naive", 1u << H_COALESCING, 1u << H_REREAD },
		{ "transpose-1-shared-tile", 1u << H_BANKS, 1u << H_LATENCY },
		{ "transpose-solution", 0, ~0u },
		{ "matmul-naive", 1u << H_REREAD, 1u << H_LATENCY },
		{ "matmul-solution", 0, ~0u },
	};

	(void)state;
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct prof_view v;
		int ids[PROF_NHINTS], k;
		unsigned got = 0;

		if (handout_lacks(cases[c].name))
			continue;
		view_of(cases[c].name, "x", &v);
		k = prof_hints(&v, run_a.groups, ids, NULL, PROF_NHINTS);
		for (int i = 0; i < k; i++)
			got |= 1u << ids[i];
		if ((got & cases[c].want) != cases[c].want ||
		    got & cases[c].not)
			fail_msg("%s: hints %#x, want %#x and none of %#x",
				 cases[c].name, got, cases[c].want,
				 cases[c].not);
	}
}

static void hints_only_for_groups_shown(void **state)
{
	struct prof_view naive;

	(void)state;
	view_of("matvec-naive", "naive", &naive);
	assert_false(has_hint(&naive, WB_PROF_STALLS | WB_PROF_SHARED,
			      H_COALESCING, NULL, 0));
	assert_false(has_hint(&naive, WB_PROF_THROUGHPUT, H_GRID, NULL, 0));
	assert_int_equal(count_hints(&naive, 0), 0);
}

/* ---- the rules, on made-up numbers ---- */

static void blank(struct prof_view *v)
{
	memset(v, 0, sizeof(*v));
	for (int m = 0; m < PROF_NMETRICS; m++)
		v->m[m] = NAN;
	v->nkernels = 1;
	v->share = 1;
}

static void nothing_measured_no_hint(void **state)
{
	struct prof_view v;
	char lines[PROF_MAX_LINES][G_DETAIL_LEN];
	int n;

	(void)state;
	blank(&v);
	assert_int_equal(count_hints(&v, ~0u), 0);
	n = render_table(&v, 1, 0, ~0u, lines, PROF_MAX_LINES);
	/* The heading and "no hint", no row without a value. */
	assert_int_equal(n, 2);
	assert_contains(lines[0], "metric");
	assert_contains(lines[1], "none");
}

static void coalescing_threshold(void **state)
{
	struct prof_view v;

	(void)state;
	blank(&v);
	v.m[M_LD_REQUESTS] = 1000;
	v.m[M_LD_BYTES] = 1000 * 128; /* 4-byte loads: ideal 4 */
	v.m[M_LD_SECTORS] = 1000 * 7.9;
	assert_false(has_hint(&v, WB_PROF_COALESCING, H_COALESCING, NULL, 0));
	v.m[M_LD_SECTORS] = 1000 * 8.0;
	assert_true(has_hint(&v, WB_PROF_COALESCING, H_COALESCING, NULL, 0));
	/* float4 loads: 16 sectors a request is ideal, not a problem. */
	v.m[M_LD_BYTES] = 1000 * 512;
	v.m[M_LD_SECTORS] = 1000 * 16;
	assert_false(has_hint(&v, WB_PROF_COALESCING, H_COALESCING, NULL, 0));
	/* Stores are judged the same way. */
	v.m[M_ST_REQUESTS] = 10;
	v.m[M_ST_BYTES] = 10 * 128;
	v.m[M_ST_SECTORS] = 10 * 32;
	assert_true(has_hint(&v, WB_PROF_COALESCING, H_COALESCING, NULL, 0));
}

static void grid_threshold(void **state)
{
	struct prof_view v;
	char text[G_DETAIL_LEN];

	(void)state;
	blank(&v);
	v.grid = 8;
	v.block = 128;
	v.m[M_SMS] = 132;
	v.m[M_WAVES] = 0.49;
	assert_true(has_hint(&v, WB_PROF_OCCUPANCY, H_GRID, text, sizeof(text)));
	assert_contains(text, "8 blocks of 128 threads");
	v.m[M_WAVES] = 0.5;
	assert_false(has_hint(&v, WB_PROF_OCCUPANCY, H_GRID, NULL, 0));
	/* Without ncu's waves: under one block per SM. */
	v.m[M_WAVES] = NAN;
	assert_true(has_hint(&v, WB_PROF_OCCUPANCY, H_GRID, NULL, 0));
	v.grid = 132;
	assert_false(has_hint(&v, WB_PROF_OCCUPANCY, H_GRID, NULL, 0));
}

static void latency_needs_both_low_and_gives_way(void **state)
{
	struct prof_view v;

	(void)state;
	blank(&v);
	v.m[M_DRAM_PCT] = 20;
	v.m[M_SM_PCT] = 59;
	assert_true(has_hint(&v, WB_PROF_THROUGHPUT, H_LATENCY, NULL, 0));
	v.m[M_SM_PCT] = 60;
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT, H_LATENCY, NULL, 0));
	/* A grid too small is the more specific reason. */
	v.m[M_SM_PCT] = 10;
	v.grid = 4;
	v.m[M_SMS] = 132;
	v.m[M_WAVES] = 0.01;
	assert_true(has_hint(&v, WB_PROF_THROUGHPUT, H_LATENCY, NULL, 0));
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT | WB_PROF_OCCUPANCY,
			      H_LATENCY, NULL, 0));
}

static void banks_divergence_spills_occupancy(void **state)
{
	struct prof_view v;
	char text[G_DETAIL_LEN];

	(void)state;
	blank(&v);
	v.m[M_SH_LD_WAVES] = 1000;
	v.m[M_SH_LD_CONFLICTS] = 190;
	assert_false(has_hint(&v, WB_PROF_SHARED, H_BANKS, NULL, 0));
	v.m[M_SH_LD_CONFLICTS] = 969; /* a 32-way conflict: 31 of 32 */
	assert_true(has_hint(&v, WB_PROF_SHARED, H_BANKS, text, sizeof(text)));
	assert_contains(text, "labs/04-tiling/README.md");

	/* Every branch splits the warp (lab 01's naive branch: 18 lanes). */
	v.m[M_BR_TARGETS] = 100;
	v.m[M_BR_UNIFORM] = 0;
	v.m[M_BR_DIVERGENT] = 100;
	v.m[M_LANES] = 18;
	assert_true(has_hint(&v, WB_PROF_DIVERGENCE, H_DIVERGENCE, NULL, 0));
	v.m[M_LANES] = 24; /* short branches are predicated: lanes work */
	assert_false(has_hint(&v, WB_PROF_DIVERGENCE, H_DIVERGENCE, NULL, 0));
	/* Loops of different lengths: 61% of the branches split, 15 lanes
	 * (lab 01's trip_count solution) is no hint; under 12 lanes is
	 * (its naive: 8.9). */
	v.m[M_BR_UNIFORM] = 39;
	v.m[M_BR_DIVERGENT] = 61;
	v.m[M_LANES] = 15.2;
	assert_false(has_hint(&v, WB_PROF_DIVERGENCE, H_DIVERGENCE, NULL, 0));
	v.m[M_LANES] = 11.9;
	assert_true(has_hint(&v, WB_PROF_DIVERGENCE, H_DIVERGENCE, text,
			     sizeof(text)));
	assert_contains(text, "11.9 of 32 lanes");
	assert_contains(text, "labs/01-warps/README.md");
	v.m[M_BR_TARGETS] = NAN;
	assert_false(has_hint(&v, WB_PROF_DIVERGENCE, H_DIVERGENCE, NULL, 0));

	v.m[M_LD_REQUESTS] = 1000;
	v.m[M_LOCAL_LD] = 5;
	v.m[M_LOCAL_ST] = 4;
	v.m[M_REGS] = 255;
	assert_false(has_hint(&v, WB_PROF_OCCUPANCY, H_SPILLS, NULL, 0));
	v.m[M_LOCAL_LD] = 50;
	assert_true(has_hint(&v, WB_PROF_OCCUPANCY, H_SPILLS, text, sizeof(text)));
	assert_contains(text, "255 registers");

	v.block = 1024;
	v.m[M_OCC_THEORETICAL] = 50;
	v.m[M_LIM_REGS] = 1;
	v.m[M_LIM_WARPS] = 2;
	v.m[M_LIM_SMEM] = 3;
	v.m[M_LIM_BLOCKS] = 32;
	assert_false(has_hint(&v, WB_PROF_OCCUPANCY, H_OCCUPANCY, NULL, 0));
	v.m[M_OCC_THEORETICAL] = 25;
	assert_true(has_hint(&v, WB_PROF_OCCUPANCY, H_OCCUPANCY, text,
			     sizeof(text)));
	assert_contains(text, "limited by registers");
}

/* At the memory's speed of light, wasted sectors that hit in L1 and
 * waits between loads cost nothing: no coalescing or stall hint. */
static void speed_of_light_silences(void **state)
{
	struct prof_view v;

	(void)state;
	blank(&v);
	v.m[M_LD_REQUESTS] = 1000;
	v.m[M_LD_BYTES] = 1000 * 512;  /* float4: ideal 16 */
	v.m[M_LD_SECTORS] = 1000 * 32; /* 2x: a 3-byte pixel's stride */
	v.m[M_STALL_TOTAL] = 100;
	v.m[M_STALL_FIRST + 0] = 34;   /* barrier */
	v.m[M_DRAM_PCT] = 90;
	v.m[M_SM_PCT] = 15;
	v.m[M_DRAM_RD] = 200e6;
	v.m[M_DRAM_WR] = 60e6;
	v.min_bytes = 268e6;
	assert_int_equal(count_hints(&v, ~0u), 0);
	/* The same at 70%: both are worth a look. */
	v.m[M_DRAM_PCT] = 70;
	assert_true(has_hint(&v, ~0u, H_COALESCING, NULL, 0));
	assert_true(has_hint(&v, ~0u, H_BARRIER, NULL, 0));
	/* Saturated, but with twice the bytes needed: not at its speed of
	 * light, the sectors reach DRAM. */
	v.m[M_DRAM_PCT] = 90;
	v.m[M_DRAM_RD] = 500e6;
	assert_true(has_hint(&v, ~0u, H_COALESCING, NULL, 0));
}

/* Busy SMs, idle DRAM, a task that only moves data: instruction-bound.
 * Not for a compute-bound task, nor when the grid explains it. */
static void instructions_threshold(void **state)
{
	struct prof_view v;
	char text[G_DETAIL_LEN];

	(void)state;
	blank(&v);
	v.m[M_DRAM_PCT] = 13;
	v.m[M_SM_PCT] = 79;
	v.grid = 262144;
	v.block = 256;
	v.min_bytes = 4.0 * 262144 * 256;
	assert_true(has_hint(&v, WB_PROF_THROUGHPUT, H_INSTRUCTIONS, text,
			     sizeof(text)));
	assert_contains(text, "SMs at 79%");
	assert_contains(text, "(4 bytes per thread)");
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT, H_LATENCY, NULL, 0));
	assert_false(has_hint(&v, WB_PROF_STALLS, H_INSTRUCTIONS, NULL, 0));
	v.m[M_SM_PCT] = 59;
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT, H_INSTRUCTIONS, NULL, 0));
	assert_true(has_hint(&v, WB_PROF_THROUGHPUT, H_LATENCY, NULL, 0));
	v.m[M_SM_PCT] = 79;
	v.m[M_DRAM_PCT] = 60;
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT, H_INSTRUCTIONS, NULL, 0));
	v.m[M_DRAM_PCT] = 13;
	v.flops = 1e9;
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT, H_INSTRUCTIONS, NULL, 0));
}

/* A compute-bound task: global loads per operation (lab 04's naive
 * matmul: 1.12 bytes per flop; tiled: a few hundredths). Low occupancy
 * with busy SMs is a register tile's design, not a problem. */
static void compute_bound_rereads_and_occupancy(void **state)
{
	struct prof_view v;
	char text[G_DETAIL_LEN];

	(void)state;
	blank(&v);
	v.flops = 137438953472.0;
	v.m[M_LD_BYTES] = 154618822656.0;
	v.m[M_DRAM_PCT] = 3;
	v.m[M_SM_PCT] = 37;
	assert_true(has_hint(&v, WB_PROF_THROUGHPUT | WB_PROF_STALLS, H_REREAD,
			     text, sizeof(text)));
	assert_contains(text, "1.12 bytes per floating-point operation");
	assert_contains(text, "labs/04-tiling/README.md");
	/* The more specific reason: not "latency-bound" as well. */
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT | WB_PROF_STALLS,
			      H_LATENCY, NULL, 0));
	v.m[M_LD_BYTES] = 4294967296.0;
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT, H_REREAD, NULL, 0));

	v.block = 256;
	v.m[M_OCC_THEORETICAL] = 25;
	v.m[M_LIM_REGS] = 2;
	v.m[M_LIM_WARPS] = 8;
	v.m[M_SM_PCT] = 79;
	assert_false(has_hint(&v, WB_PROF_OCCUPANCY, H_OCCUPANCY, NULL, 0));
	v.m[M_SM_PCT] = 30;
	assert_true(has_hint(&v, WB_PROF_OCCUPANCY, H_OCCUPANCY, NULL, 0));
}

/*
 * Bytes moved: stores that fill part of a sector count a whole one in the
 * L2's write counter, but the L2 merges them: lab 04's naive transpose
 * (column-wise 4-byte stores) wrote 67M sectors, 2.1 GB, for 268 MB of
 * output. Counted as the bytes stored, it moves 1.12x: no re-reads.
 */
static void partial_sector_stores_are_not_rereads(void **state)
{
	struct prof_view v;
	double x;

	(void)state;
	blank(&v);
	v.min_bytes = 536870912;
	v.m[M_DRAM_RD] = 334930688;
	v.m[M_DRAM_WR] = 318263552;
	v.m[M_L2_WR_SECTORS] = 67108862;
	v.m[M_ST_BYTES] = 268435456;
	v.m[M_LD_REQUESTS] = 2097152;
	v.m[M_LD_SECTORS] = 8388608;
	v.m[M_LD_BYTES] = 268435456;
	assert_true(prof_traffic_ratio(&v, &x));
	assert_near(x, (334930688.0 + 268435456) / 536870912, 1e-9);
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT, H_REREAD, NULL, 0));
	/* Whole sectors written (coalesced): the L2's count stands. */
	v.m[M_L2_WR_SECTORS] = 4194304;
	assert_true(prof_traffic_ratio(&v, &x));
	assert_near(x, (334930688.0 + 134217728) / 536870912, 1e-9);
	/* A kernel reading its input twice, coalesced: re-reads. */
	v.m[M_DRAM_RD] = 2 * 536870912.0;
	v.m[M_ST_REQUESTS] = 2097152;
	v.m[M_ST_SECTORS] = 8388608;
	assert_true(has_hint(&v, WB_PROF_THROUGHPUT, H_REREAD, NULL, 0));
	/* With uncoalesced stores the sectors are the likelier reason. */
	v.m[M_ST_SECTORS] = 67108864;
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT, H_REREAD, NULL, 0));
}

/* Wasted sectors that the L1 absorbs (the L2 idle, the bytes at the
 * minimum) do not explain idle DRAM: latency may be hinted beside them
 * (lab 03's naive grayscale); those that reach the L2 do. */
static void coalescing_and_latency(void **state)
{
	struct prof_view v;

	(void)state;
	blank(&v);
	v.m[M_LD_REQUESTS] = 1000;
	v.m[M_LD_BYTES] = 1000 * 32;   /* 1-byte loads: ideal 1 */
	v.m[M_LD_SECTORS] = 1000 * 3;
	v.m[M_DRAM_PCT] = 41;
	v.m[M_SM_PCT] = 34;
	v.m[M_L2_PCT] = 45;
	assert_true(has_hint(&v, WB_PROF_COALESCING | WB_PROF_THROUGHPUT,
			     H_COALESCING, NULL, 0));
	assert_true(has_hint(&v, WB_PROF_COALESCING | WB_PROF_THROUGHPUT,
			     H_LATENCY, NULL, 0));
	v.m[M_L2_PCT] = 97;
	assert_false(has_hint(&v, WB_PROF_COALESCING | WB_PROF_THROUGHPUT,
			      H_LATENCY, NULL, 0));
}

static void stall_shares(void **state)
{
	struct prof_view v;
	char lines[PROF_MAX_LINES][G_DETAIL_LEN];
	int n, seen = 0;

	(void)state;
	blank(&v);
	v.m[M_STALL_TOTAL] = 100;
	for (int i = 0; i < PROF_NSTALLS; i++)
		v.m[M_STALL_FIRST + i] = 1;
	v.m[M_STALL_FIRST + 5] = 76;  /* lg_throttle, as in the seed */
	v.m[M_STALL_FIRST + 0] = 29;  /* barrier: just under 30% */
	assert_string_equal(metric_stall_names[5], "lg_throttle");
	assert_true(has_hint(&v, WB_PROF_STALLS, H_LG_THROTTLE, NULL, 0));
	assert_false(has_hint(&v, WB_PROF_STALLS, H_BARRIER, NULL, 0));
	/* The table shows the three largest, largest first. */
	n = render_table(&v, 1, 0, WB_PROF_STALLS, lines, PROF_MAX_LINES);
	for (int i = 0; i < n; i++) {
		if (strstr(lines[i], "stall: lg_throttle"))
			assert_int_equal(seen++, 0);
		else if (strstr(lines[i], "stall: barrier"))
			assert_int_equal(seen++, 1);
		else if (strstr(lines[i], "stall: "))
			seen++;
	}
	assert_int_equal(seen, 3);
}

/*
 * The schedulers (issue 17): made-up numbers, since no recording has these
 * counters yet (tests/gpu/issue17b.sh records them). Eight warps a
 * scheduler, each issuing every 23 cycles, make 0.35 instructions a
 * cycle: 35% of the issue slots, 0.4 warps ready a cycle. The SMs busy
 * (70%), so not latency-bound: the scheduler hint says why they idle.
 */
static void scheduler_rows_and_hint(void **state)
{
	struct prof_view v;
	char lines[PROF_MAX_LINES][G_DETAIL_LEN], text[G_DETAIL_LEN];
	int n, issue = -1, eligible = -1, between = -1;

	(void)state;
	blank(&v);
	v.m[M_DRAM_PCT] = 20;
	v.m[M_SM_PCT] = 70;
	v.m[M_ISSUE_ACTIVE] = 35;
	v.m[M_WARPS_ACTIVE] = 8;
	v.m[M_WARPS_ELIGIBLE] = 0.4;
	v.m[M_STALL_TOTAL] = 23;
	assert_true(has_hint(&v, WB_PROF_STALLS, H_SCHEDULER, text,
			     sizeof(text)));
	assert_contains(text, "0.40 of 8.0 warps ready");
	assert_contains(text, "35% of cycles");
	assert_false(has_hint(&v, WB_PROF_THROUGHPUT, H_SCHEDULER, NULL, 0));
	n = render_table(&v, 1, 0, WB_PROF_STALLS, lines, PROF_MAX_LINES);
	for (int i = 0; i < n; i++) {
		if (strstr(lines[i], "scheduler issue slots used"))
			issue = i;
		if (strstr(lines[i], "warps eligible/active"))
			eligible = i;
		if (strstr(lines[i], "cycles between issues"))
			between = i;
	}
	assert_true(issue > 0 && eligible == issue + 1 && between > eligible);
	assert_contains(lines[issue], "35%");
	assert_contains(lines[issue], "in 65% of cycles no warp was ready: "
			"8.0 warps issuing every 23.0 cycles each make 0.35");
	assert_contains(lines[eligible], "0.40/8.0");
	assert_contains(lines[eligible], "under 1, it often waits");
	/* Each threshold, one at a time. */
	v.m[M_WARPS_ELIGIBLE] = 1.0;
	assert_false(has_hint(&v, WB_PROF_STALLS, H_SCHEDULER, NULL, 0));
	v.m[M_WARPS_ELIGIBLE] = 0.99;
	v.m[M_ISSUE_ACTIVE] = 60;
	assert_false(has_hint(&v, WB_PROF_STALLS, H_SCHEDULER, NULL, 0));
	v.m[M_ISSUE_ACTIVE] = 59;
	assert_true(has_hint(&v, WB_PROF_STALLS, H_SCHEDULER, NULL, 0));
	/* Memory-bound: the DRAM explains the waits. */
	v.m[M_DRAM_PCT] = 60;
	assert_false(has_hint(&v, WB_PROF_STALLS, H_SCHEDULER, NULL, 0));
	/* Latency-bound says it already: one hint, not two. */
	v.m[M_DRAM_PCT] = 20;
	v.m[M_SM_PCT] = 20;
	assert_true(has_hint(&v, WB_PROF_STALLS, H_LATENCY, NULL, 0));
	assert_false(has_hint(&v, WB_PROF_STALLS, H_SCHEDULER, NULL, 0));
	/* Not measured (the recordings before issue 17): no row, no hint. */
	blank(&v);
	v.m[M_STALL_TOTAL] = 23;
	n = render_table(&v, 1, 0, WB_PROF_STALLS, lines, PROF_MAX_LINES);
	for (int i = 0; i < n; i++) {
		assert_null(strstr(lines[i], "scheduler issue slots"));
		assert_null(strstr(lines[i], "warps eligible"));
	}
	assert_false(has_hint(&v, WB_PROF_STALLS, H_SCHEDULER, NULL, 0));
}

/* ---- the table ---- */

static void table_columns_and_rows(void **state)
{
	struct prof_view v[3];
	char lines[PROF_MAX_LINES][G_DETAIL_LEN];
	int n, row = -1, hints_naive = -1;
	unsigned groups;

	(void)state;
	view_of("matvec-naive", "naive", &v[1]);
	groups = MATVEC_GROUPS;
	view_of("matvec-solution", "solution", &v[2]);
	view_of("matvec-solution", "yours", &v[0]);
	n = render_table(v, 3, 0, groups, lines, PROF_MAX_LINES);
	assert_true(n > 5);
	assert_contains(lines[0], "yours");
	assert_contains(lines[0], "naive");
	assert_contains(lines[0], "solution");
	assert_contains(lines[0], "ideal");
	for (int i = 0; i < n; i++) {
		assert_true(strlen(lines[i]) < G_DETAIL_LEN - 1);
		if (strstr(lines[i], "global load sectors/request"))
			row = i;
		if (strstr(lines[i], "hints for naive"))
			hints_naive = i;
	}
	assert_true(row > 0);
	assert_true(hints_naive > row);
	assert_contains(lines[hints_naive + 1], "coalescing");
	/* A group not shown has no row. */
	n = render_table(v, 3, 0, WB_PROF_STALLS, lines, PROF_MAX_LINES);
	for (int i = 0; i < n; i++)
		assert_null(strstr(lines[i], "sectors/request"));
}

static void group_names(void **state)
{
	char buf[128];

	(void)state;
	render_group_names(WB_PROF_COALESCING | WB_PROF_STALLS, buf, sizeof(buf));
	assert_string_equal(buf, "coalescing stalls");
	render_group_names(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

/* ---- running ncu (tests/profile/fake-ncu) ---- */

struct fake {
	char *dir;
	char runner[600], count[600];
};

static int fake_setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));

	if (!f || !(f->dir = unit_tmpdir()))
		return -1;
	/* The runner is never run by the fake: only its path is used. */
	unit_path(f->runner, sizeof(f->runner), f->dir, "sum");
	unit_path(f->count, sizeof(f->count), f->dir, "calls");
	setenv("FAKE_NCU_COUNT", f->count, 1);
	*state = f;
	return 0;
}

static int fake_teardown(void **state)
{
	struct fake *f = *state;

	unit_rmdir(f->dir);
	free(f);
	unsetenv("FAKE_NCU_MODE");
	unsetenv("FAKE_NCU_COUNT");
	return 0;
}

static int calls(const struct fake *f)
{
	FILE *in = fopen(f->count, "r");
	int n = 0, c;

	while (in && (c = fgetc(in)) != EOF)
		n += c == '\n';
	if (in)
		fclose(in);
	return n;
}

static void missing_ncu_says_so(void **state)
{
	struct ncu_ctx pc;
	struct prof_run *r = &run_b;

	(void)state;
	assert_int_equal(ncu_init(&pc, "", 1, 0), -1);
	assert_true(pc.disabled);
	assert_contains(pc.why, "NCU=");
	assert_int_equal(ncu_init(&pc, "/nonexistent/ncu", 1, 0), -1);
	assert_contains(pc.why, "/nonexistent/ncu");
	assert_int_equal(ncu_collect(&pc, "/x/sum", "sum", "student", r),
			 PROF_NO_NCU);
	assert_contains(r->why, "ncu");
}

static void fake_ok(void **state)
{
	struct fake *f = *state;
	struct ncu_ctx pc;
	struct prof_run *r = &run_b;

	setenv("FAKE_NCU_MODE", "ok:sum-naive", 1);
	assert_int_equal(ncu_init(&pc, DIR "fake-ncu", 7, 3700), 0);
	assert_int_equal(ncu_collect(&pc, f->runner, "sum", "naive", r),
			 PROF_OK);
	assert_int_equal(r->nk, 1);
	assert_true(r->groups != 0);
	assert_int_equal(calls(f), 1);
	assert_false(pc.disabled);
}

static void fake_unknown_metric_is_dropped(void **state)
{
	struct fake *f = *state;
	struct ncu_ctx pc;
	struct prof_run *r = &run_b;

	setenv("FAKE_NCU_MODE", "unknown:sum-naive", 1);
	ncu_init(&pc, DIR "fake-ncu", 7, 0);
	assert_int_equal(ncu_collect(&pc, f->runner, "sum", "student", r),
			 PROF_OK);
	assert_int_equal(calls(f), 2);
	assert_int_equal(pc.ndropped, 1);
	assert_string_equal(pc.dropped[0], "lts__t_sectors_srcunit_tex_op_write");
	/* Remembered: the next run asks without it at once. */
	assert_int_equal(ncu_collect(&pc, f->runner, "sum", "student", r),
			 PROF_OK);
	assert_int_equal(calls(f), 3);
}

static void fake_refused_once_for_all(void **state)
{
	struct fake *f = *state;
	struct ncu_ctx pc;
	struct prof_run *r = &run_b;

	setenv("FAKE_NCU_MODE", "refused", 1);
	ncu_init(&pc, DIR "fake-ncu", 7, 0);
	assert_int_equal(ncu_collect(&pc, f->runner, "sum", "student", r),
			 PROF_NO_PERMISSION);
	assert_true(pc.disabled);
	assert_contains(pc.why, "ERR_NVGPUCTRPERM");
	/* Every later run would be refused too: not tried again. */
	assert_int_equal(ncu_collect(&pc, f->runner, "argmax", "student", r),
			 PROF_NO_NCU);
	assert_int_equal(calls(f), 1);
}

static void fake_attach_to_grade(void **state)
{
	struct fake *f = *state;
	struct ncu_ctx pc;
	struct g_spec s = { .lab = "05-reduction", .name = "sum", .speed = 1 };
	static struct g_result res;
	int table = 0;

	setenv("FAKE_NCU_MODE", "ok:sum-naive", 1);
	ncu_init(&pc, DIR "fake-ncu", 7, 3700);
	memset(&res, 0, sizeof(res));
	ncu_attach(&pc, f->runner, &s, &res);
	assert_true(res.ndetails > 3);
	assert_contains(res.details[0], "profile at n=64M");
	assert_contains(res.details[0], "naive_sum_kernel");
	for (int i = 0; i < res.ndetails; i++)
		table |= strstr(res.details[i], "DRAM throughput") != NULL;
	assert_true(table);
	/* Refused: one line on stdout, nothing attached. */
	setenv("FAKE_NCU_MODE", "refused", 1);
	memset(&res, 0, sizeof(res));
	ncu_attach(&pc, f->runner, &s, &res);
	assert_int_equal(res.ndetails, 0);
	assert_true(pc.said);
}

/* make profile on a GPU older than an exercise needs (lab 08 on a T4):
 * one line says so, ncu is not run, and it is not a failure. */
static void fake_skips_exercise_too_new(void **state)
{
	struct fake *f = *state;
	struct ncu_ctx pc;
	static struct g_row row;
	char lab[600], runner[700], out[700], *text;
	int saved, fd;

	setenv("FAKE_NCU_MODE", "ok:sum-naive", 1);
	ncu_init(&pc, DIR "fake-ncu", 7, 3700);
	memset(&row, 0, sizeof(row));
	strcpy(row.spec.lab, "08-tensor-cores");
	strcpy(row.spec.name, "hgemm");
	row.spec.speed = 1;
	row.spec.min_cc = 80;
	unit_path(lab, sizeof(lab), f->dir, "08-tensor-cores");
	assert_int_equal(mkdir(lab, 0755), 0);
	unit_path(runner, sizeof(runner), lab, "hgemm");
	unit_write(runner, "");
	unit_path(out, sizeof(out), f->dir, "out");

	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(saved >= 0 && fd >= 0);
	dup2(fd, 1);
	pc.cc = 75;
	assert_int_equal(ncu_all(&pc, &row, 1, f->dir, f->dir, "", NULL), 0);
	fflush(stdout);
	dup2(saved, 1);
	close(fd);
	close(saved);
	assert_int_equal(calls(f), 0);
	text = unit_read(out);
	assert_non_null(text);
	assert_contains(text, "08-tensor-cores/hgemm: not profiled: lab 08 "
		       "needs compute capability 8.0 or later; this GPU is 7.5");
	free(text);

	/* The same exercise on an sm_90 GPU is profiled. */
	pc.cc = 90;
	ncu_all(&pc, &row, 1, f->dir, f->dir, "", NULL);
	assert_true(calls(f) > 0);
	remove(runner);
	rmdir(lab);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(csv_kernels_names_units),
		cmocka_unit_test(csv_base_units),
		cmocka_unit_test(csv_hundreds_of_columns),
		cmocka_unit_test(no_kernels_and_garbage),
		cmocka_unit_test(too_many_kernels_are_counted),
		cmocka_unit_test(refused_counters),
		cmocka_unit_test(unknown_metrics_are_named),
		cmocka_unit_test(record_decides_a_run_that_did_not_run),
		cmocka_unit_test(recordings_have_every_metric),
		cmocka_unit_test(two_kernel_call_combines),
		cmocka_unit_test(small_kernel_gets_no_hint),
		cmocka_unit_test(matvec_sectors_gap),
		cmocka_unit_test(sum_naive_busy_solution_not),
		cmocka_unit_test(gelu_naive_moves_too_much),
		cmocka_unit_test(recorded_tables),
		cmocka_unit_test(lab_lessons),
		cmocka_unit_test(hints_only_for_groups_shown),
		cmocka_unit_test(nothing_measured_no_hint),
		cmocka_unit_test(coalescing_threshold),
		cmocka_unit_test(grid_threshold),
		cmocka_unit_test(latency_needs_both_low_and_gives_way),
		cmocka_unit_test(banks_divergence_spills_occupancy),
		cmocka_unit_test(speed_of_light_silences),
		cmocka_unit_test(instructions_threshold),
		cmocka_unit_test(compute_bound_rereads_and_occupancy),
		cmocka_unit_test(partial_sector_stores_are_not_rereads),
		cmocka_unit_test(coalescing_and_latency),
		cmocka_unit_test(stall_shares),
		cmocka_unit_test(scheduler_rows_and_hint),
		cmocka_unit_test(table_columns_and_rows),
		cmocka_unit_test(group_names),
		cmocka_unit_test(missing_ncu_says_so),
		cmocka_unit_test_setup_teardown(fake_ok, fake_setup,
						fake_teardown),
		cmocka_unit_test_setup_teardown(fake_unknown_metric_is_dropped,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(fake_refused_once_for_all,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(fake_attach_to_grade,
						fake_setup, fake_teardown),
		cmocka_unit_test_setup_teardown(fake_skips_exercise_too_new,
						fake_setup, fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
