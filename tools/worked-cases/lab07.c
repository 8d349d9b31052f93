/* SPDX-License-Identifier: MIT */
/*
 * lab07.c - lab 07's worked cases, with its rule's answers: passes'
 * chains of kernels. Built with the lab's answers.c by
 * tools/worked-cases.sh (WORKED_LAB=7); tools/worked-cases.c's top
 * comment says what they are for.
 */
#include <stdio.h>
#include <string.h>

#include "../worked-cases.h"
#include "fusion.h"

/* ---- lab 07: passes ---- */

extern void (*passes_rule)(const struct chain *ch, struct chain_bytes *eager,
			   struct chain_bytes *fused);

/* Appends kernel (in..., out...) to ch; -1 ends each list. */
static void kernel_add(struct chain *ch, const int *in, const int *out)
{
	struct chain_kernel *k = &ch->k[ch->nkernels++];

	k->nin = k->nout = 0;
	while (*in >= 0)
		k->in[k->nin++] = *in++;
	while (*out >= 0)
		k->out[k->nout++] = *out++;
}

static int buf(struct chain *ch, unsigned long long floats, int result)
{
	ch->floats[ch->nbufs] = floats;
	ch->result[ch->nbufs] = result;
	return ch->nbufs++;
}

#define K(ch, ins, outs) kernel_add(ch, (const int[])ins, (const int[])outs)
#define L(...) { __VA_ARGS__, -1 }
#define NONE { -1 }

/* One chain and the rule's bytes, as an initializer. */
static void chain(FILE *f, const struct chain *ch)
{
	struct chain_bytes e, u;

	passes_rule(ch, &e, &u);
	fprintf(f, "\t{ { %d, %d, {", ch->nbufs, ch->nkernels);
	for (int b = 0; b < ch->nbufs; b++)
		fprintf(f, "%s%llu", b ? ", " : " ", ch->floats[b]);
	fprintf(f, " },\n\t    {");
	for (int b = 0; b < ch->nbufs; b++)
		fprintf(f, "%s%d", b ? ", " : " ", ch->result[b]);
	fprintf(f, " },\n\t    {");
	for (int i = 0; i < ch->nkernels; i++) {
		const struct chain_kernel *k = &ch->k[i];

		fprintf(f, "%s{ %d, %d, {", i ? ",\n\t      " : " ", k->nin,
			k->nout);
		for (int a = 0; a < k->nin; a++)
			fprintf(f, "%s%d", a ? ", " : " ", k->in[a]);
		fprintf(f, "%s}, {", k->nin ? " " : " 0 ");
		for (int a = 0; a < k->nout; a++)
			fprintf(f, "%s%d", a ? ", " : " ", k->out[a]);
		fprintf(f, " } }");
	}
	fprintf(f, " } },\n\t  { %llu, %llu }, { %llu, %llu } },\n", e.read,
		e.write, u.read, u.write);
}

/* naive.cu's nine gelu kernels over x into y (lab.c's chain_gelu_on). */
static void gelu_on(struct chain *ch, int x, unsigned long long n, int y)
{
	int t = buf(ch, n, 0), u = buf(ch, n, 0);

	K(ch, L(x), L(t));
	K(ch, L(t, x), L(t));
	K(ch, L(t), L(t));
	K(ch, L(x, t), L(t));
	K(ch, L(t), L(t));
	K(ch, L(t), L(t));
	K(ch, L(t), L(t));
	K(ch, L(x), L(u));
	K(ch, L(u, t), L(y));
}

/* naive.cu's four chains at their benchmark shapes and a small one. */
static void lab_chains(FILE *f)
{
	typedef unsigned long long u64;
	static const u64 gelu_n[] = { 64u << 20, 1, 33, 1000003 };
	static const u64 rc[][2] = { { 8192, 8192 }, { 5, 3 } };
	static const u64 add[][2] = { { 16384, 4096 }, { 3, 1 } };
	static const u64 sm[][2] = { { 16384, 4096 }, { 7, 31 } };
	struct chain ch;
	int x, b, h, y, res, w, m, sums;

	for (size_t s = 0; s < COUNT(gelu_n); s++) {
		memset(&ch, 0, sizeof(ch));
		x = buf(&ch, gelu_n[s], 0);
		y = buf(&ch, gelu_n[s], 1);
		gelu_on(&ch, x, gelu_n[s], y);
		chain(f, &ch);
	}
	for (size_t s = 0; s < 2; s++) {
		unsigned long long r = rc[s][0], c = rc[s][1];

		memset(&ch, 0, sizeof(ch));
		x = buf(&ch, r * c, 0);
		b = buf(&ch, c, 0);
		h = buf(&ch, r * c, 0);
		y = buf(&ch, r * c, 1);
		K(&ch, L(x, b), L(h));
		gelu_on(&ch, h, r * c, y);
		chain(f, &ch);

		r = add[s][0], c = add[s][1];
		memset(&ch, 0, sizeof(ch));
		x = buf(&ch, r * c, 0);
		res = buf(&ch, r * c, 1);
		w = buf(&ch, c, 0);
		y = buf(&ch, r * c, 1);
		K(&ch, L(res, x), L(res));
		K(&ch, L(res, w), L(y));
		chain(f, &ch);

		r = sm[s][0], c = sm[s][1];
		memset(&ch, 0, sizeof(ch));
		x = buf(&ch, r * c, 0);
		m = buf(&ch, r, 0);
		sums = buf(&ch, r, 0);
		y = buf(&ch, r * c, 1);
		K(&ch, L(x), L(m));
		K(&ch, L(x, m), L(y, sums));
		K(&ch, L(y, sums), L(y));
		chain(f, &ch);
	}
}

