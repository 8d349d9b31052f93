/* SPDX-License-Identifier: MIT */
/*
 * passes_chains.h - the chains of kernels passes asks about that are not
 * drawn from the seed: naive.cu's four eager chains, buffer for buffer,
 * and the hand-made ones. Lab code (not in lab.mk's HEADERS): ex_passes.c
 * grades with them, and tools/worked-cases/lab07.c writes the worked
 * cases from the same chains.
 */
#ifndef LAB07_PASSES_CHAINS_H
#define LAB07_PASSES_CHAINS_H

#include <string.h>

#include "fusion.h"

/* naive.cu's chains (passes' first groups, by size index: lab_hooks.h). */
enum { PASS_GELU, PASS_BIAS_GELU, PASS_ADD_RMSNORM, PASS_SOFTMAX,
       PASS_OPS };

/* Appends kernel (in..., out...) to ch; -1 ends each list. */
static inline void chain_kernel_add(struct chain *ch, const int *in,
				    const int *out)
{
	struct chain_kernel *k = &ch->k[ch->nkernels++];

	k->nin = k->nout = 0;
	while (*in >= 0)
		k->in[k->nin++] = *in++;
	while (*out >= 0)
		k->out[k->nout++] = *out++;
}

static inline int chain_buf(struct chain *ch, unsigned long long floats,
			    int result)
{
	ch->floats[ch->nbufs] = floats;
	ch->result[ch->nbufs] = result;
	return ch->nbufs++;
}

/* Kernel (ins) -> (outs), lists as L(a, b); undefined again at the end. */
#define K(ch, ins, outs)                                                  \
	chain_kernel_add(ch, (const int[])ins, (const int[])outs)
#define L(...) { __VA_ARGS__, -1 }
#define NONE { -1 }

/* naive_gelu's nine kernels over x into y, with its temporaries t and u. */
static inline void chain_gelu_on(struct chain *ch, int x,
				 unsigned long long n, int y)
{
	int t = chain_buf(ch, n, 0), u = chain_buf(ch, n, 0);

	K(ch, L(x), L(t));        /* t = x * x */
	K(ch, L(t, x), L(t));     /* t = t * x */
	K(ch, L(t), L(t));        /* t = 0.044715 t */
	K(ch, L(x, t), L(t));     /* t = x + t */
	K(ch, L(t), L(t));        /* t = sqrt(2/pi) t */
	K(ch, L(t), L(t));        /* t = tanh(t) */
	K(ch, L(t), L(t));        /* t = 1 + t */
	K(ch, L(x), L(u));        /* u = 0.5 x */
	K(ch, L(u, t), L(y));     /* y = u * t */
}

/* The eager chain of naive.cu's op at a shape: n = r for gelu, r x c for
 * the others. */
static inline void chain_of(int op, unsigned long long r,
			    unsigned long long c, struct chain *ch)
{
	int x, b, h, res, w, y, m, sums;

	memset(ch, 0, sizeof(*ch));
	switch (op) {
	case PASS_GELU:
		x = chain_buf(ch, r, 0);
		y = chain_buf(ch, r, 1);
		chain_gelu_on(ch, x, r, y);
		break;
	case PASS_BIAS_GELU:
		x = chain_buf(ch, r * c, 0);
		b = chain_buf(ch, c, 0);
		h = chain_buf(ch, r * c, 0);
		y = chain_buf(ch, r * c, 1);
		K(ch, L(x, b), L(h));                 /* h = x + b */
		chain_gelu_on(ch, h, r * c, y);
		break;
	case PASS_ADD_RMSNORM:
		x = chain_buf(ch, r * c, 0);
		res = chain_buf(ch, r * c, 1);
		w = chain_buf(ch, c, 0);
		y = chain_buf(ch, r * c, 1);
		K(ch, L(res, x), L(res));             /* residual += x */
		/* its second read of the row hits in L1/L2: one pass */
		K(ch, L(res, w), L(y));               /* y = rmsnorm(h) w */
		break;
	default:
		x = chain_buf(ch, r * c, 0);
		m = chain_buf(ch, r, 0);
		sums = chain_buf(ch, r, 0);
		y = chain_buf(ch, r * c, 1);
		K(ch, L(x), L(m));                    /* row maxima */
		K(ch, L(x, m), L(y, sums));           /* exp, row sums */
		K(ch, L(y, sums), L(y));              /* y /= sum */
	}
}

/*
 * The cases the lab's four chains do not reach, one chain each: a result
 * read again by a later kernel (fused: written once, never read back);
 * an input updated in place first thing (read once, and written as a
 * result); a buffer written twice; an input read by three kernels; an
 * intermediate of another size than the rest; a buffer nobody uses; a
 * kernel with nothing to read (a fill).
 */
#define PASSES_HAND_MADE 7

static inline int chain_hand_made(struct chain *ch)
{
	int a, b, t, y, z;

	memset(ch, 0, PASSES_HAND_MADE * sizeof(*ch));
	a = chain_buf(&ch[0], 1000, 0);
	y = chain_buf(&ch[0], 1000, 1);
	K(&ch[0], L(a), L(y));
	K(&ch[0], L(y), L(y));

	a = chain_buf(&ch[1], 4096, 1);
	b = chain_buf(&ch[1], 64, 0);
	K(&ch[1], L(a, b), L(a));
	K(&ch[1], L(a), L(a));

	a = chain_buf(&ch[2], 33, 0);
	y = chain_buf(&ch[2], 33, 1);
	K(&ch[2], L(a), L(y));
	K(&ch[2], L(a), L(y));

	a = chain_buf(&ch[3], 1u << 20, 0);
	y = chain_buf(&ch[3], 1, 1);
	z = chain_buf(&ch[3], 1, 1);
	t = chain_buf(&ch[3], 1, 0);
	K(&ch[3], L(a), L(t));
	K(&ch[3], L(a, t), L(y));
	K(&ch[3], L(a, t), L(z));

	a = chain_buf(&ch[4], 7, 0);
	t = chain_buf(&ch[4], 7 * 5, 0);
	y = chain_buf(&ch[4], 5, 1);
	K(&ch[4], L(a), L(t));
	K(&ch[4], L(t), L(y));

	a = chain_buf(&ch[5], 100, 0);
	chain_buf(&ch[5], 1u << 30, 0);
	y = chain_buf(&ch[5], 100, 1);
	K(&ch[5], L(a), L(y));

	y = chain_buf(&ch[6], 12345, 1);
	t = chain_buf(&ch[6], 12345, 0);
	K(&ch[6], NONE, L(t));
	K(&ch[6], L(t), L(y));
	return PASSES_HAND_MADE;
}

#undef K
#undef L
#undef NONE

#endif /* LAB07_PASSES_CHAINS_H */
