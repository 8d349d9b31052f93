/* SPDX-License-Identifier: MIT */
/*
 * test_lab_check.c - common/lab_check.c, what a lab's check() calls: the
 * comparisons wb_check_f32() and wb_check_i64() say nothing when the values
 * are right and, when not, how many are wrong, why, and the first few;
 * wb_ref_scratch() gives the reference its memory, or fails the size.
 *
 * lab_check.c is host code whose one way out is wb_fail(), defined with
 * the CUDA error path in fate.c: it is included whole here, and wb_fail()
 * is a stub that keeps the messages.
 */
#include "unit.h"

#include "lab_check.c"

#define MAX_MSGS 16

static char msgs[MAX_MSGS][512];
static int nmsgs;

void wb_fail(struct wb_ctx *c, const char *fmt, ...)
{
	va_list ap;

	c->failed = 1;
	if (nmsgs == MAX_MSGS)
		return;
	va_start(ap, fmt);
	vsnprintf(msgs[nmsgs++], sizeof(msgs[0]), fmt, ap);
	va_end(ap);
}

static const struct wb_size size = { "n=4", { 4 } };

/* A context at size n=4, no failure and no message yet. */
static int setup(void **state)
{
	static struct wb_ctx c;

	memset(&c, 0, sizeof(c));
	c.size = &size;
	nmsgs = 0;
	wb_diag_reset(&wb_diag);
	*state = &c;
	return 0;
}

static void check_f32_silent_when_right(void **state)
{
	struct wb_ctx *c = *state;
	const float got[4] = { 1, 2, 3, 4 };
	const double want[4] = { 1, 2, 3.0005, 4 };

	wb_check_f32(c, "out", got, want, 4, 1e-3, 0);
	assert_false(c->failed);
	assert_int_equal(nmsgs, 0);
}

static void check_f32_counts_and_shows_first(void **state)
{
	struct wb_ctx *c = *state;
	const float got[4] = { 1, 2, 5, 4 };
	const double want[4] = { 1, 2, 3, 4 };

	wb_check_f32(c, "out", got, want, 4, 1e-3, 0);
	assert_true(c->failed);
	assert_int_equal(nmsgs, 2);
	assert_string_equal(msgs[0], "1 of 4 values of out wrong (tolerance "
				     "0.001 + 0 x |expected|)");
	assert_string_equal(msgs[1], "  out[2] = 5, expected 3");
}

static void check_f32_says_none_was_written(void **state)
{
	struct wb_ctx *c = *state;
	const double want[4] = { 1, 2, 3, 4 };
	float got[4];

	memset(got, WB_POISON_BYTE, sizeof(got));
	wb_check_f32(c, "y", got, want, 4, 1e-3, 1e-3);
	assert_true(c->failed);
	assert_contains(msgs[0], "4 of 4 values of y wrong");
	assert_contains(msgs[0], ": none was written");
}

static void check_i64_must_match_exactly(void **state)
{
	struct wb_ctx *c = *state;
	const int64_t got[4] = { 0, 1, 2, 3 }, want[4] = { 0, 1, 2, 4 };

	wb_check_i64(c, "idx", got, got, 4);
	assert_int_equal(nmsgs, 0);
	wb_check_i64(c, "idx", got, want, 4);
	assert_true(c->failed);
	assert_string_equal(msgs[0], "1 of 4 values of idx wrong (must match "
				     "exactly)");
	assert_string_equal(msgs[1], "  idx[3] = 3, expected 4");
}

static void ref_scratch_gives_memory(void **state)
{
	struct wb_ctx *c = *state;
	double *p = wb_ref_scratch(c, 1000);

	assert_non_null(p);
	p[0] = p[999] = 1.0; /* all of it is there */
	free(p);
	assert_false(c->failed);
	assert_int_equal(nmsgs, 0);
}