/* lab.c's hand-made chains: a result read again, an input updated in
 * place, a buffer written twice, an input read by three kernels, an
 * intermediate of another size, a buffer nobody uses, a fill. */
static void hand_made(FILE *f)
{
	struct chain ch[7];
	int a, b, t, y, z;

	memset(ch, 0, sizeof(ch));
	a = buf(&ch[0], 1000, 0);
	y = buf(&ch[0], 1000, 1);
	K(&ch[0], L(a), L(y));
	K(&ch[0], L(y), L(y));
	a = buf(&ch[1], 4096, 1);
	b = buf(&ch[1], 64, 0);
	K(&ch[1], L(a, b), L(a));
	K(&ch[1], L(a), L(a));
	a = buf(&ch[2], 33, 0);
	y = buf(&ch[2], 33, 1);
	K(&ch[2], L(a), L(y));
	K(&ch[2], L(a), L(y));
	a = buf(&ch[3], 1u << 20, 0);
	y = buf(&ch[3], 1, 1);
	z = buf(&ch[3], 1, 1);
	t = buf(&ch[3], 1, 0);
	K(&ch[3], L(a), L(t));
	K(&ch[3], L(a, t), L(y));
	K(&ch[3], L(a, t), L(z));
	a = buf(&ch[4], 7, 0);
	t = buf(&ch[4], 7 * 5, 0);
	y = buf(&ch[4], 5, 1);
	K(&ch[4], L(a), L(t));
	K(&ch[4], L(t), L(y));
	a = buf(&ch[5], 100, 0);
	buf(&ch[5], 1u << 30, 0);
	y = buf(&ch[5], 100, 1);
	K(&ch[5], L(a), L(y));
	y = buf(&ch[6], 12345, 1);
	t = buf(&ch[6], 12345, 0);
	K(&ch[6], NONE, L(t));
	K(&ch[6], L(t), L(y));
	for (int i = 0; i < 7; i++)
		chain(f, &ch[i]);
}

/* A chain the contract allows, as lab.c's random group draws them. */
static void random_chain(struct chain *ch, struct wb_rng *rng)
{
	int written[CHAIN_MAX_BUFS] = { 0 }, any = 0;

	memset(ch, 0, sizeof(*ch));
	ch->nbufs = 1 + (int)wb_rng_below(rng, CHAIN_MAX_BUFS);
	ch->nkernels = 1 + (int)wb_rng_below(rng, CHAIN_MAX_KERNELS);
	for (int b = 0; b < ch->nbufs; b++)
		ch->floats[b] = wb_rng_below(rng, 2) ?
			1 + wb_rng_below(rng, 1000) :
			1ull << wb_rng_below(rng, 29);
	for (int i = 0; i < ch->nkernels; i++) {
		struct chain_kernel *k = &ch->k[i];
		int nin = (int)wb_rng_below(rng, KERNEL_MAX_ARGS + 1);
		int nout = 1 + (int)wb_rng_below(rng, KERNEL_MAX_ARGS);
		int in0 = (int)wb_rng_below(rng, (uint64_t)ch->nbufs);
		int out0 = (int)wb_rng_below(rng, (uint64_t)ch->nbufs);

		for (int a = 0; a < nin && a < ch->nbufs; a++)
			k->in[k->nin++] = (in0 + a) % ch->nbufs;
		for (int a = 0; a < nout && a < ch->nbufs; a++) {
			k->out[k->nout++] = (out0 + a) % ch->nbufs;
			written[(out0 + a) % ch->nbufs] = 1;
		}
	}
	for (int b = 0; b < ch->nbufs; b++) {
		ch->result[b] = written[b] && wb_rng_below(rng, 2);
		any |= ch->result[b];
	}
	if (!any)
		ch->result[ch->k[ch->nkernels - 1].out[0]] = 1;
}

void write_cases(const char *dir, struct wb_rng *rng)
{
	FILE *f = open_out(dir, "passes_worked.h");
	struct chain ch;

	header(f, "passes_worked.h", "lab 07's passes");
	fprintf(f, "struct pass_worked {\n\tstruct chain ch;\n"
		   "\tstruct chain_bytes eager, fused;\n};\n\n"
		   "static const struct pass_worked pass_worked[] = {\n");
	lab_chains(f);
	hand_made(f);
	for (int i = 0; i < 40; i++) {
		random_chain(&ch, rng);
		chain(f, &ch);
	}
	fprintf(f, "};\n");
	fclose(f);
}
