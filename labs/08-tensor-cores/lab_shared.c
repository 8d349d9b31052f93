/* SPDX-License-Identifier: MIT */
/*
 * lab_shared.c - lab 08's helpers that several exercises share: bfloat16
 * in plain C, and the largest value of a row (hgemm, attention), declared
 * in lab_hooks.h.
 */
#include <string.h>

#include "harness.h"
#include "tensor_cores.h"
#include "lab_hooks.h"

/* ---- bfloat16 in plain C ---- */

double lab08_bf16_to_double(bf16_bits b)
{
	uint32_t u = (uint32_t)b << 16;
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

/* Round to nearest even, as __float2bfloat16 does (inputs are finite). */
bf16_bits lab08_float_to_bf16(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	u += 0x7fffu + ((u >> 16) & 1u);
	return (bf16_bits)(u >> 16);
}

/* ---- shared by the exercises ---- */

double lab08_row_max(const double *x, size_t n)
{
	double m = 0;

	for (size_t j = 0; j < n; j++)
		m = x[j] > m ? x[j] : m;
	return m;
}
