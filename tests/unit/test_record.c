/* SPDX-License-Identifier: MIT */
/*
 * test_record.c - grader/record.c and common/result.c: reading a lab's
 * `info --list` table, reading a runner's result record (complete or cut
 * short, clean or garbled) and its raw samples, and a record written
 * through the result channel read back the same.
 */
#include "unit.h"

#include "grade.h"
#include "record.h"
#include "score.h"
#include "result.h"

/* As printed by build/sm75/labs/05-reduction/info --list: the tiers are
 * shares of the speed of light, then what that is (dram). */
static const char reduction_list[] =
	"lab 05-reduction\n"
	"exercise sum speed 40 60 60 float32 sum of n elements\n"
	"tier sum 0.3 20\n"
	"tier sum 0.54 40\n"
	"tier sum 0.78 60\n"
	"ideal sum dram 0\n"
	"bench sum n=64M\n"
	"exercise argmax speed 40 60 60 index of the largest float "
	"(lowest on ties)\n"
	"tier argmax 0.29 20\n"
	"tier argmax 0.52 40\n"
	"tier argmax 0.77 60\n"
	"ideal argmax dram 0\n"
	"bench argmax n=64M\n";

/* What a correctness exercise prints: no tiers, bench "-". */
static const char correctness_list[] =
	"lab 01-basics\n"
	"exercise saxpy correctness 10 0 30 y = a * x + y, in place\n"
	"bench saxpy -\n";

static struct g_result fresh(void)
{
	struct g_result r;

	memset(&r, 0, sizeof(r)); /* as the driver does before parsing */
	return r;
}

/* ---- g_parse_list ---- */

static void list_reduction(void **state)
{
	struct g_spec s[8];
	char why[128];

	(void)state;
	assert_int_equal(g_parse_list(reduction_list, "05-reduction", s, 8), 2);
	assert_string_equal(s[0].lab, "05-reduction");
	assert_string_equal(s[0].name, "sum");
	assert_string_equal(s[0].title, "float32 sum of n elements");
	assert_string_equal(s[0].bench, "n=64M");
	assert_int_equal(s[0].speed, 1);
	assert_near(s[0].points_correct, 40, 0);
	assert_near(s[0].points_speed, 60, 0);
	assert_near(s[0].timeout_s, 60, 0);
	assert_int_equal(s[0].ntiers, 3);
	assert_int_equal(s[0].tier_unit, G_TIERS_SHARE);
	assert_near(s[0].tiers[0].x, 0.3, 0);
	assert_near(s[0].tiers[0].points, 20, 0);
	assert_near(s[0].tiers[1].x, 0.54, 0);
	assert_near(s[0].tiers[1].points, 40, 0);
	assert_near(s[0].tiers[2].x, 0.78, 0);
	assert_near(s[0].tiers[2].points, 60, 0);
	assert_string_equal(s[0].ideal, "dram");
	assert_string_equal(s[0].tiers_from, "lab");
	assert_string_equal(s[1].name, "argmax");
	assert_string_equal(s[1].title,
			    "index of the largest float (lowest on ties)");
	assert_int_equal(s[1].ntiers, 3);
	assert_near(s[1].tiers[0].x, 0.29, 0);
	assert_near(s[1].tiers[2].x, 0.77, 0);
	assert_string_equal(s[1].ideal, "dram");
	assert_string_equal(s[1].bench, "n=64M");
	/* What the lab says must also be a consistent table. */
	assert_int_equal(g_spec_validate(&s[0], why, sizeof(why)), 0);
	assert_int_equal(g_spec_validate(&s[1], why, sizeof(why)), 0);
}

static void list_correctness_exercise(void **state)
{
	struct g_spec s[2];
	char why[128];

	(void)state;
	assert_int_equal(g_parse_list(correctness_list, "01-basics", s, 2), 1);
	assert_int_equal(s[0].speed, 0);
	assert_int_equal(s[0].ntiers, 0);
	assert_string_equal(s[0].bench, "-");
	assert_string_equal(s[0].title, "y = a * x + y, in place");
	assert_near(s[0].timeout_s, 30, 0);
	assert_int_equal(g_spec_validate(&s[0], why, sizeof(why)), 0);
}

/* What the shares are of: the DRAM, the library peer (matmul), or an
 * instruction-bound ideal with its speedup over the naive. */
