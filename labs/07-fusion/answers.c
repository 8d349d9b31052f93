/* SPDX-License-Identifier: MIT */
/*
 * answers.c - lab 07's answer key: the rules its host exercise `passes`
 * is graded against. It computes exactly what the exercise asks a
 * student to write, so it is the instructor's copy only:
 *
 *   - lab.mk names it (ANSWERS) and links it into the lab where it is;
 *   - tools/handout.sh leaves every file a lab.mk names in ANSWERS out of
 *     the student handout, and tools/handout-check.sh fails a handout
 *     that holds this file, its code, or a definition of a function it
 *     defines;
 *   - without it (the handout), lab.c grades `passes` by the worked
 *     cases in passes_worked.h and by properties of the rules, not by
 *     the rules themselves (docs/grading.md, "Prediction exercises").
 *
 * lab.c defines passes_rule, a pointer to the rule, weak and NULL: the
 * definition at the end of this file replaces it with lab_chain_traffic().
 * With it, every answer is checked against the rule, and so are the
 * worked cases (tools/worked-cases.sh writes them from this file).
 * Weak data, not a weak reference: the grader takes a lab object's
 * weak references for the exercises' entry points (grader/inspect/inspect.sh),
 * which a submission may define.
 */
#include "fusion.h"

/*
 * The lab's rule, as fusion.h states it. Eager: every kernel moves every
 * buffer it lists, whole. Fused: one kernel that keeps intermediates in
 * registers or shared memory reads a buffer only if the chain's first use
 * of it is a read (its contents come from before the chain) and writes
 * only the results, once each.
 */
static void lab_chain_traffic(const struct chain *ch,
			      struct chain_bytes *eager,
			      struct chain_bytes *fused)
{
	int seen[CHAIN_MAX_BUFS] = { 0 };

	eager->read = eager->write = fused->read = fused->write = 0;
	for (int i = 0; i < ch->nkernels; i++) {
		const struct chain_kernel *k = &ch->k[i];

		for (int a = 0; a < k->nin; a++) {
			int b = k->in[a];

			eager->read += 4 * ch->floats[b];
			if (!seen[b])
				fused->read += 4 * ch->floats[b];
			seen[b] = 1;
		}
		for (int a = 0; a < k->nout; a++) {
			eager->write += 4 * ch->floats[k->out[a]];
			seen[k->out[a]] = 1;
		}
	}
	for (int b = 0; b < ch->nbufs; b++)
		if (ch->result[b])
			fused->write += 4 * ch->floats[b];
}

/* What lab.c calls: its weak, empty passes_rule is replaced by this one. */
void (*passes_rule)(const struct chain *ch, struct chain_bytes *eager,
		    struct chain_bytes *fused) = lab_chain_traffic;
