/* SPDX-License-Identifier: MIT */
/*
 * fresh_hash.h - the per-call perturbation of timed inputs, bit for bit the
 * same on the host (fresh.c, to check a timed output against its own
 * inputs) and on the device (probe.cu, to make the inputs of each timed
 * round). Only static inline definitions: both compilers include it.
 *
 * Every timed round gets a 64-bit key; each element of a buffer has its
 * bits flipped by the masks below. The flips keep every input valid for
 * its exercise while making the content of each round new, and its result
 * different: a result kept from an earlier call, keyed by content or not,
 * is never the right one. Floats get the sign of about half of them
 * flipped: the inputs of every lab are symmetric about zero, integers
 * stay integers (an exact sum stays exact), and a sum, a maximum or a
 * product changes by far more than any tolerance (flipping the low
 * mantissa bits instead moves a sum of 64M floats by ~1e-3, well inside
 * its tolerance, so a replayed result would pass).
 */
#ifndef WB_FRESH_HASH_H
#define WB_FRESH_HASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define WB_HD __host__ __device__
#else
#define WB_HD
#endif

/* How an input may be perturbed for a timed call (harness.h). */
enum wb_fresh {
	WB_FRESH_NONE,  /* kept as it is (indices, counts, shapes) */
	WB_FRESH_F32,   /* float32: the sign, of each with probability 1/2 */
	WB_FRESH_BF16,  /* bfloat16: the same */
	WB_FRESH_BITS,  /* any bit pattern is valid: every bit */
	WB_FRESH_BYTES, /* bytes where any value is valid: the lowest bit */
};

/* splitmix64's finaliser on the word's index and the round's key. */
static inline WB_HD uint32_t wb_fresh_hash(uint64_t word, uint64_t key)
{
	uint64_t x = key ^ (word * 0x9e3779b97f4a7c15ull);

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return (uint32_t)x;
}

/*
 * The bits to flip in 32-bit word `word` of a buffer of this kind. Kinds
 * that flip a few bits per element draw them for 32, 16 or 8 words from
 * one hash, so that the host can redo a round's inputs quickly.
 */
static inline WB_HD uint32_t wb_fresh_word_mask(enum wb_fresh kind,
						size_t word, uint64_t key)
{
	uint32_t h, b;

	switch (kind) {
	case WB_FRESH_F32: /* bit 31: the sign */
		h = wb_fresh_hash(word >> 5, key);
		return ((h >> (word & 31)) & 1u) << 31;
	case WB_FRESH_BF16: /* bit 15 of each half: its sign */
		h = wb_fresh_hash(word >> 4, key);
		b = (h >> (2 * (word & 15))) & 3u;
		return (b & 1u) << 15 | (b >> 1) << 31;
	case WB_FRESH_BYTES: /* bit 0 of each byte */
		h = wb_fresh_hash(word >> 3, key);
		b = (h >> (4 * (word & 7))) & 15u;
		return (b & 1u) | (b >> 1 & 1u) << 8 | (b >> 2 & 1u) << 16 |
		       (b >> 3) << 24;
	case WB_FRESH_BITS:
		return wb_fresh_hash(word, key);
	default:
		return 0;
	}
}

/* The bits to flip in byte `byte` (little-endian words, as on the GPU). */
static inline WB_HD unsigned char wb_fresh_byte_mask(enum wb_fresh kind,
						     size_t byte, uint64_t key)
{
	return (unsigned char)(wb_fresh_word_mask(kind, byte / 4, key) >>
			       (8 * (byte % 4)));
}

#ifndef __CUDA_ARCH__
/*
 * dst = src perturbed as the device does it (fresh_hash.h), for bytes
 * [lo, hi) of buffers of `bytes` bytes; lo a multiple of
 * WB_FRESH_HOST_ALIGN, hi too or equal to bytes. A float's or a
 * bfloat16's sign bits come from one hash per 32 or 16 words, made once
 * for the block here: the same bits as wb_fresh_word_mask(), a fraction
 * of the time (the checks of timed outputs run this over every input).
 * Ranges let threads share a buffer (fresh.c). Host code only;
 * tests/unit/test_fresh_hash.c holds it to the word masks.
 */
#define WB_FRESH_HOST_ALIGN 128 /* bytes: 32 words, a block of one hash */

static inline void wb_fresh_perturb_host_range(void *dst, const void *src,
					       size_t bytes, size_t lo,
					       size_t hi, enum wb_fresh kind,
					       uint64_t key)
{
	const uint32_t *s = (const uint32_t *)src;
	uint32_t *d = (uint32_t *)dst;
	size_t words = hi / 4, w = lo / 4;

	if (kind == WB_FRESH_F32)
		for (; w + 32 <= words; w += 32) {
			uint32_t h = wb_fresh_hash(w >> 5, key);

			for (unsigned k = 0; k < 32; k++)
				d[w + k] = s[w + k] ^ ((h >> k) & 1u) << 31;
		}
	if (kind == WB_FRESH_BF16)
		for (; w + 16 <= words; w += 16) {
			uint32_t h = wb_fresh_hash(w >> 4, key);

			for (unsigned k = 0; k < 16; k++) {
				uint32_t b = (h >> (2 * k)) & 3u;

				d[w + k] = s[w + k] ^
					   ((b & 1u) << 15 | (b >> 1) << 31);
			}
		}
	for (; w < words; w++)
		d[w] = s[w] ^ wb_fresh_word_mask(kind, w, key);
	if (hi == bytes)
		for (size_t b = 4 * words; b < bytes; b++)
			((unsigned char *)dst)[b] =
				((const unsigned char *)src)[b] ^
				wb_fresh_byte_mask(kind, b, key);
}

/* The whole buffer. */
static inline void wb_fresh_perturb_host(void *dst, const void *src,
					 size_t bytes, enum wb_fresh kind,
					 uint64_t key)
{
	wb_fresh_perturb_host_range(dst, src, bytes, 0, bytes, kind, key);
}

#endif

#endif /* WB_FRESH_HASH_H */