static void list_ideal_kinds(void **state)
{
	static const char text[] =
		"lab 99-x\n"
		"exercise a speed 40 60 60 A\ntier a 0.5 60\nideal a dram 0\n"
		"exercise b speed 40 60 60 B\ntier b 0.5 60\nideal b peer 0\n"
		"exercise c speed 40 60 60 C\ntier c 0.5 60\nideal c instr 2\n";
	struct g_spec s[3];

	(void)state;
	assert_int_equal(g_parse_list(text, "99-x", s, 3), 3);
	assert_string_equal(s[0].ideal, "dram");
	assert_string_equal(s[1].ideal, "peer");
	assert_string_equal(s[2].ideal, "instr");
	assert_near(s[2].instr_speedup, 2, 0);
	/* No other kind, and only for a known exercise. */
	assert_int_equal(g_parse_list("exercise a speed 40 60 60 A\n"
				      "ideal a tensor 0\n", "x", s, 3), -1);
	assert_int_equal(g_parse_list("exercise a speed 40 60 60 A\n"
				      "ideal b dram 0\n", "x", s, 3), -1);
	assert_int_equal(g_parse_list("exercise a speed 40 60 60 A\n"
				      "ideal a dram\n", "x", s, 3), -1);
}

/* An exercise for newer GPUs on tensor cores (lab 08) says so; the rest
 * need nothing and count on CUDA cores. */
static void list_arch(void **state)
{
	static const char text[] =
		"lab 08-x\n"
		"exercise a speed 40 60 60 A\ntier a 0.5 60\nideal a peer 0\n"
		"arch a 80 tensor\nbench a 4096^3\n"
		"exercise b speed 40 60 60 B\ntier b 0.5 60\nideal b dram 0\n";
	struct g_spec s[2];

	(void)state;
	assert_int_equal(g_parse_list(text, "08-x", s, 2), 2);
	assert_int_equal(s[0].min_cc, 80);
	assert_int_equal(s[0].tensor_flops, 1);
	assert_string_equal(s[0].bench, "4096^3");
	assert_int_equal(s[1].min_cc, 0);
	assert_int_equal(s[1].tensor_flops, 0);
	assert_int_equal(g_parse_list("exercise a speed 40 60 60 A\n"
				      "arch a 80 fp8\n", "x", s, 2), -1);
	assert_int_equal(g_parse_list("exercise a speed 40 60 60 A\n"
				      "arch b 80 tensor\n", "x", s, 2), -1);
}

static void list_crlf(void **state)
{
	static const char text[] =
		"lab 05-reduction\r\n"
		"exercise sum speed 40 60 60 float32 sum\r\n"
		"tier sum 0.5 60\r\n"
		"ideal sum dram 0\r\n"
		"bench sum n=1M\r\n";
	struct g_spec s[2];

	(void)state;
	assert_int_equal(g_parse_list(text, "05-reduction", s, 2), 1);
	assert_string_equal(s[0].title, "float32 sum");
	assert_string_equal(s[0].bench, "n=1M");
	assert_string_equal(s[0].ideal, "dram");
}

static void list_empty(void **state)
{
	struct g_spec s[2];

	(void)state;
	assert_int_equal(g_parse_list("", "x", s, 2), 0);
	assert_int_equal(g_parse_list("lab 07-empty\n", "x", s, 2), 0);
}

static void list_garbled(void **state)
{
	struct g_spec s[8];

	(void)state;
	assert_int_equal(g_parse_list("Segmentation fault (core dumped)\n",
				      "x", s, 8), -1);
	/* One bad line spoils the table, wherever it is. */
	assert_int_equal(g_parse_list("lab x\nexercise a speed 1 2 3 t\n"
				      "tier a 2 2\nwarning: something\n",
				      "x", s, 8), -1);
	/* Points that are not numbers. */
	assert_int_equal(g_parse_list("exercise a speed forty 60 60 t\n",
				      "x", s, 8), -1);
	assert_int_equal(g_parse_list("tier a two 20\n", "x", s, 8), -1);
}

static void list_tier_for_unknown_exercise(void **state)
{
	struct g_spec s[8];

	(void)state;
	assert_int_equal(g_parse_list("exercise sum speed 40 60 60 t\n"
				      "tier summ 2 60\n", "x", s, 8), -1);
	/* A tier before its exercise is as unknown. */
	assert_int_equal(g_parse_list("tier sum 2 60\n"
				      "exercise sum speed 40 60 60 t\n",
				      "x", s, 8), -1);
}

static void list_bench_for_unknown_exercise(void **state)
{
	struct g_spec s[8];

	(void)state;
	assert_int_equal(g_parse_list("exercise sum speed 40 60 60 t\n"
				      "tier sum 2 60\nbench scan n=1M\n",
				      "x", s, 8), -1);
}

