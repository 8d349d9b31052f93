/* SPDX-License-Identifier: MIT */
/*
 * ex_occupancy.c - lab 01's occupancy: its check (against the CUDA
 * runtime) and its hooks for the table in lab.c. A file per exercise keeps
 * lab.c the table alone.
 */
#include <stdio.h>

#include "harness.h"
#include "warps.h"
#include "occ_kernels.h"
#include "lab_hooks.h"

/* ---- occupancy ---- */

/* Block sizes are swept from 1 up to this, or the kernel's own limit. */
#define OCC_MAX_BLOCK 1024

enum { OC_BLOCKS };

static int dev_attr(enum cudaDeviceAttr a)
{
	int v, dev;

	CUDA_CHECK(cudaGetDevice(&dev));
	CUDA_CHECK(cudaDeviceGetAttribute(&v, a, dev));
	return v;
}

/*
 * The device as blocks_per_sm() gets it. The allocation units and the
 * sub-partition count cannot be queried: they are the architecture's
 * (the CUDA occupancy calculator's tables; the grader needs compute
 * capability 7.5 or later, where registers go in 256s per warp and the
 * register file is split between 4 schedulers; shared memory goes in 256
 * bytes before 8.0 and in 128 from 8.0 on).
 */
static void occ_device_now(struct occ_device *d)
{
	int major = dev_attr(cudaDevAttrComputeCapabilityMajor);

	d->warp_size = dev_attr(cudaDevAttrWarpSize);
	d->max_threads_per_sm =
		dev_attr(cudaDevAttrMaxThreadsPerMultiProcessor);
	d->max_blocks_per_sm = dev_attr(cudaDevAttrMaxBlocksPerMultiprocessor);
	d->regs_per_sm = dev_attr(cudaDevAttrMaxRegistersPerMultiprocessor);
	d->regs_per_block = dev_attr(cudaDevAttrMaxRegistersPerBlock);
	d->max_regs_per_thread = 255;
	d->reg_alloc_unit = 256;
	d->sub_partitions = 4;
	d->smem_per_sm =
		(size_t)dev_attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
	d->smem_per_block =
		(size_t)dev_attr(cudaDevAttrMaxSharedMemoryPerBlock);
	d->smem_reserved_per_block =
		(size_t)dev_attr(cudaDevAttrReservedSharedMemoryPerBlock);
	d->smem_alloc_unit = major >= 8 ? 128 : 256;
}

static int occ_id(const struct wb_ctx *c)
{
	return (int)c->size->n[0];
}

/* Block sizes 1..occ_sweep(p) are asked about. */
static int occ_sweep(const struct occ_probe *p)
{
	return p->max_threads < OCC_MAX_BLOCK ? p->max_threads : OCC_MAX_BLOCK;
}

int lab01_occupancy_setup(struct wb_ctx *c)
{
	struct occ_probe p;

	occ_probe_kernel(occ_id(c), &p);
	wb_output(c, "blocks", (size_t)occ_sweep(&p) * sizeof(int));
	return 0;
}

/* The student's answer for every block size, copied to the output. */
int lab01_occupancy_run(struct wb_ctx *c, enum wb_impl impl)
{
	int got[OCC_MAX_BLOCK], sweep;
	struct occ_kernel k;
	struct occ_device d;
	struct occ_probe p;

	if (impl != WB_STUDENT || !blocks_per_sm)
		return WB_MISSING;
	occ_probe_kernel(occ_id(c), &p);
	occ_device_now(&d);
	k.regs_per_thread = p.regs;
	k.static_smem = p.static_smem;
	k.dynamic_smem = c->size->n[1];
	sweep = occ_sweep(&p);
	for (int b = 1; b <= sweep; b++)
		got[b - 1] = blocks_per_sm(&k, b, &d);
	CUDA_CHECK(cudaMemcpy(wb_dev(c, OC_BLOCKS), got,
			      (size_t)sweep * sizeof(int),
			      cudaMemcpyHostToDevice));
	return 0;
}

/* The columns of the printed table: warp multiples, and sizes just off. */
static const int occ_columns[] = {
	1, 32, 33, 64, 96, 100, 128, 160, 192, 256, 320, 384, 512, 640, 768,
	1024,
};

#define OCC_NCOLUMNS (int)(sizeof(occ_columns) / sizeof(occ_columns[0]))

/* The student's row beside the runtime's, in the runner's output. */
static void occ_print_table(const struct wb_ctx *c, const struct occ_probe *p,
			    const int *got, const int *want, int sweep)
{
	printf("  %s: %d registers/thread, %zu + %zu bytes of shared memory "
	       "(static + dynamic); blocks per SM:\n", p->name, p->regs,
	       p->static_smem, (size_t)c->size->n[1]);
	printf("    %-8s", "threads");
	for (int i = 0; i < OCC_NCOLUMNS && occ_columns[i] <= sweep; i++)
		printf(" %5d", occ_columns[i]);
	printf("\n    %-8s", "yours");
	for (int i = 0; i < OCC_NCOLUMNS && occ_columns[i] <= sweep; i++) {
		int b = occ_columns[i] - 1;

		printf(" %4d%c", got[b], got[b] == want[b] ? ' ' : '*');
	}
	printf("\n    %-8s", "runtime");
	for (int i = 0; i < OCC_NCOLUMNS && occ_columns[i] <= sweep; i++)
		printf(" %5d", want[occ_columns[i] - 1]);
	printf("\n");
}

/*
 * For whoever maintains the lab: where the runtime and the toolkit's own
 * calculator (cuda_occupancy.h) disagree, say so. Not graded.
 */
static void occ_note_header(const struct wb_ctx *c, const int *want,
			    int sweep)
{
	int notes = 0;

	for (int b = 1; b <= sweep && notes < 3; b++) {
		int h = occ_header_blocks(occ_id(c), b, c->size->n[1]);

		if (h >= 0 && h != want[b - 1]) {
			printf("    note: cuda_occupancy.h says %d for %d "
			       "threads, the runtime %d\n", h, b, want[b - 1]);
			notes++;
		}
	}
}

void lab01_occupancy_check(struct wb_ctx *c)
{
	const int *got = c->buf[OC_BLOCKS].host;
	int want[OCC_MAX_BLOCK], sweep, bad = 0, shown = 0;
	size_t dyn = c->size->n[1];
	struct occ_probe p;

	occ_probe_kernel(occ_id(c), &p);
	sweep = occ_sweep(&p);
	for (int b = 1; b <= sweep; b++) {
		want[b - 1] = occ_runtime_blocks(occ_id(c), b, dyn);
		bad += got[b - 1] != want[b - 1];
	}
	occ_print_table(c, &p, got, want, sweep);
	occ_note_header(c, want, sweep);
	if (!bad)
		return;
	wb_fail(c, "%d of %d block sizes wrong (%s: %d registers/thread, "
		   "%zu bytes static + %zu dynamic shared memory)", bad, sweep,
		p.name, p.regs, p.static_smem, dyn);
	for (int b = 1; b <= sweep && shown < SHOW_MAX; b++) {
		if (got[b - 1] == want[b - 1])
			continue;
		wb_fail(c, "  %d threads (%d warps): you said %d blocks, the "
			   "runtime says %d", b, (b + 31) / 32, got[b - 1],
			want[b - 1]);
		shown++;
	}
}
