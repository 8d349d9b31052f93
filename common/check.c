/* SPDX-License-Identifier: MIT */
#include "check.h"

#include <math.h>
#include <string.h>

static unsigned char canary_byte(size_t i, uint64_t salt)
{
	unsigned char b = (unsigned char)(((salt + i) * 0x9e3779b97f4a7c15ULL) >> 56);

	/* Never the poison byte, so a poisoned canary never reads "intact". */
	return b == WB_POISON_BYTE ? 0x5a : b;
}

void wb_canary_fill(void *p, size_t bytes, uint64_t salt)
{
	unsigned char *b = p;

	for (size_t i = 0; i < bytes; i++)
		b[i] = canary_byte(i, salt);
}

size_t wb_canary_first_bad(const void *p, size_t bytes, uint64_t salt)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < bytes; i++)
		if (b[i] != canary_byte(i, salt))
			return i;
	return bytes;
}

size_t wb_poisoned_words(const void *p, size_t count)
{
	const unsigned char *b = p;
	size_t k = 0;

	for (size_t i = 0; i < count; i++) {
		uint32_t w;

		memcpy(&w, b + 4 * i, sizeof(w));
		k += (w == 0xffffffffu);
	}
	return k;
}

int wb_close(double got, double want, double atol, double rtol)
{
	/* An infinite reference is matched only by the same infinity (a
	 * relative tolerance of inf would accept anything). */
	if (!isfinite(want) || !isfinite(got))
		return got == want; /* false for NaN */
	return fabs(got - want) <= atol + rtol * fabs(want);
}

static void note(struct wb_cmp *c, size_t i, double got, double want)
{
	c->bad++;
	if (c->nshown < WB_MAX_SHOWN) {
		c->shown[c->nshown].index = i;
		c->shown[c->nshown].got = got;
		c->shown[c->nshown].want = want;
		c->nshown++;
	}
}

void wb_cmp_f32(const float *got, const double *want, size_t n,
		double atol, double rtol, struct wb_cmp *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	for (size_t i = 0; i < n; i++) {
		double g = got[i];

		if (isfinite(g) && fabs(g - want[i]) > out->max_err)
			out->max_err = fabs(g - want[i]);
		if (wb_close(g, want[i], atol, rtol))
			continue;
		if (!isfinite(g))
			out->nonfinite++;
		if (wb_poisoned_words(&got[i], 1))
			out->poisoned++;
		note(out, i, g, want[i]);
	}
}

void wb_cmp_i64(const int64_t *got, const int64_t *want, size_t n,
		struct wb_cmp *out)
{
	memset(out, 0, sizeof(*out));
	out->n = n;
	for (size_t i = 0; i < n; i++) {
		if (got[i] == want[i])
			continue;
		if (got[i] == -1) /* all bytes 0xff */
			out->poisoned++;
		note(out, i, (double)got[i], (double)want[i]);
	}
}

double wb_row_atol(const double *want, size_t n, double atol)
{
	double top = 0;

	for (size_t i = 0; i < n; i++)
		top = fabs(want[i]) > top ? fabs(want[i]) : top;
	atol *= top < 1 ? top : 1;
	return atol > WB_ROW_ATOL_FLOOR ? atol : WB_ROW_ATOL_FLOOR;
}