static void list_too_many_exercises(void **state)
{
	struct g_spec s[3];

	(void)state;
	/* Room for two: the third must be refused, not written past. */
	memset(&s[2], 0x5a, sizeof(s[2]));
	assert_int_equal(g_parse_list("exercise a correctness 1 0 1 A\n"
				      "exercise b correctness 1 0 1 B\n"
				      "exercise c correctness 1 0 1 C\n",
				      "x", s, 2), -1);
	assert_int_equal(s[2].name[0], 0x5a);
	assert_string_equal(s[1].name, "b");
}

static void list_too_many_tiers(void **state)
{
	char text[1024], why[128];
	struct g_spec s[1];
	int n;

	(void)state;
	n = snprintf(text, sizeof(text), "exercise a speed 1 %d 1 A\n",
		     G_MAX_TIERS);
	for (int i = 1; i <= G_MAX_TIERS; i++)
		n += snprintf(text + n, sizeof(text) - n, "tier a %g %d\n",
			      0.1 * i, i);
	assert_int_equal(g_parse_list(text, "x", s, 1), 1);
	assert_int_equal(s[0].ntiers, G_MAX_TIERS);
	assert_int_equal(g_spec_validate(&s[0], why, sizeof(why)), 0);
	snprintf(text + n, sizeof(text) - n, "tier a 0.95 99\n");
	assert_int_equal(g_parse_list(text, "x", s, 1), -1);
}

/* ---- g_parse_record ---- */

/* What runner.c's bench_all() writes for a timed PASS (result.h). */
static const char pass_record[] =
	"seed 1234\n"
	"size n=1 ok\n"
	"size n=1000 ok\n"
	"size n=64M ok\n"
	"detail speed of light 82.0 us: 268 MB read at 3300 GB/s, 0 MB "
	"written at 3100 GB/s (probes timed in the same rounds)\n"
	"time naive 640 639 641.5 31\n"
	"time student 105 104.5 105.5 31\n"
	"time ideal 82 81.5 82.5 31\n"
	"ratio speedup 6.09524 6.05 6.12\n"
	"ratio share 0.78095 0.775 0.786\n"
	"ratio naive_ideal 7.80488 0 0\n"
	"ratio share_max 0.81 0 0\n"
	"sol dram 268435456 4 3300.5 3100.2\n"
	"clock 1755 1980 1980\n"
	"rounds 31 2 1 0 3 0\n"
	"bytes 268435460\n"
	"verdict PASS\n"
	"end\n";

static void record_complete_pass(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record(pass_record, &r);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_int_equal(r.complete, 1);
	assert_int_equal(r.garbled, 0);
	assert_int_equal(r.ndetails, 1);
	assert_int_equal(r.sizes_ok, 3);
	assert_int_equal(r.sizes_failed, 0);
	assert_true(r.t[G_NAIVE].have);
	assert_near(r.t[G_NAIVE].median_us, 640, 0);
	assert_near(r.t[G_NAIVE].q1_us, 639, 0);
	assert_near(r.t[G_NAIVE].q3_us, 641.5, 0);
	assert_int_equal(r.t[G_NAIVE].samples, 31);
	assert_true(r.t[G_STUDENT].have);
	assert_near(r.t[G_STUDENT].median_us, 105, 0);
	assert_true(r.t[G_IDEAL].have);
	assert_near(r.t[G_IDEAL].median_us, 82, 0);
	assert_near(r.t[G_IDEAL].q3_us, 82.5, 0);
	assert_false(r.t[G_PEER].have);
	assert_true(r.r_speedup.have);
	assert_near(r.r_speedup.med, 6.09524, 0);
	assert_near(r.r_speedup.lo, 6.05, 0);
	assert_near(r.r_speedup.hi, 6.12, 0);
	assert_true(r.r_share.have);
	assert_near(r.r_share.med, 0.78095, 0);
	assert_near(r.r_share.lo, 0.775, 0);
	assert_near(r.r_share.hi, 0.786, 0);
	assert_near(r.naive_ideal, 7.80488, 0);
	assert_near(r.share_max, 0.81, 0);
	assert_string_equal(r.sol, "dram");
	assert_near(r.read_bytes, 268435456, 0);
	assert_near(r.write_bytes, 4, 0);
	assert_near(r.read_gbps, 3300.5, 0);
	assert_near(r.write_gbps, 3100.2, 0);
	assert_near(r.mhz_min, 1755, 0);
	assert_near(r.mhz_med, 1980, 0);
	assert_near(r.mhz_max, 1980, 0);
	assert_int_equal(r.rounds, 31);
	assert_int_equal(r.dropped, 2);
	assert_int_equal(r.extra, 1);
	assert_int_equal(r.resets, 0);
	assert_int_equal(r.verified, 3);
	assert_int_equal(r.throttled, 0);
	assert_near(r.bytes, 268435460, 0);
}

