/* SPDX-License-Identifier: MIT */
/*
 * test_fresh_hash.c - common/fresh_hash.h: the bits flipped in timed
 * inputs, round by round. The host (to check a timed output against its
 * own inputs) reads them a byte at a time, the device a word at a time,
 * so the two must agree; each kind flips only bits that keep every input
 * valid (fresh_hash.h); and another round's key gives other inputs.
 * Whether probe.cu's device copy flips the same bits shows only on a GPU:
 * each timed output is checked against inputs the host perturbed itself,
 * so a disagreement would make the solutions WRONG.
 */
#include "unit.h"

#include "fresh_hash.h"

#define WORDS 4096

static const enum wb_fresh kinds[] = {
	WB_FRESH_NONE, WB_FRESH_F32, WB_FRESH_BF16, WB_FRESH_BITS,
	WB_FRESH_BYTES,
};

/* Keys as rounds get them: small, consecutive, and arbitrary. */
static const uint64_t keys[] = {
	0, 1, 2, 3, 0x9e3779b97f4a7c15ull, 0xffffffffffffffffull,
	0x123456789abcdef0ull,
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The bits a kind may flip in a 32-bit word (fresh_hash.h). */
static uint32_t allowed(enum wb_fresh kind)
{
	switch (kind) {
	case WB_FRESH_F32:
		return 0x80000000u;   /* the sign */
	case WB_FRESH_BF16:
		return 0x80008000u;   /* the sign of each half */
	case WB_FRESH_BYTES:
		return 0x01010101u;   /* bit 0 of each byte */
	case WB_FRESH_BITS:
		return 0xffffffffu;
	default:
		return 0;
	}
}

/* Byte b of word w as the host reads it: the word's, little-endian. */
static void check_bytes(enum wb_fresh kind, uint64_t key)
{
	for (size_t w = 0; w < WORDS; w++) {
		uint32_t m = wb_fresh_word_mask(kind, w, key);

		for (size_t b = 0; b < 4; b++) {
			unsigned got = wb_fresh_byte_mask(kind, 4 * w + b, key);
			unsigned want = (m >> (8 * b)) & 0xffu;

			if (got != want)
				fail_msg("kind %d word %zu byte %zu: %02x, the "
					 "word says %02x", kind, w, b, got,
					 want);
		}
	}
}

static void bytes_and_words_agree(void **state)
{
	(void)state;
	for (size_t k = 0; k < N(kinds); k++)
		for (size_t i = 0; i < N(keys); i++)
			check_bytes(kinds[k], keys[i]);
}

/*
 * Each kind flips only its bits, and every one of them somewhere: a mask
 * that never touched a bit would leave inputs the same from round to
 * round.
 */
static void only_the_bits_each_kind_may_flip(void **state)
{
	(void)state;
	for (size_t k = 0; k < N(kinds); k++)
		for (size_t i = 0; i < N(keys); i++) {
			uint32_t seen = 0;

			for (size_t w = 0; w < WORDS; w++) {
				uint32_t m = wb_fresh_word_mask(kinds[k], w,
								keys[i]);

				if (m & ~allowed(kinds[k]))
					fail_msg("kind %d word %zu: mask %08x "
						 "flips bits outside %08x",
						 kinds[k], w, m,
						 allowed(kinds[k]));
				seen |= m;
			}
			assert_int_equal(seen, allowed(kinds[k]));
		}
}

/* A float32 keeps its magnitude and gets its sign flipped about half the
 * time: integers stay integers, and a sum changes. */
static void f32_keeps_magnitudes_flips_signs(void **state)
{
	static const float x[] = { 1.0f, -0.5f, 3.0f, 1e-30f, 6.5e4f,
				   -2.75e-3f, 0.0f };
	size_t flipped = 0;

	(void)state;
	for (size_t w = 0; w < WORDS; w++) {
		float a = x[w % N(x)], b;
		uint32_t u;

		memcpy(&u, &a, 4);
		u ^= wb_fresh_word_mask(WB_FRESH_F32, w, keys[4]);
		memcpy(&b, &u, 4);
		assert_true(fabs(b) == fabs(a));
		flipped += signbit(b) != signbit(a);
	}
	assert_true(flipped > WORDS / 3 && flipped < 2 * WORDS / 3);
}

/* How many of the first WORDS words two keys flip differently. */
static size_t words_differing(enum wb_fresh kind, uint64_t a, uint64_t b)
{
	size_t n = 0;

	for (size_t w = 0; w < WORDS; w++)
		n += wb_fresh_word_mask(kind, w, a) !=
		     wb_fresh_word_mask(kind, w, b);
	return n;
}

/* How often two random masks of a kind agree: 2^-(bits it may flip). */
static double p_alike(enum wb_fresh kind)
{
	return ldexp(1.0, -__builtin_popcount(allowed(kind)));
}

/* Another round's key gives other masks, as often as random masks differ
 * (within 6 standard deviations); the same key the same masks (the host
 * redoes a round's inputs from its key). */
static void keys_give_different_masks(void **state)
{
	(void)state;
	for (size_t k = 1; k < N(kinds); k++) {
		double p = 1 - p_alike(kinds[k]);
		double low = WORDS * p - 6 * sqrt(WORDS * p * (1 - p));

		for (size_t i = 0; i < N(keys); i++)
			for (size_t j = 0; j < N(keys); j++) {
				size_t d = words_differing(kinds[k], keys[i],
							   keys[j]);

				if (i == j)
					assert_int_equal(d, 0);
				else if (d < low)
					fail_msg("kind %d keys %zu and %zu: "
						 "only %zu of %d words differ",
						 kinds[k], i, j, d, WORDS);
			}
	}
}

/* Neighbouring words are not flipped alike: one hash serves 32, 16 or 8
 * words, each with its own bits of it. */
static void words_differ_within_one_hash(void **state)
{
	(void)state;
	for (size_t k = 1; k < N(kinds); k++) {
		double p = p_alike(kinds[k]);
		double high = WORDS * p + 6 * sqrt(WORDS * p * (1 - p)) + 1;
		size_t same = 0;

		for (size_t w = 1; w < WORDS; w++)
			same += wb_fresh_word_mask(kinds[k], w, keys[1]) ==
				wb_fresh_word_mask(kinds[k], w - 1, keys[1]);
		/* Two random masks agree with probability p: a hash shared
		 * badly would make neighbours agree more. */
		if (same > high)
			fail_msg("kind %d: %zu of %d neighbours alike",
				 kinds[k], same, WORDS);
	}
}

static void none_flips_nothing(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(keys); i++) {
		uint64_t key = keys[i];

		for (size_t b = 0; b < 4 * WORDS; b++)
			assert_int_equal(wb_fresh_byte_mask(WB_FRESH_NONE, b,
							    key), 0);
	}
}

