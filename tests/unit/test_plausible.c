/* SPDX-License-Identifier: MIT */
/*
 * test_plausible.c - grader/score/plausible.c: SUSPICIOUS scoring. A passing
 * result faster than a ceiling (bandwidth, fp32 FLOP/s, or its share of
 * its ideal: the speed of light measured in the same rounds, the
 * instruction-bound ideal, what the GPU allows a peer's exercise) earns
 * nothing and shows its figures; honest results, up to the ceilings, are
 * left alone.
 */
#include "unit.h"

#include "plausible.h"
#include "score.h"

static struct g_spec sum_spec(void)
{
	struct g_spec s;

	memset(&s, 0, sizeof(s));
	snprintf(s.lab, sizeof(s.lab), "05-reduction");
	snprintf(s.name, sizeof(s.name), "sum");
	s.speed = 1;
	s.points_correct = 40;
	s.points_speed = 60;
	s.tiers[0] = (struct g_tier){ 0.30, 20 };
	s.tiers[1] = (struct g_tier){ 0.78, 60 };
	s.ntiers = 2;
	s.tier_unit = G_TIERS_SHARE;
	snprintf(s.ideal, sizeof(s.ideal), "dram");
	return s;
}

/* An H200 as the driver sees it: copy 3700 GB/s; NVML's peak 4800. */
static struct g_device h200(void)
{
	struct g_device d;

	memset(&d, 0, sizeof(d));
	snprintf(d.name, sizeof(d.name), "NVIDIA H200");
	d.cc = 90;
	d.sms = 132;
	d.copy_gbps = 3700;
	d.dram_gbps = 4800;
	d.fp32_tflops = 66.9;
	return d;
}

/* A passing sum of 64M floats timed at us microseconds, against a naive
 * of 640 us and a speed of light of 60 us (4.5 TB/s), scored. */
static struct g_result timed(double us, const struct g_spec *s,
			     const struct g_device *d)
{
	struct g_result r;

	memset(&r, 0, sizeof(r));
	r.verdict = WB_V_PASS;
	r.complete = 1;
	r.t[G_STUDENT].have = 1;
	r.t[G_STUDENT].median_us = us;
	r.t[G_NAIVE].have = 1;
	r.t[G_NAIVE].median_us = 640;
	r.t[G_IDEAL].have = 1;
	r.t[G_IDEAL].median_us = 60;
	r.bytes = 268435460;
	snprintf(r.sol, sizeof(r.sol), "dram");
	g_score(s, &r, d->copy_gbps, d->dram_gbps);
	return r;
}

static void honest_speed_is_left_alone(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	/* 69 us is 3890 GB/s: 105% of copy, as fused solutions reach. */
	struct g_result r = timed(69, &s, &d);

	(void)state;
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_near(r.points, 100, 0);
	assert_int_equal(r.ndetails, 0);
}

static void replayed_results_are_suspicious(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	/* Two 4-byte copies: 20 us, 13 TB/s. */
	struct g_result r = timed(20, &s, &d);

	(void)state;
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_near(r.points, 0, 0);
	assert_int_equal(r.tier, 0);
	assert_int_equal(r.ndetails, 1);
	assert_contains(r.details[0], "measured 13422 GB/s");
	assert_contains(r.details[0], "ceiling of 5040 GB/s");
	assert_contains(r.details[0], "105% of the DRAM's peak, 4800 GB/s");
	assert_string_equal(wb_verdict_key(WB_V_SUSPICIOUS), "SUSPICIOUS");
}

static void the_ceiling_is_the_larger_reference(void **state)
{
	struct g_device d = h200();
	char why[160];

	(void)state;
	assert_near(g_bandwidth_ceiling(&d, why, sizeof(why)), 5040, 1e-9);
	/* No NVML: 125% of the copy bandwidth. */
	d.dram_gbps = 0;
	assert_near(g_bandwidth_ceiling(&d, why, sizeof(why)), 4625, 1e-9);
	assert_contains(why, "125% of the copy bandwidth");
	/* A peak NVML misreports low does not lower the ceiling. */
	d.dram_gbps = 1000;
	assert_near(g_bandwidth_ceiling(&d, why, sizeof(why)), 4625, 1e-9);
	/* Nothing known: no ceiling, nothing is suspicious. */
	d.copy_gbps = 0;
	d.dram_gbps = 0;
	assert_near(g_bandwidth_ceiling(&d, why, sizeof(why)), 0, 0);
}