/* The other ideals, the peer's time (make bench) and a throttled GPU. */
static void record_peer_and_throttled(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record("time naive 900 890 910 15\n"
		       "time peer 20 19 21 15\n"
		       "sol peer 0 0 0 0\n"
		       "rounds 15 12 0 1 2 1\n"
		       "verdict PASS\nend\n", &r);
	assert_int_equal(r.garbled, 0);
	assert_true(r.t[G_PEER].have);
	assert_near(r.t[G_PEER].median_us, 20, 0);
	assert_false(r.r_speedup.have); /* no ratio line: none */
	assert_false(r.r_share.have);
	assert_string_equal(r.sol, "peer");
	assert_int_equal(r.throttled, 1);
	assert_int_equal(r.resets, 1);
	r = fresh();
	g_parse_record("sol instr 8 4 0 0\nverdict PASS\nend\n", &r);
	assert_int_equal(r.garbled, 0);
	assert_string_equal(r.sol, "instr");
	/* a roofline and its compute probe, measured in the same rounds */
	r = fresh();
	g_parse_record("sol roof 8 4 3000 3000\npeak wgmma 812.5\n"
		       "verdict PASS\nend\n", &r);
	assert_int_equal(r.garbled, 0);
	assert_string_equal(r.sol, "roof");
	assert_string_equal(r.peak, "wgmma");
	assert_near(r.peak_tflops, 812.5, 0);
}

static void record_sizes_failed_and_details(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record("size n=1 ok\nsize n=33 fail\n"
		       "detail n=33: out[0] = 1.5, expected 2\n"
		       "verdict WRONG\nend\n", &r);
	assert_int_equal(r.verdict, WB_V_WRONG);
	assert_int_equal(r.sizes_ok, 1);
	assert_int_equal(r.sizes_failed, 1);
	assert_int_equal(r.ndetails, 1);
	assert_string_equal(r.details[0], "n=33: out[0] = 1.5, expected 2");
	assert_false(r.t[G_STUDENT].have);
	assert_int_equal(r.garbled, 0);
}

static void record_zero_time_is_no_time(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record("time student 0 0 0 0\nverdict PASS\nend\n", &r);
	assert_false(r.t[G_STUDENT].have);
	assert_int_equal(r.garbled, 0);
}

static void record_without_end(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record("seed 1\nsize n=1 ok\nverdict PASS\n", &r);
	assert_int_equal(r.complete, 0);
	assert_int_equal(r.sizes_ok, 1);
	assert_int_equal(r.verdict, WB_V_PASS); /* said, but not finished */
}

static void record_lines_after_end(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record("verdict PASS\nend\nverdict WRONG\n", &r);
	assert_int_equal(r.complete, 1);
	assert_int_equal(r.garbled, 1);
	assert_int_equal(r.verdict, WB_V_PASS); /* not overwritten */

	r = fresh();
	g_parse_record("verdict PASS\nend\nend\n", &r);
	assert_int_equal(r.garbled, 1);

	/* Said once, however much follows. */
	r = fresh();
	g_parse_record("verdict PASS\nend\nverdict PASS\nend\nratio speedup "
		       "9 8 10\n", &r);
	assert_int_equal(r.garbled, 1);
	assert_int_equal(r.ndetails, 1);
	assert_contains(r.details[0], "after its verdict");
	assert_false(r.r_speedup.have);
}

static void record_unknown_verdict(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record("verdict MAYBE\nend\n", &r);
	assert_int_equal(r.garbled, 1);
	assert_int_equal(r.verdict, WB_V_ERROR);
	assert_int_equal(r.complete, 1);
}

static void record_every_verdict_key(void **state)
{
	char text[64];

	(void)state;
	for (int v = 0; v < WB_V_COUNT; v++) {
		struct g_result r = fresh();

		snprintf(text, sizeof(text), "verdict %s\nend\n",
			 wb_verdict_key((enum wb_verdict)v));
		g_parse_record(text, &r);
		assert_int_equal(r.verdict, v);
		assert_int_equal(r.garbled, 0);
	}
}

