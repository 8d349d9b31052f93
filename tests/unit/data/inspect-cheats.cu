/* SPDX-License-Identifier: MIT */
/*
 * A fixture for tests/unit/test_inspect.c: what the allowlist rejects,
 * once each, in one object (it is compiled and inspected, never linked or
 * run). Clocks, the environment, the loader, processes, threads, timers,
 * signals, files, sleeping, memory protection, system calls by function
 * and by instruction, code run at exit (atexit, a function-local static
 * object with a destructor), device-wide CUDA settings, a host callback,
 * a driver-entry-point lookup, the driver API, a call to the naive and a
 * weak reference to a peer, the grader's result channel, C++ threads,
 * clocks and file streams, a function pointer to getenv kept in data, and
 * constructors hidden by priority (.init_array.00100, init_priority).
 */
#include <chrono>
#include <cuda.h>
#include <dlfcn.h>
#include <fstream>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>
#include <wordexp.h>

#include "reduction.h"

extern "C" void wb_result(const char *key, const char *fmt, ...);
extern "C" void peer_reduce_sum(const float *in, size_t n, float *out,
				void *work) __attribute__((weak));

static int seen;

static char *(*volatile lookup)(const char *) = getenv;

static int count(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)info, (void)size, (void)data;
	return ++seen;
}

static void tick(union sigval v)
{
	(void)v;
	seen++;
}

static void at_end(void)
{
	if (lseek(1, 0, SEEK_SET) >= 0)
		dprintf(1, "verdict PASS\n");
}

static void CUDART_CB later(void *p)
{
	(void)p;
	seen++;
}

static void before_main(void)
{
	seen++;
}

__attribute__((section(".init_array.00100"), used))
static void (*const before_main_ptr)(void) = before_main;

struct early {
	early() { seen++; }
};

static early early_object __attribute__((init_priority(200)));

static long raw_write(long fd, const void *buf, long len)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(1L), "D"(fd), "S"(buf), "d"(len)
			 : "rcx", "r11", "memory");
	return ret;
}

void reduce_sum(const float *in, size_t n, float *out, void *work)
{
	static std::vector<int> kept(4);
	struct timespec t, nap = { 0, 1000 };
	struct sigevent ev = {};
	timer_t timer;
	wordexp_t w;
	void *fn;
	cudaDriverEntryPointQueryResult q;

	clock_gettime(CLOCK_MONOTONIC, &t);
	if (getenv("CUDA_INJECTION64_PATH") || lookup("HOME"))
		seen++;
	dl_iterate_phdr(count, NULL);
	if (wordexp("$(true)", &w, 0) == 0)
		wordfree(&w);
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = tick;
	timer_create(CLOCK_MONOTONIC, &ev, &timer);
	signal(SIGALRM, SIG_IGN);
	atexit(at_end);
	if (fork() == 0)
		setsid();
	nanosleep(&nap, NULL);
	mprotect(work, 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
	syscall(SYS_getpid);
	raw_write(1, "", 0);
	dlopen("libcuda.so.1", RTLD_NOW);
	CUDA_CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
	CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 1u << 26));
	CUDA_CHECK(cudaLaunchHostFunc(0, later, NULL));
	CUDA_CHECK(cudaGetDriverEntryPoint("cuLaunchKernel", &fn,
					   cudaEnableDefault, &q));
	cuInit(0);
	naive_reduce_sum(in, n, out, work);
	if (peer_reduce_sum)
		peer_reduce_sum(in, n, out, work);
	wb_result("verdict", "PASS");
	std::thread([] { seen++; }).join();
	std::ofstream("/tmp/x") << std::chrono::steady_clock::now()
					   .time_since_epoch()
					   .count();
	kept[0] = seen;
}
