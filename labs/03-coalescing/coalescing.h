/* SPDX-License-Identifier: MIT */
/*
 * coalescing.h - the entry points of lab 03 (memory coalescing).
 *
 * Four memory-bound operations whose speed is decided by how the threads
 * of a warp walk memory (for particles, how the data is laid out), and a
 * prediction of what the profiler counts for such walks (sectors). Each
 * exercise file defines its host functions below (particles two: its
 * layout and its operation). The grader calls the operations with device
 * pointers (256-byte aligned, from cudaMalloc) and waits for the device
 * afterwards. Launch on the default stream and choose grid, block and
 * shared memory inside: everything launched counts in the time. Arrays
 * are row-major and contiguous: row r of a matrix with `cols` columns
 * starts at element r * cols, so a float row is 16-byte aligned only when
 * cols % 4 == 0.
 * Every array has fewer than 2^31 elements: no size the grader can check
 * reaches 2^31 elements on the GPUs students have; 32-bit element
 * indices are enough.
 */
#ifndef COALESCING_H
#define COALESCING_H

#include <stddef.h>
#include "workbook.h"

/*
 * The gray value of one RGB pixel, in exact integer arithmetic: weights
 * 77, 150 and 29 (0.301, 0.586 and 0.113 after dividing by 256, close to
 * the Rec. 601 luma weights 0.299, 0.587, 0.114), sum 256, so white stays
 * 255; + 128 rounds to nearest. The same macro serves the CPU reference
 * and the kernels: results must match bit for bit.
 */
#define GRAY_WR 77u
#define GRAY_WG 150u
#define GRAY_WB 29u
#define GRAY_OF(r, g, b)                                                  \
	((GRAY_WR * (unsigned int)(r) + GRAY_WG * (unsigned int)(g) +     \
	  GRAY_WB * (unsigned int)(b) + 128u) >> 8)

