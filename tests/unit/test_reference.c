/* SPDX-License-Identifier: MIT */
/*
 * test_reference.c - grader/run/reference.c's decisions that need no GPU: the
 * peer's time a student's run is scored against (its first quartile, so
 * that cuBLAS's slow mode in the reference's median does not lift every
 * share), and the check that the naive and the speed of light were not
 * slowed beside the student's code (SUSPICIOUS past the margin).
 */
#include "unit.h"

#include "plausible.h"
#include "reference.h"

static struct g_reference peer_ref(double median, double q1, double q3)
{
	struct g_reference ref = { .have = 1 };

	ref.peer.have = 1;
	ref.peer.median_us = median;
	ref.peer.q1_us = q1;
	ref.peer.q3_us = q3;
	ref.peer.samples = 15;
	return ref;
}

/* The argument reference_peer_arg() gives a peer of these figures. */
static void assert_peer_arg(double median, double q1, double q3,
			    const char *want)
{
	struct g_reference ref = peer_ref(median, q1, q3);
	char buf[32];

	assert_int_equal(reference_peer_arg(&ref, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

/* The second H100 of 2026-11-27: cuBLAS's median was its slow mode. */
static void peer_is_first_quartile(void **state)
{
	(void)state;
	assert_peer_arg(258.112, 184.640, 271.824, "184.640");
}

static void no_peer_no_argument(void **state)
{
	struct g_reference ref = peer_ref(258.112, 184.640, 271.824);
	char buf[32] = "stale";

	(void)state;
	ref.peer.have = 0;
	assert_int_equal(reference_peer_arg(&ref, buf, sizeof(buf)), -1);
	assert_string_equal(buf, "");
	ref = peer_ref(0, 0, 0);
	assert_int_equal(reference_peer_arg(&ref, buf, sizeof(buf)), -1);
}

/* A record with a median only (no quartiles): the median, not 0. */
static void peer_without_quartiles_is_median(void **state)
{
	(void)state;
	assert_peer_arg(183.2, 0, 0, "183.200");
}

/* A passing run whose naive took naive_us beside the student's code,
 * against a reference naive of 1000 us. */
static enum wb_verdict check_naive(double naive_us)
{
	static struct g_result r;

	memset(&r, 0, sizeof(r));
	r.verdict = WB_V_PASS;
	r.ref.have = 1;
	r.ref.naive.have = 1;
	r.ref.naive.median_us = 1000;
	r.t[G_NAIVE].have = 1;
	r.t[G_NAIVE].median_us = naive_us;
	reference_check(&r);
	return r.verdict;
}

static void slowed_naive_is_suspicious(void **state)
{
	double edge = 1000 * (1 + PLAUSIBLE_BASELINE_MARGIN);

	(void)state;
	assert_int_equal(check_naive(900), WB_V_PASS);
	assert_int_equal(check_naive(edge), WB_V_PASS);
	assert_int_equal(check_naive(edge * 1.01), WB_V_SUSPICIOUS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(peer_is_first_quartile),
		cmocka_unit_test(no_peer_no_argument),
		cmocka_unit_test(peer_without_quartiles_is_median),
		cmocka_unit_test(slowed_naive_is_suspicious),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