static void record_unknown_key(void **state)
{
	static const char *const bad[] = {
		"verdit PASS\n",                 /* a typo */
		"time student 25 24 26\n",        /* a field short */
		"time gpu 25 24 26 10\n",         /* no such implementation */
		"time ideal 82 81 83\n",
		"host student 26\n",              /* the host clock is gone */
		"host gpu 25\n",
		"bytes lots\n",
		"\x01\x02 nonsense\n",
		"verdict\n",                      /* no value */
		/* ratio: what, median, 95% interval around it */
		"ratio speedup 4 3.9\n",
		"ratio speedup 4 4.1 4.5\n",      /* under its interval */
		"ratio share 0.8 0.7 0.75\n",     /* above it */
		"ratio speedup 0 0 0\n",          /* no ratio at all */
		"ratio share -0.5 -1 0\n",
		"ratio speed 4 3.9 4.1\n",        /* no such ratio */
		"ratio naive_ideal fast 0 0\n",
		"ratio\n",
		/* sol: dram, peer, instr or roof, then four numbers */
		"sol dram 268435456 4 3300\n",
		"sol l2 268435456 4 3300 3100\n",
		"sol dram lots 4 3300 3100\n",
		/* peak: fma, mma or wgmma, and a positive rate */
		"peak tensor 900\n",
		"peak mma 0\n",
		"peak fma\n",
		"clock 1755 1980\n",
		"clock fast 1980 1980\n",
		"rounds 31 2 1 0 3\n",
		"rounds 31 2 1 0 3 no\n",
		/* phase: a name and non-negative seconds */
		"phase init\n",
		"phase init -1\n",
		"phase init soon\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct g_result r = fresh();
		char text[128];

		snprintf(text, sizeof(text), "%sverdict PASS\nend\n", bad[i]);
		g_parse_record(text, &r);
		if (!r.garbled)
			fail_msg("\"%s\" was not flagged as garbled", bad[i]);
		assert_int_equal(r.verdict, WB_V_PASS);
	}
}

/* Phases: in the order first seen, a name seen again (one per benchmark
 * shape) adds up; none is part of a grade. */
static void record_phases_add_up_in_order(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record("phase init 0.25\nphase checks 0.5\nphase prep 1\n"
		       "phase rounds 0.125\nphase prep 2\nverdict PASS\nend\n",
		       &r);
	assert_false(r.garbled);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_int_equal(r.nphases, 4);
	assert_string_equal(r.phase_name[0], "init");
	assert_string_equal(r.phase_name[2], "prep");
	assert_true(r.phase_s[2] == 3.0);
	assert_true(r.phase_s[3] == 0.125);
	assert_true(r.points == 0);
}

static void record_details_in_order_and_capped(void **state)
{
	char *text = malloc(100 * 32);
	struct g_result r = fresh();
	size_t n = 0;

	(void)state;
	assert_non_null(text);
	for (int i = 0; i < G_MAX_DETAILS + 12; i++)
		n += (size_t)sprintf(text + n, "detail line %d\n", i);
	sprintf(text + n, "verdict WRONG\nend\n");
	g_parse_record(text, &r);
	free(text);
	assert_int_equal(r.ndetails, G_MAX_DETAILS);
	for (int i = 0; i < G_MAX_DETAILS; i++) {
		char want[32];

		snprintf(want, sizeof(want), "line %d", i);
		assert_string_equal(r.details[i], want);
	}
	assert_int_equal(r.verdict, WB_V_WRONG); /* read on after the cap */
	assert_int_equal(r.complete, 1);
}

static void record_long_detail_truncated(void **state)
{
	char text[2 * G_DETAIL_LEN + 32];
	struct g_result r = fresh();

	(void)state;
	strcpy(text, "detail ");
	memset(text + 7, 'z', 2 * G_DETAIL_LEN);
	strcpy(text + 7 + 2 * G_DETAIL_LEN, "\nend\n");
	g_parse_record(text, &r);
	assert_int_equal(r.ndetails, 1);
	assert_int_equal(strlen(r.details[0]), G_DETAIL_LEN - 1);
	assert_int_equal(r.complete, 1);
}

static void record_null_and_empty(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record(NULL, &r);
	assert_int_equal(r.verdict, WB_V_ERROR);
	assert_int_equal(r.complete, 0);
	assert_int_equal(r.ndetails, 0);

	r = fresh();
	r.verdict = WB_V_PASS;
	g_parse_record("", &r); /* an empty file is no PASS */
	assert_int_equal(r.verdict, WB_V_ERROR);
	assert_int_equal(r.complete, 0);
}

static void record_crlf_and_blank_lines(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record("seed 1\r\n\r\n\nverdict PASS\r\nend\r\n\n", &r);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_int_equal(r.complete, 1);
	assert_int_equal(r.garbled, 0);
}

static void detail_formats_and_caps(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_detail(&r, "%d of %s", 3, "five");
	assert_int_equal(r.ndetails, 1);
	assert_string_equal(r.details[0], "3 of five");
	for (int i = 0; i < 2 * G_MAX_DETAILS; i++)
		g_detail(&r, "more");
	assert_int_equal(r.ndetails, G_MAX_DETAILS);
	assert_string_equal(r.details[0], "3 of five");
}

