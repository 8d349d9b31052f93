/* SPDX-License-Identifier: MIT */
/*
 * shuffle.h - the choices a timing round makes from its key: the order in
 * which its series run (bench.c), and how far a moved input is rotated
 * (fresh.c, wb_input_rotated()). Pure functions of the key, so a seed
 * reproduces a run and the unit tests (tests/unit/test_shuffle.c) check
 * them without a GPU. Only static inline definitions.
 */
#ifndef WB_SHUFFLE_H
#define WB_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* splitmix64: the next of a stream of well-mixed words from *state. */
static inline uint64_t wb_shuffle_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * x[0..n) in an order drawn from key (Fisher-Yates): every order equally
 * likely, up to the bias of a 64-bit modulo (under 2^-58 for n <= 64).
 * A round's series run in this order, so no call can count on running
 * right after another (the naive), and no order ends every run.
 */
static inline void wb_shuffle(int *x, int n, uint64_t key)
{
	uint64_t state = key;

	for (int i = n - 1; i > 0; i--) {
		int j = (int)(wb_shuffle_next(&state) % (uint64_t)(i + 1));
		int t = x[i];

		x[i] = x[j];
		x[j] = t;
	}
}

/* The step a rotation moves by: whole elements of elem bytes, and whole
 * 16-byte words, so the device's copies stay aligned (lcm(elem, 16)). */
static inline size_t wb_rotation_step(size_t elem)
{
	size_t a = elem ? elem : 1, b = 16;

	while (b) {
		size_t t = a % b;

		a = b;
		b = t;
	}
	return (elem ? elem : 1) / a * 16;
}

/*
 * How many bytes a buffer of `bytes` (whole elements of elem bytes) is
 * rotated under key: a multiple of wb_rotation_step(elem) in [step,
 * bytes - step], so every element moves; 0 when the buffer is shorter
 * than two steps (nothing can move by a whole step).
 */
static inline size_t wb_rotation(size_t bytes, size_t elem, uint64_t key)
{
	size_t step = wb_rotation_step(elem), steps = bytes / step;
	uint64_t state = key;

	if (steps < 2)
		return 0;
	return step * (1 + (size_t)(wb_shuffle_next(&state) %
				    (uint64_t)(steps - 1)));
}

/* dst = src rotated left by shift bytes: dst[i] = src[(i + shift) % bytes]
 * (host memory; the device does the same with two copies, fresh.c). */
static inline void wb_rotate_host(void *dst, const void *src, size_t bytes,
				  size_t shift)
{
	const unsigned char *s = (const unsigned char *)src;
	unsigned char *d = (unsigned char *)dst;

	if (shift >= bytes)
		shift = 0;
	memcpy(d, s + shift, bytes - shift);
	memcpy(d + bytes - shift, s, shift);
}

#endif /* WB_SHUFFLE_H */
