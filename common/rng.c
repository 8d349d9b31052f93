/* SPDX-License-Identifier: MIT */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void wb_rng_seed(struct wb_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t wb_rng_u64(struct wb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double wb_rng_unit(struct wb_rng *r)
{
	/* The top 53 bits make an exactly representable double in [0, 1). */
	return (double)(wb_rng_u64(r) >> 11) * 0x1.0p-53;
}

double wb_rng_range(struct wb_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * wb_rng_unit(r);
}

void wb_rng_fill_uniform(struct wb_rng *r, float *x, size_t n, double lo,
			 double hi)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (float)wb_rng_range(r, lo, hi);
}

uint64_t wb_rng_below(struct wb_rng *r, uint64_t n)
{
	/* Rejection keeps the result unbiased for any n. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = wb_rng_u64(r);
	while (x >= limit);
	return x % n;
}

void wb_rng_stripes(struct wb_rng *r, size_t rows, size_t kinds,
		    wb_stripe_fn *fn, void *arg)
{
	size_t stripes = kinds * (1 + rows / 256), len, first;

	if (!kinds || rows < stripes)
		return;
	len = rows / stripes;
	first = wb_rng_below(r, kinds);
	for (size_t s = 0; s < stripes; s++)
		fn(arg, s * len + wb_rng_below(r, len), (first + s) % kinds);
}

uint64_t wb_seed_mix(uint64_t seed, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a over the name */

	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 0x100000001b3ULL;
	seed ^= h;
	return splitmix64(&seed);
}