/* ---- the result channel, written then read back ---- */

static int make_dir(void **state)
{
	*state = unit_tmpdir();
	return *state ? 0 : -1;
}

static int remove_dir(void **state)
{
	unit_rmdir(*state);
	return 0;
}

static void channel_round_trip(void **state)
{
	char path[600], *text;
	struct g_result r = fresh();
	FILE *f;
	long len;

	unit_path(path, sizeof(path), *state, "sum.result");
	assert_int_equal(wb_result_open(path), 0);
	wb_result("seed", "%llu", 77ull);
	wb_result("size", "%s %s", "n=1", "ok");
	wb_result("detail", "got %d\nwant %d\r(cr)", 1, 2);
	wb_result("time", "%s %.3f %.3f %.3f %d", "student", 25.0, 24.5,
		  25.5, 31);
	wb_result("time", "%s %.3f %.3f %.3f %d", "naive", 100.0, 99.0,
		  101.0, 20);
	wb_result("ratio", "speedup %.5f %.5f %.5f", 4.0, 3.9, 4.1);
	wb_result("bytes", "%.0f", 1e6);
	wb_result("verdict", "%s", wb_verdict_key(WB_V_PASS));
	wb_result_end();
	/* After "end" the channel is closed: nothing more is written. */
	wb_result("detail", "%s", "too late");
	wb_result_end();

	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)len + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), len);
	fclose(f);
	assert_contains(text, "detail got 1 want 2 (cr)\n");
	assert_null(strstr(text, "too late"));
	assert_int_equal(strcmp(text + len - 4, "end\n"), 0);

	g_parse_record(text, &r);
	free(text);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_int_equal(r.complete, 1);
	assert_int_equal(r.garbled, 0);
	assert_int_equal(r.ndetails, 1);
	assert_string_equal(r.details[0], "got 1 want 2 (cr)");
	assert_int_equal(r.sizes_ok, 1);
	assert_near(r.t[G_STUDENT].median_us, 25, 0);
	assert_near(r.t[G_NAIVE].median_us, 100, 0);
	assert_near(r.r_speedup.med, 4, 0);
	assert_near(r.r_speedup.hi, 4.1, 0);
	assert_near(r.bytes, 1e6, 0);
}

static void channel_open_fails_cleanly(void **state)
{
	(void)state;
	assert_int_equal(wb_result_open("/nonexistent-wb-dir/x/sum.result"),
			 -1);
	/* A closed channel swallows writes instead of crashing. */
	wb_result("verdict", "%s", "PASS");
	wb_result_end();
}

/* An exercise that always runs racecheck and synccheck (lab 02's
 * lockstep): bit i of .sanitize is san_tools[i]; memcheck 0, racecheck 1,
 * synccheck 2. */
static void list_sanitize(void **state)
{
	static const char list[] =
		"lab 02-shfl\n"
		"exercise lockstep correctness 40 0 60 fix it\n"
		"bench lockstep -\n"
		"sanitize lockstep racecheck,synccheck\n"
		"exercise neighbors correctness 40 0 30 lanes\n"
		"bench neighbors -\n";
	struct g_spec s[4];

	(void)state;
	assert_int_equal(g_parse_list(list, "02-shfl", s, 4), 2);
	assert_int_equal(s[0].sanitize, 2u | 4u);
	assert_int_equal(s[1].sanitize, 0);
}

/* A tool the driver does not know, an empty list or an unknown exercise
 * make the table unreadable: a required check must never be dropped. */
static void list_sanitize_garbled(void **state)
{
	static const char *const bad[] = {
		"exercise a correctness 1 0 1 t\nsanitize a racecheck,helgrind\n",
		"exercise a correctness 1 0 1 t\nsanitize a ,\n",
		"exercise a correctness 1 0 1 t\nsanitize b racecheck\n",
		"exercise a correctness 1 0 1 t\nsanitize a racechecks\n",
	};
	struct g_spec s[2];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(g_parse_list(bad[i], "x", s, 2), -1);
	assert_int_equal(g_parse_list("exercise a correctness 1 0 1 t\n"
				      "sanitize a memcheck\n", "x", s, 2), 1);
	assert_int_equal(s[0].sanitize, 1u);
}

/* ---- a record's raw samples (g_parse_record_samples) ---- */