static void ref_scratch_fails_the_size_without_memory(void **state)
{
	struct wb_ctx *c = *state;
	volatile size_t huge = SIZE_MAX / sizeof(double); /* no constant
							   * for gcc to warn of */

	assert_null(wb_ref_scratch(c, huge));
	assert_true(c->failed);
	assert_int_equal(nmsgs, 1);
	assert_string_equal(msgs[0], "the grader ran out of host memory for "
				     "its reference");
}

/* wb_ref_parts(): zeroed slots for a wb_parallel_for()'s partial results,
 * or the size failed with the same message as wb_ref_scratch(). */
static void ref_parts_are_zeroed_or_fail_the_size(void **state)
{
	struct wb_ctx *c = *state;
	volatile size_t huge = SIZE_MAX / 16; /* no constant for gcc to warn of */
	long long *p = wb_ref_parts(c, 1000, sizeof(*p));

	assert_non_null(p);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(p[i], 0);
	free(p);
	assert_false(c->failed);
	assert_null(wb_ref_parts(c, huge, 32));
	assert_true(c->failed);
	assert_int_equal(nmsgs, 1);
	assert_string_equal(msgs[0], "the grader ran out of host memory for "
				     "its reference");
}

/* ---- wb_check_chunks: threads when all pass, one thread's report when not ---- */

#define CHUNKS 64
#define CHUNK_LEN 1000

static float chunk_got[CHUNKS * CHUNK_LEN];

/* The reference of chunk k: value i of the whole is i / 7; two outputs
 * per chunk (the second the same values), as add_rmsnorm compares two. */
static void test_chunk(struct wb_ctx *c, struct wb_chunks *p, size_t k,
		       double *want, const void *arg)
{
	const int *two = arg;

	(void)c;
	for (size_t i = 0; i < CHUNK_LEN; i++)
		want[i] = (double)(k * CHUNK_LEN + i) / 7.0;
	wb_chunk_f32(p, "y", chunk_got + k * CHUNK_LEN, want, CHUNK_LEN, 1e-6,
		     1e-6);
	if (*two)
		wb_chunk_f32(p, "z", chunk_got + k * CHUNK_LEN, want,
			     CHUNK_LEN, 1e-6, 1e-6);
}

static size_t noted = (size_t)-1;

static void test_note(struct wb_ctx *c, size_t k, size_t nchunks)
{
	noted = k;
	wb_fail(c, "  (chunk %zu of %zu)", k, nchunks);
}

static void fill_right(void)
{
	for (size_t i = 0; i < CHUNKS * CHUNK_LEN; i++)
		chunk_got[i] = (float)((double)i / 7.0);
}

/* What wb_check_f32() on every chunk, in order, on this thread says. */
static void serial_reference(struct wb_ctx *c, int two)
{
	double want[CHUNK_LEN];

	for (size_t k = 0; k < CHUNKS && !c->failed; k++) {
		for (size_t i = 0; i < CHUNK_LEN; i++)
			want[i] = (double)(k * CHUNK_LEN + i) / 7.0;
		wb_check_f32(c, "y", chunk_got + k * CHUNK_LEN, want,
			     CHUNK_LEN, 1e-6, 1e-6);
		if (two)
			wb_check_f32(c, "z", chunk_got + k * CHUNK_LEN, want,
				     CHUNK_LEN, 1e-6, 1e-6);
		if (c->failed)
			test_note(c, k, CHUNKS);
	}
}

static void chunks_all_right_count_as_one_thread(void **state)
{
	struct wb_ctx *c = *state;
	int two = 1;
	size_t compared;
	int calls;

	fill_right();
	serial_reference(c, two);
	compared = wb_diag.compared;
	calls = wb_diag.call;
	assert_false(c->failed);
	wb_diag_reset(&wb_diag);
	wb_check_chunks(c, CHUNKS, CHUNK_LEN, test_chunk, &two, test_note);
	assert_false(c->failed);
	assert_int_equal(nmsgs, 0);
	assert_int_equal(wb_diag.compared, compared);
	assert_int_equal(wb_diag.call, calls);
	assert_int_equal(compared, 2 * CHUNKS * CHUNK_LEN);
}

