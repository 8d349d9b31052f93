/* SPDX-License-Identifier: MIT */
/*
 * test_shuffle.c - common/shuffle.h: what a timing round draws from its
 * key. The order of a round's series is a permutation, drawn anew each
 * round (the naive neither always before nor always after the student,
 * and no order ends every run); a moved input's rotation keeps every
 * element whole and valid (the same multiset), moves every element, and
 * is another one in another round; the host's rotation is the one the
 * device's two copies make (fresh.c). Whether the device's copies match
 * shows only on a GPU: each timed output is checked against inputs the
 * host rotated itself, so a disagreement would make the solutions WRONG.
 */
#include "unit.h"

#include "shuffle.h"

#define SERIES 5
#define ROUNDS 4000

/* A round's order: a permutation of what was there. */
static void orders_are_permutations(void **state)
{
	(void)state;
	for (int n = 1; n <= SERIES; n++) {
		for (uint64_t k = 0; k < 500; k++) {
			int x[SERIES], seen[SERIES] = { 0 };

			for (int i = 0; i < n; i++)
				x[i] = i;
			wb_shuffle(x, n, k * 0x9e3779b97f4a7c15ull);
			for (int i = 0; i < n; i++) {
				assert_true(x[i] >= 0 && x[i] < n);
				seen[x[i]]++;
			}
			for (int i = 0; i < n; i++)
				assert_int_equal(seen[i], 1);
		}
	}
}

/* The same key, the same order: a seed reproduces a run. */
static void orders_repeat_with_their_key(void **state)
{
	int a[SERIES] = { 0, 1, 2, 3, 4 }, b[SERIES] = { 0, 1, 2, 3, 4 };

	(void)state;
	wb_shuffle(a, SERIES, 12345);
	wb_shuffle(b, SERIES, 12345);
	assert_memory_equal(a, b, sizeof(a));
}

/*
 * Rounds keyed as bench.c keys them (a base XOR the round): the naive
 * runs before the student in about half of them, right before it in
 * about a quarter (5 series), every series runs last in about a fifth,
 * and consecutive rounds do not follow a fixed pattern.
 */
static void orders_vary_round_by_round(void **state)
{
	const uint64_t base = 0x0123456789abcdefull;
	int before = 0, right_before = 0, last[SERIES] = { 0 }, same_next = 0;
	int prev[SERIES] = { -1 };

	(void)state;
	for (uint64_t r = 0; r < ROUNDS; r++) {
		int x[SERIES] = { 0, 1, 2, 3, 4 }, naive = 0, student = 0;

		wb_shuffle(x, SERIES, base ^ r);
		for (int i = 0; i < SERIES; i++) {
			if (x[i] == 0)
				naive = i;
			if (x[i] == 4)
				student = i;
		}
		before += naive < student;
		right_before += naive + 1 == student;
		last[x[SERIES - 1]]++;
		same_next += !memcmp(x, prev, sizeof(x));
		memcpy(prev, x, sizeof(x));
	}
	assert_true(before > 0.45 * ROUNDS && before < 0.55 * ROUNDS);
	assert_true(right_before > 0.15 * ROUNDS &&
		    right_before < 0.25 * ROUNDS);
	for (int i = 0; i < SERIES; i++)
		assert_true(last[i] > 0.15 * ROUNDS && last[i] < 0.25 * ROUNDS);
	/* 120 orders: a repeat of the last round's about 1 time in 120. */
	assert_true(same_next < 0.03 * ROUNDS);
}

static void steps_are_whole_elements_and_words(void **state)
{
	(void)state;
	assert_int_equal(wb_rotation_step(1), 16);
	assert_int_equal(wb_rotation_step(4), 16);
	assert_int_equal(wb_rotation_step(12), 48);
	assert_int_equal(wb_rotation_step(16), 16);
	assert_int_equal(wb_rotation_step(24), 48);
	assert_int_equal(wb_rotation_step(0), 16);
}

/* Every rotation moves every element by whole elements and words. */
static void rotations_move_by_whole_steps(void **state)
{
	static const size_t elems[] = { 1, 2, 4, 8, 12 };

	(void)state;
	for (size_t e = 0; e < sizeof(elems) / sizeof(elems[0]); e++) {
		size_t elem = elems[e], step = wb_rotation_step(elem);
		size_t bytes = elem * 4099;

		for (uint64_t k = 0; k < 300; k++) {
			size_t shift = wb_rotation(bytes, elem, k);

			assert_int_equal(shift % step, 0);
			assert_int_equal(shift % elem, 0);
			assert_true(shift >= step);
			assert_true(shift <= bytes - step);
		}
	}
	/* Shorter than two steps: nothing can move. */
	assert_int_equal(wb_rotation(31, 1, 7), 0);
	assert_int_equal(wb_rotation(16, 1, 7), 0);
	assert_int_equal(wb_rotation(32, 1, 7), 16);
}

/* Rounds get other rotations; the same key the same one. */
static void rotations_differ_between_rounds(void **state)
{
	const size_t bytes = (size_t)32 << 20;
	size_t distinct = 0, prev = 0;

	(void)state;
	for (uint64_t r = 0; r < 200; r++) {
		size_t shift = wb_rotation(bytes, 1, 0xfeedull + r);

		assert_int_equal(shift, wb_rotation(bytes, 1, 0xfeedull + r));
		distinct += shift != prev;
		prev = shift;
	}
	assert_true(distinct >= 199);
}

/*
 * The host's rotation: dst[i] = src[(i + shift) % bytes], the multiset
 * of elements kept (trip_count's counts keep their statistics), and the
 * pairing of elements with their positions changed for every element.
 */
static void host_rotation_keeps_every_element(void **state)
{
	enum { N = 4096 };
	unsigned char src[N], dst[N];
	size_t count_src[256] = { 0 }, count_dst[256] = { 0 };
	size_t shift = wb_rotation(N, 1, 99);

	(void)state;
	for (size_t i = 0; i < N; i++)
		src[i] = (unsigned char)((i * 2654435761u) >> 13);
	wb_rotate_host(dst, src, N, shift);
	for (size_t i = 0; i < N; i++) {
		assert_int_equal(dst[i], src[(i + shift) % N]);
		count_src[src[i]]++;
		count_dst[dst[i]]++;
	}
	assert_memory_equal(count_src, count_dst, sizeof(count_src));
	/* No rotation at all: a plain copy. */
	wb_rotate_host(dst, src, N, 0);
	assert_memory_equal(dst, src, N);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(orders_are_permutations),
		cmocka_unit_test(orders_repeat_with_their_key),
		cmocka_unit_test(orders_vary_round_by_round),
		cmocka_unit_test(steps_are_whole_elements_and_words),
		cmocka_unit_test(rotations_move_by_whole_steps),
		cmocka_unit_test(rotations_differ_between_rounds),
		cmocka_unit_test(host_rotation_keeps_every_element),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
