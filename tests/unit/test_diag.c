/* SPDX-License-Identifier: MIT */
/*
 * test_diag.c - common/diag.c: naming the likely bug behind WRONG, on
 * synthetic outputs: a missing tail guard, lane and block-edge patterns,
 * poison, NaN, zeros, a race seen as two runs that differ, inputs that
 * changed, and no hint when the pattern is not clear.
 */
#include "unit.h"

#include "diag.h"

#define N 4096

static float got[N];
static double want[N];

/* A reference of ones and an output that matches it. */
static void right(size_t n)
{
	for (size_t i = 0; i < n; i++) {
		want[i] = 1.0;
		got[i] = 1.0f;
	}
}

static float poison(void)
{
	uint32_t u = 0xffffffffu;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* One checked call at a size: the comparison, then the size's outcome. */
static void call(struct wb_diag *d, const char *label, size_t n0, size_t n1,
		 size_t n)
{
	const size_t dims[WB_MAX_DIMS] = { n0, n1, 0 };
	int ok = 1;

	for (size_t i = 0; i < n; i++)
		ok &= wb_close(got[i], want[i], 1e-6, 1e-5);
	wb_diag_call_begin(d, 0);
	if (ok)
		wb_diag_cmp_ok(d, n);
	else
		wb_diag_cmp_f32(d, got, want, n, 1e-6, 1e-5);
	wb_diag_call_end(d, ok);
	wb_diag_add_size(d, label, dims, ok, 0);
}

static const char *cause(const struct wb_diag *d)
{
	static char buf[512];

	return wb_diag_cause(d, buf, sizeof(buf)) ? buf : NULL;
}

/* 1D sizes like lab 05's; those that are not multiples of m fail. */
static void sizes_failing_off(struct wb_diag *d, size_t m)
{
	static const size_t ns[] = { 1, 2, 31, 32, 33, 255, 256, 257, 1000, 1023 };

	for (size_t k = 0; k < sizeof(ns) / sizeof(ns[0]); k++) {
		char label[32];
		size_t n = ns[k] < N ? ns[k] : N;

		snprintf(label, sizeof(label), "n=%zu", ns[k]);
		right(n);
		if (ns[k] % m)
			got[n - 1] = 7.0f; /* the tail is wrong */
		call(d, label, ns[k], 0, n);
	}
}

static void tail_guard_of_a_block(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	sizes_failing_off(&d, 256);
	/* These sizes cannot tell 64 from 256: all are named. */
	assert_contains(cause(&d), "only sizes whose n is not a multiple of "
				   "64, 128 or 256 fail");
	assert_contains(cause(&d), "n=1, n=2, n=31");
	assert_contains(cause(&d), "tail guard");
	assert_string_equal(d.first_fail, "n=1");
}

static void tail_of_a_vector_path(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	sizes_failing_off(&d, 4);
	assert_contains(cause(&d), "not a multiple of 4 or 8 fail");
}

static void tail_in_the_last_extent(void **state)
{
	static const size_t hidden[] = { 1, 7, 33, 768, 4095, 4096 };
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	for (size_t k = 0; k < 6; k++) {
		char label[32];

		snprintf(label, sizeof(label), "3x%zu", hidden[k]);
		right(hidden[k]);
		if (hidden[k] % 32)
			got[0] = 9.0f;
		call(&d, label, 3, hidden[k], hidden[k]);
	}
	assert_contains(cause(&d), "whose last extent is not a multiple of");
}

static void one_failing_size_is_no_pattern(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	right(N);
	call(&d, "n=32", 32, 0, 32);
	call(&d, "n=256", 256, 0, 256);
	got[5] = 3.0f;
	call(&d, "n=1000", 1000, 0, 1000);
	assert_null(cause(&d));
}

static void lanes_every_32(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	right(N);
	for (size_t i = 31; i < 1024; i += 32)
		got[i] = 2.0f; /* lane 31 of every warp */
	call(&d, "n=1024", 1024, 0, 1024);
	assert_contains(cause(&d), "every 32 elements");
	assert_contains(cause(&d), "% 32 = 31 only");
}

static void edges_of_blocks(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	right(N);
	for (size_t i = 0; i < N; i += 256) {
		got[i] = 2.0f;
		got[i + 255] = 2.0f;
	}
	call(&d, "n=4096", 4096, 0, 4096);
	assert_contains(cause(&d), "edges of every block of 256");
}

static void never_written(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	for (size_t i = 0; i < 100; i++) {
		want[i] = 1.0;
		got[i] = poison();
	}
	call(&d, "n=100", 100, 0, 100);
	call(&d, "n=50", 50, 0, 50);
	assert_contains(cause(&d), "no output value was ever written");
}

static void partly_written_is_not_never_written(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	right(100);
	call(&d, "n=100", 100, 0, 100); /* one size fine */
	for (size_t i = 0; i < 100; i++)
		got[i] = poison();
	call(&d, "n=99", 99, 0, 99);
	assert_true(!cause(&d) || !strstr(cause(&d), "ever written"));
}

static void nan_and_zeros(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	right(100);
	got[3] = NAN;
	got[70] = 5.0f;
	call(&d, "n=100", 100, 0, 100);
	assert_contains(cause(&d), "NaN or inf");

	wb_diag_reset(&d);
	right(100);
	for (size_t i = 0; i < 100; i += 3)
		got[i] = 0.0f;
	call(&d, "n=100", 100, 0, 100);
	assert_contains(cause(&d), "every wrong value is 0");
}

/* A first run and a re-run of one size, on the same input. */
static void two_runs(struct wb_diag *d, float second_value, int second_ok)
{
	const size_t dims[WB_MAX_DIMS] = { 100, 0, 0 };

	right(100);
	got[10] = 5.0f;
	wb_diag_call_begin(d, 0);
	wb_diag_cmp_f32(d, got, want, 100, 1e-6, 1e-5);
	wb_diag_call_end(d, 0);
	right(100);
	if (!second_ok)
		got[10] = second_value;
	wb_diag_call_begin(d, 1);
	wb_diag_cmp_f32(d, got, want, 100, 1e-6, 1e-5);
	wb_diag_call_end(d, second_ok);
	wb_diag_add_size(d, "n=100", dims, 0, 0);
}

static void race_between_runs(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	two_runs(&d, 0, 1); /* right the second time */
	assert_int_equal(d.differs, 1);
	assert_contains(cause(&d), "different results on two runs");

	wb_diag_reset(&d);
	two_runs(&d, 9.0f, 0); /* wrong twice, differently */
	assert_contains(cause(&d), "a race");
}

static void same_wrong_twice_is_no_race(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	two_runs(&d, 5.0f, 0);
	assert_int_equal(d.reran, 1);
	assert_int_equal(d.differs, 0);
	/* Summation order: a rounding apart, relative to the value. */
	wb_diag_reset(&d);
	two_runs(&d, 5.0f * (1 + 1e-6f), 0);
	assert_int_equal(d.differs, 0);
}

static void runner_flags(void **state)
{
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	d.fresh_wrong = 1;
	assert_contains(cause(&d), "kept from an earlier call");
	wb_diag_reset(&d);
	d.timed_wrong = 1;
	assert_contains(cause(&d), "a timed one was not");
	wb_diag_reset(&d);
	d.bench_wrong = 1;
	assert_contains(cause(&d), "benchmark shape failed");
	wb_diag_reset(&d);
	d.input_modified = 1;
	d.reran = d.differs = 1; /* a changed input changes a re-run too */
	assert_contains(cause(&d), "an input was modified");
}

static void integer_outputs(void **state)
{
	const size_t dims[WB_MAX_DIMS] = { 33, 0, 0 };
	int64_t g = -1, w = 5;
	struct wb_diag d;

	(void)state;
	wb_diag_reset(&d);
	wb_diag_call_begin(&d, 0);
	wb_diag_cmp_i64(&d, &g, &w, 1);
	wb_diag_call_end(&d, 0);
	wb_diag_add_size(&d, "n=33", dims, 0, 0);
	assert_contains(cause(&d), "no output value was ever written");
}

static void reproduce_line(void **state)
{
	struct wb_diag d;
	char line[256];

	(void)state;
	wb_diag_reset(&d);
	sizes_failing_off(&d, 256);
	wb_diag_reproduce(&d, "05-reduction", "sum", 1234, line, sizeof(line));
	assert_string_equal(line, "reproduce: make grade LAB=05-reduction EX=sum "
				  "SEED=1234; the first failing size alone: add "
				  "SIZE='n=1'");
	wb_diag_reset(&d);
	wb_diag_reproduce(&d, "05-reduction", "sum", 7, line, sizeof(line));
	assert_string_equal(line, "reproduce: make grade LAB=05-reduction EX=sum SEED=7");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tail_guard_of_a_block),
		cmocka_unit_test(tail_of_a_vector_path),
		cmocka_unit_test(tail_in_the_last_extent),
		cmocka_unit_test(one_failing_size_is_no_pattern),
		cmocka_unit_test(lanes_every_32),
		cmocka_unit_test(edges_of_blocks),
		cmocka_unit_test(never_written),
		cmocka_unit_test(partly_written_is_not_never_written),
		cmocka_unit_test(nan_and_zeros),
		cmocka_unit_test(race_between_runs),
		cmocka_unit_test(same_wrong_twice_is_no_race),
		cmocka_unit_test(runner_flags),
		cmocka_unit_test(integer_outputs),
		cmocka_unit_test(reproduce_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