/* Wrong values in chunks 9 and 41: the report is the one-thread one,
 * chunk 9's, and nothing of chunk 41. */
static void chunks_wrong_report_the_first_as_one_thread(void **state)
{
	struct wb_ctx *c = *state;
	char want_msgs[MAX_MSGS][512];
	int two = 0, want_n;

	fill_right();
	chunk_got[9 * CHUNK_LEN + 17] += 1.0f;
	chunk_got[41 * CHUNK_LEN + 3] = -1.0f;
	serial_reference(c, two);
	assert_true(c->failed);
	want_n = nmsgs;
	memcpy(want_msgs, msgs, sizeof(msgs));
	assert_int_equal(noted, 9);

	c->failed = 0;
	nmsgs = 0;
	noted = (size_t)-1;
	wb_diag_reset(&wb_diag);
	wb_check_chunks(c, CHUNKS, CHUNK_LEN, test_chunk, &two, test_note);
	assert_true(c->failed);
	assert_int_equal(noted, 9);
	assert_int_equal(nmsgs, want_n);
	for (int i = 0; i < nmsgs; i++)
		assert_string_equal(msgs[i], want_msgs[i]);
	assert_contains(msgs[0], "1 of 1000 values of y wrong");
	assert_contains(msgs[nmsgs - 1], "(chunk 9 of 64)");
}

/*
 * Two outputs, as add_rmsnorm's residual and y: a wrong first one is not
 * hidden by a right second one (a chunk that passes its last comparison
 * still failed an earlier one).
 */
static float first_got[CHUNKS * CHUNK_LEN];

static void two_outputs_chunk(struct wb_ctx *c, struct wb_chunks *p,
			      size_t k, double *want, const void *arg)
{
	(void)c;
	(void)arg;
	for (size_t i = 0; i < CHUNK_LEN; i++)
		want[i] = (double)(k * CHUNK_LEN + i) / 7.0;
	wb_chunk_f32(p, "residual", first_got + k * CHUNK_LEN, want,
		     CHUNK_LEN, 1e-6, 1e-6);
	wb_chunk_f32(p, "y", chunk_got + k * CHUNK_LEN, want, CHUNK_LEN, 1e-6,
		     1e-6);
}

static void chunks_wrong_first_output_is_not_hidden(void **state)
{
	struct wb_ctx *c = *state;

	fill_right();
	memcpy(first_got, chunk_got, sizeof(first_got));
	first_got[5 * CHUNK_LEN + 2] = -1.0f; /* the residual never written */
	noted = (size_t)-1;
	wb_check_chunks(c, CHUNKS, CHUNK_LEN, two_outputs_chunk, NULL,
			test_note);
	assert_true(c->failed);
	assert_int_equal(noted, 5);
	assert_contains(msgs[0], "1 of 1000 values of residual wrong");
	assert_contains(msgs[nmsgs - 1], "(chunk 5 of 64)");
	for (int i = 0; i < nmsgs; i++)
		assert_null(strstr(msgs[i], "values of y wrong"));
}

/* ---- wb_parallel_for, wb_fill_uniform, wb_fill_bits ---- */

static atomic_int visits[1000];

static void visit(size_t k, void *arg)
{
	(void)arg;
	atomic_fetch_add(&visits[k], 1);
}

static void parallel_for_visits_every_item_once(void **state)
{
	(void)state;
	for (int i = 0; i < 1000; i++)
		atomic_init(&visits[i], 0);
	wb_parallel_for(0, visit, NULL);
	wb_parallel_for(1000, visit, NULL);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(atomic_load(&visits[i]), 1);
	wb_parallel_for(1, visit, NULL);
	assert_int_equal(atomic_load(&visits[0]), 2);
}