#ifdef __cplusplus
extern "C" {
#endif

/*
 * y = A x: A is m x n float32, row-major (row r at a + r * n), x has n
 * floats, y has m. m, n >= 1 and m * n < 2^31.
 *     y[r] = a[r][0] * x[0] + ... + a[r][n-1] * x[n-1]
 */
void matvec(const float *a, const float *x, float *y, size_t m, size_t n);

/*
 * The mean over dimension 0 of a [k][l][m] float32 tensor, into [l][m]:
 *     out[i][j] = (in[0][i][j] + in[1][i][j] + ... + in[k-1][i][j]) / k
 * in[p][i][j] is in[(p * l + i) * m + j]. k, l, m >= 1, k * l * m < 2^31.
 */
void mean_dim0(const float *in, float *out, size_t k, size_t l, size_t m);

/*
 * An interleaved 8-bit RGB image (height x width pixels, rows contiguous,
 * pixel p at bytes 3p, 3p + 1, 3p + 2 = R, G, B) to an 8-bit gray image
 * of height x width bytes:
 *     gray[p] = GRAY_OF(rgb[3p], rgb[3p + 1], rgb[3p + 2])
 * height, width >= 1, height * width < 2^31.
 */
void grayscale(const unsigned char *rgb, unsigned char *gray, size_t height,
	       size_t width);

/*
 * The particles exercise: n particles, each PART_FIELDS floats, in this
 * order: x, y, z (position), vx, vy, vz (velocity), m (mass), q (charge).
 */
#define PART_FIELDS 8
enum { PART_X, PART_Y, PART_Z, PART_VX, PART_VY, PART_VZ, PART_M, PART_Q };

/*
 * The layouts particles_layout() may choose; the grader packs the
 * particles in the one chosen (field f of particle i at):
 *   PARTICLES_AOS    p[i * PART_FIELDS + f]: one 32-byte record each;
 *   PARTICLES_SOA    p[f * n + i]: PART_FIELDS arrays of n floats;
 *   PARTICLES_AOSOA  p[(i / PARTICLES_TILE) * PARTICLES_TILE * PART_FIELDS
 *                      + f * PARTICLES_TILE + i % PARTICLES_TILE]: tiles of
 *                    PARTICLES_TILE particles, each tile a small SoA (one
 *                    128-byte run per field); the last tile is padded to
 *                    a whole one (its slots past n hold 0).
 */
#define PARTICLES_AOS 0
#define PARTICLES_SOA 1
#define PARTICLES_AOSOA 2
#define PARTICLES_TILE 32

/*
 * The layout the grader packs the particles in for particles_energy():
 * PARTICLES_AOS, PARTICLES_SOA or PARTICLES_AOSOA. Host code, called
 * before the inputs of every size are made; it must return the same
 * constant every time (no CUDA call, nothing else).
 */
int particles_layout(void);

/*
 * Each particle's kinetic energy, from the particles in the layout
 * particles_layout() returns:
 *     ke[i] = 0.5 * m * (vx * vx + vy * vy + vz * vz)
 * The other four fields are not needed. 1 <= n, n * PART_FIELDS < 2^31.
 */
void particles_energy(const float *p, size_t n, float *ke);

/*
 * One warp-wide global load, as the sectors exercise describes it (and
 * as Nsight Compute counts it: one request). Lane t, 0 <= t < lanes,
 * reads elem_bytes bytes at the byte address
 *     addr + t * stride * elem_bytes
 * elem_bytes is 1, 2, 4, 8 or 16; addr is a multiple of elem_bytes (a
 * load of N bytes at an address that is not a multiple of N faults);
 * stride, in elements, may be 0 (every lane the same address) or
 * negative (lanes walk down); no lane's address is below 0. lanes is 1
 * to 32: lanes lanes..31 are inactive (a partial warp, a guard).
 * Addresses count from a 256-byte aligned base, as cudaMalloc's.
 */
struct warp_load {
	long long addr;
	long long stride;
	int elem_bytes;
	int lanes;
};

/* Memory moves in sectors of this many aligned bytes (4 to a line). */
#define SECTOR_BYTES 32

/*
 * The sectors exercise: how many distinct 32-byte sectors one request of
 * w touches, the figure behind Nsight Compute's sectors per request.
 * Host code: no GPU, no CUDA call.
 */
int sectors_per_request(const struct warp_load *w);

/*
 * The inflight exercise (README, section 17): Little's law for a GPU's
 * memory. The GPU: its load latency, its bandwidth, its SMs; a kernel:
 * the threads resident per SM, the bytes of each load, and how many
 * independent loads each thread keeps in flight. Host code: no GPU, no
 * CUDA call.
 */
struct mem_system {
	double latency_ns;    /* a load's latency under load */
	double bw_gbps;       /* the memory's bandwidth, GB/s (10^9 bytes) */
	int sms;              /* multiprocessors, at least 1 */
	int threads_per_sm;   /* resident threads per SM, 1 to 2048 */
	int load_bytes;       /* bytes per load: 1, 2, 4, 8 or 16 */
	int loads_in_flight;  /* independent loads per thread, at least 1 */
};

struct inflight_pred {
	double need_bytes;    /* bytes in flight the bandwidth needs */
	double need_per_sm;   /* the same, per SM */
	int need_loads;       /* loads each resident thread must keep in
			       * flight for it: whole loads */
	double have_bytes;    /* bytes the kernel keeps in flight */
	double gbps;          /* the bandwidth that allows, GB/s */
};

void inflight(const struct mem_system *s, struct inflight_pred *p);

/* The naive references the grader times against (naive.cu). */
void naive_matvec(const float *a, const float *x, float *y, size_t m,
		  size_t n);
void naive_mean_dim0(const float *in, float *out, size_t k, size_t l,
		     size_t m);
void naive_grayscale(const unsigned char *rgb, unsigned char *gray,
		     size_t height, size_t width);
/* The naive reads the particles in AoS, whatever the student chose. */
void naive_particles_energy(const float *aos, size_t n, float *ke);

/* The library peer for make bench (peers.cu): cublasSgemv. */
void peer_matvec(const float *a, const float *x, float *y, size_t m,
		 size_t n);

#ifdef __cplusplus
}
#endif

#endif /* COALESCING_H */
