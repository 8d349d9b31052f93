/* SPDX-License-Identifier: MIT */
/*
 * A fixture for tests/unit/test_inspect.c: everything a submission may not
 * do, once each. A global object with a constructor, a constructor and a
 * destructor function, a definition of clock_gettime (a C library function
 * the grader's timer uses), a non-static host helper and variable, calls
 * into the grader (wb_result) and to fopen.
 */
#include <stdio.h>
#include <time.h>

#include "reduction.h"

struct noisy {
	noisy() { puts("before main"); }
};

noisy early_object;
float host_cache[4];

static void __attribute__((constructor)) early(void)
{
	puts("early");
}

static void __attribute__((destructor)) late(void)
{
	puts("late");
}

extern "C" int clock_gettime(clockid_t c, struct timespec *t) noexcept
{
	(void)c;
	t->tv_sec = 0;
	t->tv_nsec = 0;
	return 0;
}

extern "C" void wb_result(const char *key, const char *fmt, ...);

int helper(int x)
{
	return x + 1;
}

__global__ void kern(const float *in, float *out)
{
	out[0] = in[0];
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	FILE *f = fopen("/tmp/x", "w");

	(void)n, (void)work;
	host_cache[0] = (float)helper(1);
	kern<<<1, 1>>>(in, out);
	wb_result("verdict", "PASS");
	if (f)
		fclose(f);
}