static void only_passing_timed_results(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r = timed(20, &s, &d);

	(void)state;
	r.verdict = WB_V_WRONG;
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_WRONG);
	r = timed(20, &s, &d);
	r.t[G_STUDENT].have = 0;
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	/* No bytes() for the exercise: no bandwidth to judge, and no
	 * speed of light measured from them. */
	r = timed(20, &s, &d);
	r.gbps = 0;
	r.share = 0;
	r.sol[0] = '\0';
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	/* With its speed of light, the share still judges it. */
	r = timed(20, &s, &d);
	r.gbps = 0;
	assert_int_equal(g_plausible(&s, &r, &d), 1);
}

static void flops_above_the_fp32_peak(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r = timed(1000, &s, &d);

	(void)state;
	r.bytes = 0;
	r.gbps = 0;
	r.tflops = 60; /* under 66.9 */
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	r.tflops = 80;
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_contains(r.details[0], "fp32 peak of 66.90 TFLOP/s");
	/* A peak from the device's own clock (no NVML) is a ceiling too. */
	r = timed(1000, &s, &d);
	r.gbps = 0;
	r.tflops = 80;
	d.dram_gbps = 0;
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	/* No peak known at all: not judged. */
	r = timed(1000, &s, &d);
	r.gbps = 0;
	r.tflops = 500;
	d.fp32_tflops = 0;
	assert_int_equal(g_plausible(&s, &r, &d), 0);
}

/*
 * Lab 08's exercises run on tensor cores: 600 TFLOP/s is honest there
 * (cuBLAS's bf16 GEMM on an H100), far above the fp32 peak; the ceiling
 * is the tensor cores' dense peak, 16 x the fp32 peak on sm_90.
 */
static void tensor_flops_against_the_tensor_peak(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r = timed(1000, &s, &d);

	(void)state;
	s.tensor_flops = 1;
	assert_near(g_tensor_tflops(&d), 16 * 66.9, 1e-9);
	r.gbps = 0;
	r.tflops = 600;
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	r.tflops = 1200; /* above 1.05 x 1070 */
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_contains(r.details[0], "tensor cores' dense peak of 1070");
	/* The same speed on the CUDA cores is suspicious. */
	s.tensor_flops = 0;
	r = timed(1000, &s, &d);
	r.gbps = 0;
	r.tflops = 600;
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	/* An A100's ratio is 16, an L40S's 4, a T4's 8. */
	d.cc = 80;
	assert_near(g_tensor_tflops(&d), 16 * 66.9, 1e-9);
	d.cc = 86;
	assert_near(g_tensor_tflops(&d), 4 * 66.9, 1e-9);
	d.cc = 89;
	assert_near(g_tensor_tflops(&d), 4 * 66.9, 1e-9);
	d.cc = 75;
	assert_near(g_tensor_tflops(&d), 8 * 66.9, 1e-9);
}

/*
 * An honest tensor-core hgemm on an A100 (sm_80: 19.5 TFLOP/s of fp32,
 * 312 of dense fp16 with fp32 accumulation; cuBLAS reaches about 250)
 * is left alone; above 105% of 312 it is not.
 */
static void honest_hgemm_on_an_a100(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r;

	(void)state;
	snprintf(d.name, sizeof(d.name), "NVIDIA A100-SXM4-80GB");
	d.cc = 80;
	d.sms = 108;
	d.fp32_tflops = 19.5;
	s.tensor_flops = 1;
	r = timed(1000, &s, &d);
	r.gbps = 0;
	r.tflops = 250;
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	r.tflops = 340;
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_contains(r.details[0], "tensor cores' dense peak of 312");
}

/*
 * Faster than the speed of light timed beside it: the probes read and
 * wrote what the exercise must, in the same rounds, so beyond
 * PLAUSIBLE_SHARE_CEILING of it the bytes were not moved. The bandwidth
 * ceiling is out of the way here (no reference), so only the share judges.
 */
static void share_above_the_ceiling(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r;

	(void)state;
	d.copy_gbps = d.dram_gbps = 0;
	/* 60 / 46 = 130% of the speed of light. */
	r = timed(46, &s, &d);
	assert_true(r.share > PLAUSIBLE_SHARE_CEILING);
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_near(r.points, 0, 0);
	assert_int_equal(r.tier, 0);
	assert_contains(r.details[0], "130% of the speed of light");
	/* 60 / 52 = 115%: honest code's last writes can stay in the L2. */
	r = timed(52, &s, &d);
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	assert_near(r.points, 100, 0);
	/* The paired share decides, as it does the points. */
	r = timed(52, &s, &d);
	r.r_share = (struct g_ratio){ 1, 1.3, 1.28, 1.32 };
	g_score(&s, &r, d.copy_gbps, d.dram_gbps);
	assert_int_equal(g_plausible(&s, &r, &d), 1);
}

