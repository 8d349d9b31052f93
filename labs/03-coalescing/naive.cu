/* SPDX-License-Identifier: MIT */
/*
 * naive.cu - the naive references the grader times the submissions against.
 *
 * Each is the first kernel one writes by giving every thread one output
 * and the loop a CPU would run for it. The arithmetic is right and cheap;
 * what differs from the solutions is how the 32 threads of a warp walk
 * memory at each load:
 *
 *   matvec     a thread per row: the 32 lanes read 32 rows, n floats
 *              apart: 32 sectors per load of A, 4 useful bytes in each
 *              (the load of x[j] is one address for all: 1 sector).
 *   mean_dim0  a thread per index i of dimension 1, looping over j and p:
 *              the lanes read m floats apart (32 sectors per request), and
 *              only l threads exist (1024 at the benchmark size).
 *   grayscale  a thread per pixel, three byte loads and one byte store:
 *              coalesced, but each warp-wide request moves 32 bytes, so
 *              the memory system sees many small requests.
 *   particles  a thread per particle, four float loads (vx, vy, vz, m),
 *              always in AoS: the lanes read 32 bytes apart (32 sectors
 *              per request, the next three loads hitting them in L1), and
 *              every byte of every record crosses the chip.
 */
#include "coalescing.h"

#define NAIVE_THREADS 256      /* matvec and grayscale */
#define NAIVE_MEAN_THREADS 128 /* mean_dim0: 8 blocks at l = 1024 */

/* ---- matvec: one thread per row ---- */

static __global__ void naive_matvec_kernel(const float *a, const float *x,
					   float *y, size_t m, size_t n)
{
	size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	const float *row = a + r * n;
	float sum = 0.0f;

	if (r >= m)
		return;
	for (size_t j = 0; j < n; j++)
		sum += row[j] * x[j];
	y[r] = sum;
}

void naive_matvec(const float *a, const float *x, float *y, size_t m,
		  size_t n)
{
	naive_matvec_kernel<<<wb_ceil_div(m, NAIVE_THREADS), NAIVE_THREADS>>>(
		a, x, y, m, n);
	CUDA_CHECK_LAUNCH();
}

/* ---- mean_dim0: one thread per index of dimension 1 ---- */

/*
 * Thread i owns row i of the output and computes it element by element,
 * each as a loop over dimension 0: the plain translation of the three
 * nested loops of the CPU code, with the outer one made parallel.
 */
static __global__ void naive_mean_kernel(const float *in, float *out,
					 size_t k, size_t l, size_t m)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= l)
		return;
	for (size_t j = 0; j < m; j++) {
		float sum = 0.0f;

		for (size_t p = 0; p < k; p++)
			sum += in[(p * l + i) * m + j];
		out[i * m + j] = sum / (float)k;
	}
}

void naive_mean_dim0(const float *in, float *out, size_t k, size_t l,
		     size_t m)
{
	naive_mean_kernel<<<wb_ceil_div(l, NAIVE_MEAN_THREADS),
			    NAIVE_MEAN_THREADS>>>(in, out, k, l, m);
	CUDA_CHECK_LAUNCH();
}

/* ---- grayscale: one thread per pixel, byte loads ---- */

static __global__ void naive_gray_kernel(const unsigned char *rgb,
					 unsigned char *gray, size_t n)
{
	size_t p = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (p >= n)
		return;
	gray[p] = (unsigned char)GRAY_OF(rgb[3 * p], rgb[3 * p + 1],
					 rgb[3 * p + 2]);
}

void naive_grayscale(const unsigned char *rgb, unsigned char *gray,
		     size_t height, size_t width)
{
	size_t n = height * width;

	naive_gray_kernel<<<wb_ceil_div(n, NAIVE_THREADS), NAIVE_THREADS>>>(
		rgb, gray, n);
	CUDA_CHECK_LAUNCH();
}

/* ---- particles: one thread per particle, a float load per field, AoS ---- */

static __global__ void naive_energy_kernel(const float *aos, size_t n,
					   float *ke)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	const float *q = aos + i * PART_FIELDS;
	float vx, vy, vz, m;

	if (i >= n)
		return;
	vx = q[PART_VX];
	vy = q[PART_VY];
	vz = q[PART_VZ];
	m = q[PART_M];
	ke[i] = 0.5f * m * (vx * vx + vy * vy + vz * vz);
}

void naive_particles_energy(const float *aos, size_t n, float *ke)
{
	naive_energy_kernel<<<wb_ceil_div(n, NAIVE_THREADS), NAIVE_THREADS>>>(
		aos, n, ke);
	CUDA_CHECK_LAUNCH();
}