/* What runner.c's shape_samples() writes before the figures. */
static const char samples_record[] =
	"shape 0 n=64M 3 student 0 1755 1980 1980\n"
	"sample 0 0 105.25 640.5 82.125\n"
	"sample 0 1 104.5 641 82\n"
	"sample 0 2 106 639.75 81.875\n"
	"shape 1 n=16M 2 student 1 1700 1800 1900\n"
	"sample 1 0 26 160 20.5\n"
	"sample 1 1 27 161 0\n"
	"time naive 640 639 641.5 3\n"
	"verdict PASS\n"
	"end\n";

static void record_samples_read(void **state)
{
	static struct g_samples smp;
	struct g_result r = fresh();

	(void)state;
	g_parse_record_samples(samples_record, &r, &smp);
	assert_int_equal(r.garbled, 0);
	assert_int_equal(r.complete, 1);
	assert_true(r.t[G_NAIVE].have); /* the other lines as before */
	assert_int_equal(smp.bad, 0);
	assert_int_equal(smp.nshapes, 2);
	assert_string_equal(smp.shape[0].label, "n=64M");
	assert_string_equal(smp.shape[0].who, "student");
	assert_int_equal(smp.shape[0].rounds, 3);
	assert_int_equal(smp.shape[0].n, 3);
	assert_near(smp.shape[0].small, 0, 0);
	assert_near(smp.shape[0].mhz_min, 1755, 0);
	assert_near(smp.shape[0].mhz_max, 1980, 0);
	assert_near(smp.shape[0].us[G_S_OTHER][0], 105.25, 0);
	assert_near(smp.shape[0].us[G_S_NAIVE][1], 641, 0);
	assert_near(smp.shape[0].us[G_S_IDEAL][2], 81.875, 0);
	assert_int_equal(smp.shape[1].n, 2);
	assert_near(smp.shape[1].small, 1, 0);
	assert_near(smp.shape[1].mhz_med, 1800, 0);
	assert_near(smp.shape[1].us[G_S_OTHER][1], 27, 0);
	assert_near(smp.shape[1].us[G_S_IDEAL][1], 0, 0); /* judged later */
}

/* The grader's reference and the sanitizers' records are read without
 * their samples: passed over, never unreadable. */
static void record_samples_passed_over(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_parse_record(samples_record, &r);
	assert_int_equal(r.garbled, 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_true(r.t[G_NAIVE].have);
}

/* A line that cannot be read is an unreadable record, as any other;
 * NaN and negative times are read (g_measure() judges them). */
static void record_samples_unreadable(void **state)
{
	static const char *const bad[] = {
		"shape 0 n=64M 3 alien 0 1 1 1\n",
		"shape 0 n=64M 3 student 0 1 1\n",
		"shape zero n=64M 3 student 0 1 1 1\n",
		"shape 0 n=64M 1 student 0 1 1 1\nsample 0 0 25 100\n",
		"shape 0 n=64M 1 student 0 1 1 1\nsample 0 0 25 abc 10\n",
	};
	static struct g_samples smp;
	struct g_result r;
	char text[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = fresh();
		snprintf(text, sizeof(text), "%sverdict PASS\nend\n", bad[i]);
		g_parse_record_samples(text, &r, &smp);
		assert_int_equal(r.garbled, 1);
	}
	r = fresh();
	g_parse_record_samples("shape 0 n=64M 2 student 0 1 1 1\n"
			       "sample 0 0 nan -5 inf\nsample 0 1 -nan 1 1\n"
			       "verdict PASS\nend\n", &r, &smp);
	assert_int_equal(r.garbled, 0);
	assert_int_equal(smp.bad, 0);
	assert_true(isnan(smp.shape[0].us[G_S_OTHER][0]));
	assert_near(smp.shape[0].us[G_S_NAIVE][0], -5, 0);
	assert_true(isinf(smp.shape[0].us[G_S_IDEAL][0]));
}

/* Samples out of order, of another shape, before any shape, or beyond
 * the most a shape keeps: noted (the first only), for a GRADER ERROR. */
static void record_samples_out_of_order(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "sample 0 0 1 1 1\n", "a sample of shape 0 before any shape "
					"line" },
		{ "shape 1 a 1 student 0 1 1 1\n", "a line for shape 1 where "
						   "shape 0 was due" },
		{ "shape 0 a 2 student 0 1 1 1\nsample 0 1 1 1 1\n",
		  "shape 0: round 1 where round 0 was due" },
		{ "shape 0 a 2 student 0 1 1 1\nsample 0 0 1 1 1\n"
		  "sample 0 0 1 1 1\nsample 0 5 1 1 1\n",
		  "shape 0: round 0 where round 1 was due" },
		{ "shape 0 a 2 student 0 1 1 1\nshape 1 b 2 student 0 1 1 1\n"
		  "sample 0 0 1 1 1\n", "a sample of shape 0 among the samples "
					"of shape 1" },
		{ "shape 0 a 1 student 0 1 1 1\nshape 1 b 1 student 0 1 1 1\n"
		  "shape 2 c 1 student 0 1 1 1\nshape 3 d 1 student 0 1 1 1\n",
		  "a line for shape 3 where shape 3 was due (at most 3)" },
	};
	static struct g_samples smp;
	struct g_result r;
	char text[512];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		r = fresh();
		snprintf(text, sizeof(text), "%sverdict PASS\nend\n",
			 cases[i].text);
		g_parse_record_samples(text, &r, &smp);
		assert_int_equal(r.garbled, 0);
		assert_true(smp.bad >= 1);
		assert_contains(smp.why, cases[i].why);
	}
}