/*
 * Several shapes: their mean share can sit under the ceiling while one
 * shape does not (work left on another stream at a small shape, a few
 * microseconds the tail cannot tell from noise, while the large shape
 * counts it). Each shape must be possible on its own.
 */
static void one_shape_above_the_ceiling(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r;

	(void)state;
	d.copy_gbps = d.dram_gbps = 0;
	/* The mean: 60 / 55 = 109%, but one shape at 360%. */
	r = timed(55, &s, &d);
	r.share_max = 3.6;
	assert_true(r.share < PLAUSIBLE_SHARE_CEILING);
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_near(r.points, 0, 0);
	assert_contains(r.details[0], "one benchmark shape measured 360%");
	/* Every shape possible (the largest at 112%): left alone. */
	r = timed(55, &s, &d);
	r.share_max = 1.12;
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
}

/* A result of an instruction-bound exercise whose bytes take dram_us at
 * the probes' rates (0: not probed). */
static struct g_result instr_timed(double us, double dram_us,
				   const struct g_spec *s,
				   const struct g_device *d)
{
	struct g_result r = timed(us, s, d);

	snprintf(r.sol, sizeof(r.sol), "instr");
	if (dram_us > 0) {
		r.read_bytes = 268435460;
		r.read_gbps = r.read_bytes / dram_us / 1e3;
	}
	return r;
}

/*
 * Lab 01's instruction-bound ideal (the naive's time in the same rounds
 * over its ideal speedup) has a ceiling too, at least 125% of it (the
 * solutions reach 91% and 102%); where its bytes allow more (trip_count's:
 * its ideal is the lab's model of divergence, which a better-balanced
 * kernel may beat), what they allow: an honest 138% is then left alone,
 * and only what no DRAM could feed is not.
 */
static void instr_share_against_its_ceiling(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r;
	char why[192];

	(void)state;
	d.copy_gbps = d.dram_gbps = 0; /* the bandwidth check is not this */
	snprintf(s.ideal, sizeof(s.ideal), "instr");
	/* Not probed: 60 / 43.5 = 138%, over the least ceiling. */
	r = instr_timed(43.5, 0, &s, &d);
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)),
		    PLAUSIBLE_INSTR_CEILING, 0);
	assert_contains(why, "instruction-bound ideal");
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_near(r.points, 0, 0);
	assert_contains(r.details[0], "measured 138% of its ideal");
	assert_contains(r.details[0], "ceiling of 125%");
	/* 60 / 58.8 = 102%, branch's solution: left alone. */
	r = instr_timed(58.8, 0, &s, &d);
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	/* The bytes take 37.5 us, 30 us at 125% of the probes' rate: the
	 * ceiling is 60 / 30 = 200%, and 138% is left alone. */
	r = instr_timed(43.5, 37.5, &s, &d);
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)), 2.0, 1e-9);
	assert_contains(why, "its bytes at 125%");
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	/* 60 / 25 = 240%: faster than the DRAM can feed it. */
	r = instr_timed(25, 37.5, &s, &d);
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_contains(r.details[0], "ceiling of 200%");
}

/*
 * A roofline (matmul, hgemm, attention) is a limit measured in the same
 * rounds where its compute probe ran the GPU's fastest instruction for
 * its FLOPs: fp32 FMA, wgmma, or mma.sync before Hopper. There its
 * ceiling is the DRAM ideal's, 125%; where mma.sync stood in for wgmma on
 * a Hopper GPU it is no limit, and the GPU's own (as a peer's) applies.
 */
static void roof_share_ceiling_by_its_probe(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r;
	char why[192];

	(void)state;
	snprintf(s.ideal, sizeof(s.ideal), "roof");
	s.tensor_flops = 1;
	r = timed(40, &s, &d); /* 60 / 40: 150% */
	snprintf(r.sol, sizeof(r.sol), "roof");
	snprintf(r.peak, sizeof(r.peak), "wgmma");
	r.peak_tflops = 890;
	r.gbps = 0; /* judged by its share alone (a compute-bound one) */
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)), 1.25, 0);
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_contains(r.details[0], "compute, read and write");
	r = timed(50, &s, &d); /* 120% */
	snprintf(r.sol, sizeof(r.sol), "roof");
	snprintf(r.peak, sizeof(r.peak), "fma");
	r.gbps = 0;
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	/* mma.sync on a Hopper GPU: not its fastest path, no 125% ceiling
	 * (no bytes or FLOPs known here: none at all) */
	r = timed(40, &s, &d);
	snprintf(r.sol, sizeof(r.sol), "roof");
	snprintf(r.peak, sizeof(r.peak), "mma");
	r.gbps = 0;
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)), 0, 0);
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	/* the same before Hopper (an A100): a limit again */
	d.cc = 80;
	r = timed(40, &s, &d);
	snprintf(r.sol, sizeof(r.sol), "roof");
	snprintf(r.peak, sizeof(r.peak), "mma");
	r.gbps = 0;
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)), 1.25, 0);
	assert_int_equal(g_plausible(&s, &r, &d), 1);
}

