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
#include "passes_chains.h"

/* ---- lab 07: passes ---- */

extern void (*passes_rule)(const struct chain *ch, struct chain_bytes *eager,
			   struct chain_bytes *fused);

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

/* naive.cu's four chains at their benchmark shapes and a small one
 * (passes_chains.h, as the lab builds them). */
static void lab_chains(FILE *f)
{
	typedef unsigned long long u64;
	static const u64 gelu_n[] = { 64u << 20, 1, 33, 1000003 };
	static const u64 rc[][2] = { { 8192, 8192 }, { 5, 3 } };
	static const u64 add[][2] = { { 16384, 4096 }, { 3, 1 } };
	static const u64 sm[][2] = { { 16384, 4096 }, { 7, 31 } };
	struct chain ch;

	for (size_t s = 0; s < COUNT(gelu_n); s++) {
		chain_of(PASS_GELU, gelu_n[s], 0, &ch);
		chain(f, &ch);
	}
	for (size_t s = 0; s < 2; s++) {
		chain_of(PASS_BIAS_GELU, rc[s][0], rc[s][1], &ch);
		chain(f, &ch);
		chain_of(PASS_ADD_RMSNORM, add[s][0], add[s][1], &ch);
		chain(f, &ch);
		chain_of(PASS_SOFTMAX, sm[s][0], sm[s][1], &ch);
		chain(f, &ch);
	}
}

/* The lab's hand-made chains (passes_chains.h). */
static void hand_made(FILE *f)
{
	struct chain ch[PASSES_HAND_MADE];
	int n = chain_hand_made(ch);

	for (int i = 0; i < n; i++)
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
