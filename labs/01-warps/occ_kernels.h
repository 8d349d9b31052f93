/* SPDX-License-Identifier: MIT */
/*
 * occ_kernels.h - the real kernels the occupancy exercise is graded on
 * (occ_kernels.cu), and what the CUDA runtime says about them. The lab's
 * own code: lab.c asks, blocks_per_sm() never sees any of it.
 */
#ifndef OCC_KERNELS_H
#define OCC_KERNELS_H

#include <stddef.h>

/* The kernels, by footprint. Their register counts are the compiler's
 * (read at run time); the comments give what nvcc 13 chose for sm_90. */
enum occ_kernel_id {
	OCC_TINY,       /* ~10 registers, no shared memory */
	OCC_ACC24,      /* 24 live accumulators: ~36 registers */
	OCC_ACC32,      /* 32 accumulators: ~42 registers */
	OCC_BOUND1024,  /* __launch_bounds__(1024, 1): 64 registers, spills */
	OCC_BOUND640,   /* __launch_bounds__(640, 1): 96 registers, spills */
	OCC_BOUND256,   /* __launch_bounds__(256, 1): 255 registers, spills */
	OCC_STATIC9K,   /* 9232 bytes of static shared memory */
	OCC_DYNAMIC,    /* dynamic shared memory only */
	OCC_MIXED,      /* 2000 bytes static + dynamic, ~48 registers */
	OCC_KERNELS
};

/* A kernel's footprint, as cudaFuncGetAttributes reports it. */
struct occ_probe {
	const char *name;  /* the kernel's name, for reports */
	int regs;          /* numRegs */
	size_t static_smem; /* sharedSizeBytes */
	int max_threads;   /* maxThreadsPerBlock: larger blocks cannot launch */
};

#ifdef __cplusplus
extern "C" {
#endif

/* Read kernel id's attributes into p. */
void occ_probe_kernel(int id, struct occ_probe *p);

/* cudaOccupancyMaxActiveBlocksPerMultiprocessor for kernel id. */
int occ_runtime_blocks(int id, int block_threads, size_t dynamic_smem);

/*
 * The same question answered by cuda_occupancy.h, the calculator the
 * toolkit ships as a header. Only for the report: when it and the runtime
 * disagree, the grader says so (the runtime is what is graded against).
 * Returns -1 if the header cannot answer for this GPU.
 */
int occ_header_blocks(int id, int block_threads, size_t dynamic_smem);

#ifdef __cplusplus
}
#endif

#endif /* OCC_KERNELS_H */