/* Up to one stretch: exactly the generator's own stream, in order. */
static void fill_uniform_small_is_the_stream(void **state)
{
	struct wb_ctx *c = *state;
	static float got[WB_FILL_STRETCH], want[WB_FILL_STRETCH];
	struct wb_rng r;

	wb_rng_seed(&c->rng, 7);
	wb_rng_seed(&r, 7);
	wb_fill_uniform(c, got, WB_FILL_STRETCH, -1.0, 1.0);
	wb_rng_fill_uniform(&r, want, WB_FILL_STRETCH, -1.0, 1.0);
	assert_memory_equal(got, want, sizeof(got));
	assert_int_equal(wb_rng_u64(&c->rng), wb_rng_u64(&r));
}

/*
 * Beyond: stretch k from a generator seeded (one draw) + k, whatever the
 * threads did, within [lo, hi), no stretch a copy of another, and the
 * caller's generator one draw on, so what setup() draws next is fixed.
 */
static void fill_uniform_large_depends_on_the_seed_alone(void **state)
{
	struct wb_ctx *c = *state;
	size_t n = 2 * WB_FILL_STRETCH + 12345;
	float *got = malloc(n * sizeof(float)), *want = malloc(n * sizeof(float));
	struct fill_job j = { .n = n, .x = want, .lo = -3.0, .hi = 5.0 };
	struct wb_rng r;

	assert_non_null(got);
	assert_non_null(want);
	wb_rng_seed(&c->rng, 11);
	wb_fill_uniform(c, got, n, -3.0, 5.0);
	wb_rng_seed(&r, 11);
	j.base = wb_rng_u64(&r);
	for (size_t k = 3; k-- > 0;) /* the stretches backwards, one thread */
		fill_uniform_stretch(k, &j);
	assert_memory_equal(got, want, n * sizeof(float));
	assert_int_equal(wb_rng_u64(&c->rng), wb_rng_u64(&r));
	for (size_t i = 0; i < n; i++)
		assert_true(got[i] >= -3.0f && got[i] < 5.0f);
	assert_memory_not_equal(got, got + WB_FILL_STRETCH,
				WB_FILL_STRETCH * sizeof(float));
	free(got);
	free(want);
}

static void fill_bits_large_depends_on_the_seed_alone(void **state)
{
	struct wb_ctx *c = *state;
	size_t n = WB_FILL_STRETCH + 13; /* a short last draw */
	unsigned char *a = malloc(n), *b = malloc(n);

	assert_non_null(a);
	assert_non_null(b);
	wb_rng_seed(&c->rng, 5);
	wb_fill_bits(c, a, n);
	wb_rng_seed(&c->rng, 5);
	wb_fill_bits(c, b, n);
	assert_memory_equal(a, b, n);
	wb_rng_seed(&c->rng, 6);
	wb_fill_bits(c, b, n);
	assert_memory_not_equal(a + n - 13, b + n - 13, 13);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(check_f32_silent_when_right, setup),
		cmocka_unit_test_setup(check_f32_counts_and_shows_first, setup),
		cmocka_unit_test_setup(check_f32_says_none_was_written, setup),
		cmocka_unit_test_setup(check_i64_must_match_exactly, setup),
		cmocka_unit_test_setup(ref_scratch_gives_memory, setup),
		cmocka_unit_test_setup(ref_scratch_fails_the_size_without_memory,
				       setup),
		cmocka_unit_test_setup(ref_parts_are_zeroed_or_fail_the_size,
				       setup),
		cmocka_unit_test_setup(chunks_all_right_count_as_one_thread, setup),
		cmocka_unit_test(parallel_for_visits_every_item_once),
		cmocka_unit_test_setup(fill_uniform_small_is_the_stream, setup),
		cmocka_unit_test_setup(fill_uniform_large_depends_on_the_seed_alone,
				       setup),
		cmocka_unit_test_setup(fill_bits_large_depends_on_the_seed_alone,
				       setup),
		cmocka_unit_test_setup(chunks_wrong_report_the_first_as_one_thread,
				       setup),
		cmocka_unit_test_setup(chunks_wrong_first_output_is_not_hidden,
				       setup),
	};

	return cmocka_run_group_tests_name("lab_check", tests, NULL, NULL);
}