/* A result of a peer's exercise: the peer (ideal) took ideal_us. */
static struct g_result peer_timed(double us, double ideal_us,
				  const struct g_spec *s,
				  const struct g_device *d)
{
	struct g_result r = timed(us, s, d);

	snprintf(r.sol, sizeof(r.sol), "peer");
	r.t[G_IDEAL].median_us = ideal_us;
	g_score(s, &r, d->copy_gbps, d->dram_gbps);
	return r;
}

/*
 * A peer can be beaten by far (lab 08's fused attention: 3x cuBLAS's eager
 * path), so its ceiling is the GPU's: the exercise's bytes at the probes'
 * rates (measured in the same rounds), its FLOPs at the FLOP/s ceiling.
 */
static void peer_share_against_what_the_gpu_allows(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r;
	char why[192];

	(void)state;
	d.copy_gbps = d.dram_gbps = 0;
	snprintf(s.ideal, sizeof(s.ideal), "peer");
	/* No bytes probed, no FLOPs: no ceiling known, 200% passes. */
	r = peer_timed(30, 60, &s, &d);
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)), 0, 0);
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	/* 268 MB at 4500 GB/s: 59.7 us, 47.7 us at 125%; the peer 60 us. */
	r = peer_timed(40, 60, &s, &d);
	r.read_bytes = 268435456;
	r.read_gbps = 4500;
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)),
		    60 / (268435456 / 4500.0 / 1e3 / 1.25), 1e-9);
	assert_contains(why, "rates the probes measured");
	assert_int_equal(g_plausible(&s, &r, &d), 1);
	assert_int_equal(r.verdict, WB_V_SUSPICIOUS);
	assert_contains(r.details[0], "measured 150% of its ideal");
	r = peer_timed(50, 60, &s, &d); /* 120% */
	r.read_bytes = 268435456;
	r.read_gbps = 4500;
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	/* hgemm 4096^3 on tensor cores against cuBLAS's 183 us: the dense
	 * peak allows 122 us, a ceiling of 150%. */
	s.tensor_flops = 1;
	r = peer_timed(344, 183, &s, &d);
	r.flops = 2.0 * 4096 * 4096 * 4096;
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)),
		    183 / (r.flops / (1.05 * 16 * 66.9 * 1e6)), 1e-9);
	assert_contains(why, "tensor cores' dense peak");
	/* Fused attention at 3x the eager path is far under its ceiling. */
	r = peer_timed(384, 1162, &s, &d);
	r.flops = 68.7e9;
	g_score(&s, &r, d.copy_gbps, d.dram_gbps);
	assert_true(g_share_ceiling(&s, &r, &d, why, sizeof(why)) > 10);
	assert_int_equal(g_plausible(&s, &r, &d), 0);
	assert_int_equal(r.verdict, WB_V_PASS);
}

/* Every kind of ideal has its ceiling; none without an ideal. */
static void every_ideal_has_a_ceiling(void **state)
{
	struct g_spec s = sum_spec();
	struct g_device d = h200();
	struct g_result r = timed(60, &s, &d);
	char why[192];

	(void)state;
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)),
		    PLAUSIBLE_SHARE_CEILING, 0);
	assert_contains(why, "speed of light");
	r.sol[0] = '\0';
	assert_near(g_share_ceiling(&s, &r, &d, why, sizeof(why)), 0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(honest_speed_is_left_alone),
		cmocka_unit_test(replayed_results_are_suspicious),
		cmocka_unit_test(the_ceiling_is_the_larger_reference),
		cmocka_unit_test(only_passing_timed_results),
		cmocka_unit_test(flops_above_the_fp32_peak),
		cmocka_unit_test(tensor_flops_against_the_tensor_peak),
		cmocka_unit_test(honest_hgemm_on_an_a100),
		cmocka_unit_test(share_above_the_ceiling),
		cmocka_unit_test(one_shape_above_the_ceiling),
		cmocka_unit_test(instr_share_against_its_ceiling),
		cmocka_unit_test(peer_share_against_what_the_gpu_allows),
		cmocka_unit_test(roof_share_ceiling_by_its_probe),
		cmocka_unit_test(every_ideal_has_a_ceiling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