/*
 * wb_fresh_perturb_host() makes a block's masks from one hash: it must
 * flip exactly the bytes wb_fresh_byte_mask() names, for every kind, at
 * lengths that end inside a block, a word or at a block's edge.
 */
static void host_perturbation_is_the_byte_masks(void **state)
{
	static const size_t lens[] = { 0, 1, 3, 4, 5, 63, 64, 65, 127, 128,
				       129, 255, 256, 1000, 4099, 4 * WORDS };
	static unsigned char src[4 * WORDS], dst[4 * WORDS];

	(void)state;
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(wb_fresh_hash(i, 7) >> 3);
	for (size_t k = 0; k < N(kinds); k++)
		for (size_t j = 0; j < N(keys); j++)
			for (size_t l = 0; l < N(lens); l++) {
				size_t n = lens[l];

				memset(dst, 0xa5, sizeof(dst));
				wb_fresh_perturb_host(dst, src, n, kinds[k],
						      keys[j]);
				for (size_t b = 0; b < n; b++) {
					unsigned want = src[b] ^
						wb_fresh_byte_mask(kinds[k], b,
								   keys[j]);

					if (dst[b] != want)
						fail_msg("kind %d key %zu length "
							 "%zu byte %zu: %02x, "
							 "not %02x", kinds[k],
							 j, n, b, dst[b], want);
				}
				for (size_t b = n; b < sizeof(dst); b++)
					if (dst[b] != 0xa5)
						fail_msg("kind %d length %zu: "
							 "byte %zu past the end "
							 "written", kinds[k],
							 n, b);
			}
}

/* Ranges on WB_FRESH_HOST_ALIGN, done in any order, make the whole: what
 * threads that share a buffer rely on (fresh.c). */
static void host_perturbation_by_ranges_is_the_whole(void **state)
{
	static const size_t lens[] = { 129, 1000, 4099, 4 * WORDS };
	static unsigned char src[4 * WORDS], whole[4 * WORDS], parts[4 * WORDS];

	(void)state;
	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (unsigned char)(wb_fresh_hash(i, 9) >> 5);
	for (size_t k = 0; k < N(kinds); k++)
		for (size_t l = 0; l < N(lens); l++) {
			size_t n = lens[l], step = 2 * WB_FRESH_HOST_ALIGN;

			wb_fresh_perturb_host(whole, src, n, kinds[k], keys[1]);
			memset(parts, 0xa5, sizeof(parts));
			for (size_t lo = (n - 1) / step * step;; lo -= step) {
				size_t hi = lo + step < n ? lo + step : n;

				wb_fresh_perturb_host_range(parts, src, n, lo, hi,
							    kinds[k], keys[1]);
				if (!lo)
					break;
			}
			if (memcmp(parts, whole, n))
				fail_msg("kind %d length %zu: ranges differ "
					 "from the whole", kinds[k], n);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bytes_and_words_agree),
		cmocka_unit_test(only_the_bits_each_kind_may_flip),
		cmocka_unit_test(f32_keeps_magnitudes_flips_signs),
		cmocka_unit_test(keys_give_different_masks),
		cmocka_unit_test(words_differ_within_one_hash),
		cmocka_unit_test(none_flips_nothing),
		cmocka_unit_test(host_perturbation_is_the_byte_masks),
		cmocka_unit_test(host_perturbation_by_ranges_is_the_whole),
	};

	return cmocka_run_group_tests_name("fresh_hash", tests, NULL, NULL);
}