/* More rounds than a shape ever keeps stop at G_MAX_ROUNDS. */
static void record_samples_too_many(void **state)
{
	static struct g_samples smp;
	static char text[64 * (G_MAX_ROUNDS + 4)];
	struct g_result r = fresh();
	size_t n = 0;

	(void)state;
	n += (size_t)sprintf(text + n, "shape 0 a %d student 0 1 1 1\n",
			     G_MAX_ROUNDS + 1);
	for (int k = 0; k <= G_MAX_ROUNDS; k++)
		n += (size_t)sprintf(text + n, "sample 0 %d 1 2 3\n", k);
	sprintf(text + n, "verdict PASS\nend\n");
	g_parse_record_samples(text, &r, &smp);
	assert_int_equal(r.garbled, 0);
	assert_int_equal(smp.shape[0].n, G_MAX_ROUNDS);
	assert_int_equal(smp.bad, 1);
	assert_contains(smp.why, "round 401 where round 401 was due (at most "
			"401)");
}

/* A detail put first goes before the others; when they are full, the
 * last one goes. */
static void detail_first_goes_first(void **state)
{
	struct g_result r = fresh();

	(void)state;
	g_detail(&r, "one");
	g_detail(&r, "two");
	g_detail_first(&r, "zero %d", 0);
	assert_int_equal(r.ndetails, 3);
	assert_string_equal(r.details[0], "zero 0");
	assert_string_equal(r.details[1], "one");
	assert_string_equal(r.details[2], "two");
	r = fresh();
	for (int i = 0; i < G_MAX_DETAILS; i++)
		g_detail(&r, "d%d", i);
	g_detail_first(&r, "first");
	assert_int_equal(r.ndetails, G_MAX_DETAILS);
	assert_string_equal(r.details[0], "first");
	assert_string_equal(r.details[1], "d0");
	assert_string_equal(r.details[G_MAX_DETAILS - 1], "d46");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(list_reduction),
		cmocka_unit_test(list_correctness_exercise),
		cmocka_unit_test(list_ideal_kinds),
		cmocka_unit_test(list_arch),
		cmocka_unit_test(list_crlf),
		cmocka_unit_test(list_empty),
		cmocka_unit_test(list_garbled),
		cmocka_unit_test(list_tier_for_unknown_exercise),
		cmocka_unit_test(list_bench_for_unknown_exercise),
		cmocka_unit_test(list_too_many_exercises),
		cmocka_unit_test(list_too_many_tiers),
		cmocka_unit_test(list_sanitize),
		cmocka_unit_test(list_sanitize_garbled),
		cmocka_unit_test(record_complete_pass),
		cmocka_unit_test(record_peer_and_throttled),
		cmocka_unit_test(record_sizes_failed_and_details),
		cmocka_unit_test(record_zero_time_is_no_time),
		cmocka_unit_test(record_without_end),
		cmocka_unit_test(record_lines_after_end),
		cmocka_unit_test(record_unknown_verdict),
		cmocka_unit_test(record_every_verdict_key),
		cmocka_unit_test(record_unknown_key),
		cmocka_unit_test(record_details_in_order_and_capped),
		cmocka_unit_test(record_phases_add_up_in_order),
		cmocka_unit_test(record_long_detail_truncated),
		cmocka_unit_test(record_null_and_empty),
		cmocka_unit_test(record_crlf_and_blank_lines),
		cmocka_unit_test(record_samples_read),
		cmocka_unit_test(record_samples_passed_over),
		cmocka_unit_test(record_samples_unreadable),
		cmocka_unit_test(record_samples_out_of_order),
		cmocka_unit_test(record_samples_too_many),
		cmocka_unit_test(detail_first_goes_first),
		cmocka_unit_test(detail_formats_and_caps),
		cmocka_unit_test_setup_teardown(channel_round_trip, make_dir,
						remove_dir),
		cmocka_unit_test(channel_open_fails_cleanly),
	};

	return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
