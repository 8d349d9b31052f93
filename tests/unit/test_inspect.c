/* SPDX-License-Identifier: MIT */
/*
 * test_inspect.c - grader/inspect/inspect.c: the symbol checks (the kind of a
 * student's entry points and indirect functions, the allowlist of what it
 * may call, its static constructors, system calls made by instruction), the audit line, and the
 * technique rules (parsing `info --rules`, matching patterns in PTX and
 * symbols).
 *
 * tests/unit/data/inspect-{clean,bad,honest,cccl,cheats}.* were recorded
 * with CUDA 13.0, GCC 12 and binutils 2.40 from the .cu files next to
 * them (inspect-cccl's PTX, 1.1 MB, is left out: without it only the
 * checks that need it are skipped):
 *
 *   nvcc -O3 -lineinfo -DNVTX_DISABLE -gencode arch=compute_75,code=sm_75 \
 *        -gencode arch=compute_75,code=compute_75 -std=c++17 \
 *        -Ibuild/sm75/include/05-reduction -c inspect-clean.cu \
 *        -o inspect-clean.o
 *   NVCC=nvcc sh grader/inspect/inspect.sh inspect-clean inspect-clean.cu \
 *        "-O3 -lineinfo -arch=compute_75 -std=c++17 -DNVTX_DISABLE \
 *        -Ibuild/sm75/include/05-reduction" \
 *        build/sm75/lab/05-reduction/lab.c.o \
 *        build/sm75/lab/05-reduction/naive.cu.o
 *
 * (-DNVTX_DISABLE, as every submission is compiled: grader/build.sh. The
 * .labsyms files are from the lab's objects as they were in CUDA 13.0's
 * first recording, when the naive's kernels were not static.)
 */
#include "unit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "inspect.h"
#include "proc.h"

static char *data(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/unit/data/%s", name);
	return read_file(path, 1 << 22);
}

static char *data_ext(const char *base, const char *ext)
{
	char name[128];

	snprintf(name, sizeof(name), "%s.%s", base, ext);
	return data(name);
}

/* A recorded object's files; its PTX only where one was kept. */
static void load(struct g_objinfo *oi, const char *base)
{
	memset(oi, 0, sizeof(*oi));
	oi->syms = data_ext(base, "syms");
	oi->ctors = data_ext(base, "ctors");
	oi->calls = data_ext(base, "calls");
	oi->entries = data_ext(base, "entries");
	oi->labsyms = data_ext(base, "labsyms");
	oi->hostsys = data_ext(base, "hostsys");
	oi->ptx = data_ext(base, "ptx");
	assert_non_null(oi->syms);
	assert_non_null(oi->ctors);
	assert_non_null(oi->calls);
	assert_non_null(oi->entries);
	assert_non_null(oi->labsyms);
	assert_non_null(oi->hostsys);
}

/* Every detail of r joined, for assert_contains. */
static const char *joined(const struct g_result *r)
{
	static char all[G_MAX_DETAILS * G_DETAIL_LEN];
	size_t used = 0;

	all[0] = '\0';
	for (int i = 0; i < r->ndetails; i++)
		used += snprintf(all + used, sizeof(all) - used, "%s\n",
				 r->details[i]);
	return all;
}

/*
 * The line of a recorded symbol table that refers to name (or, with a
 * trailing '*', to the first name it begins), as a string of its own.
 */
static char *sym_line(const char *syms, const char *name)
{
	size_t n = strlen(name);
	int prefix = n && name[n - 1] == '*';

	for (const char *l = syms; l && *l;) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		const char *tab = memchr(l, '\t', len);

		if (len > 2 && tab && strchr("Uwv", l[0]) && l[1] == ' ' &&
		    (prefix ? !strncmp(l + 2, name, n - 1) :
			      (size_t)(tab - l - 2) == n && !strncmp(l + 2, name, n))) {
			char *line = malloc(len + 2);

			snprintf(line, len + 2, "%.*s\n", (int)len, l);
			return line;
		}
		l = end ? end + 1 : NULL;
	}
	fail_msg("no reference to %s recorded", name);
	return NULL;
}

/* ---- symbols: recorded objects ---- */

static void clean_object_runs(void **state)
{
	struct g_objinfo oi;
	struct g_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	load(&oi, "inspect-clean");
	/* cub.cuh's iostream initialiser (NVTX compiled out), nvcc's
	 * atexit, a non-static kernel, device and host-device functions. */
	assert_int_equal(g_check_symbols(&oi, &r), 0);
	assert_int_equal(r.ndetails, 0);
	assert_int_equal(r.verdict, WB_V_PASS);
	g_objinfo_free(&oi);
}

static void honest_launchers_run(void **state)
{
	static const char *const objects[] = { "inspect-honest", "inspect-cccl" };

	(void)state;
	/* std::vector, std::sort, printf, streams, events, graphs (captured
	 * and explicit), a cooperative launch, cudaLaunchKernelEx,
	 * cudaFuncSetAttribute, cudaMalloc(Async), device printf, assert
	 * and inline PTX; CUB's and Thrust's device-wide algorithms. */
	for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
		struct g_objinfo oi;
		struct g_result r;

		memset(&r, 0, sizeof(r));
		load(&oi, objects[i]);
		if (g_check_symbols(&oi, &r))
			fail_msg("%s: %s", objects[i], joined(&r));
		assert_int_equal(r.ndetails, 0);
		g_objinfo_free(&oi);
	}
}

static void bad_object_is_rejected_with_reasons(void **state)
{
	struct g_objinfo oi;
	struct g_result r;
	const char *all;

	(void)state;
	memset(&r, 0, sizeof(r));
	load(&oi, "inspect-bad");
	assert_int_equal(g_check_symbols(&oi, &r), -1);
	assert_int_equal(r.verdict, WB_V_REJECTED);
	all = joined(&r);
	assert_contains(all, "the file was not run");
	/* Six reasons. Its definitions (clock_gettime, a non-static helper
	 * and variable) are not among them: the build seals them. */
	assert_null(strstr(all, "it defines"));
	assert_contains(all, "it calls fopen, which is not on the list: it opens");
	assert_contains(all, "it calls wb_result, which is the grader's own");
	assert_contains(all, "it calls fclose, which is not on the list of what "
			     "a submission may call");
	assert_contains(all, "static constructor (early())");
	assert_contains(all, "static destructor (late())");
	assert_contains(all, "static constructor (_GLOBAL__sub_I_");
	assert_int_equal(r.ndetails, 7);
	g_objinfo_free(&oi);
}

static void cheats_object_is_rejected(void **state)
{
	struct g_objinfo oi;
	struct g_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	load(&oi, "inspect-cheats");
	assert_int_equal(g_check_symbols(&oi, &r), -1);
	assert_int_equal(r.verdict, WB_V_REJECTED);
	assert_int_equal(r.ndetails, 8);
	assert_contains(joined(&r), "more)");
	g_objinfo_free(&oi);
}

/* One reason at a time: the bad object with all but one problem removed. */
static int rejected_for(const char *syms, const char *ctors, const char *ptx,
			const char *calls, struct g_result *r)
{
	struct g_objinfo oi = {
		.syms = (char *)syms, .ctors = (char *)ctors,
		.entries = (char *)"reduce_sum\nreduce_argmax\n",
		.ptx = (char *)ptx, .calls = (char *)calls,
	};

	memset(r, 0, sizeof(*r));
	return g_check_symbols(&oi, r);
}

static const char plain_ptx[] =
	".visible .entry _Z4kernPKfPf(\n"
	"\t.param .u64 _Z4kernPKfPf_param_0\n"
	")\n"
	".visible .func  (.param .b32 func_retval0) _Z6squaref(\n"
	".entry reduce_kernel(\n";

static void entry_points_kernels_and_device_functions(void **state)
{
	struct g_result r;

	(void)state;
	assert_int_equal(rejected_for(
		"T reduce_sum\treduce_sum\n"
		"T _Z4kernPKfPf\tkern(float const*, float*)\n"
		"T _Z26__device_stub__Z4kernPKfPfPKfPf\tstub\n"
		"T _Z6squaref\tsquare(float)\n"
		"T reduce_kernel\treduce_kernel\n" /* an extern "C" kernel */
		"W _ZN4pair5twiceEv\tpair::twice()\n"
		"u _ZN4cuda3std3__45__cpo5beginE\tcuda::std::begin\n"
		"V DW.ref.__gxx_personality_v0\tDW.ref\n"
		"W nvtxMarkA_impl_init_v3\tnvtxMarkA_impl_init_v3\n"
		"t _ZL6helperv\thelper()\n"
		"b _ZL5cache\tcache\n"
		"U cudaMemsetAsync\tcudaMemsetAsync\n"
		"U wb_cuda_fatal\twb_cuda_fatal\n"
		"U wb_todo\twb_todo\n"
		"U __printf_chk\t__printf_chk\n",
		"", plain_ptx, "", &r), 0);
	assert_int_equal(r.ndetails, 0);
}

/*
 * What a file defines, but for its entry points, is sealed by the build
 * (grader/build.sh renames it), so no definition is judged by its name or
 * kind: a library function's name, a data symbol, a non-static helper,
 * operator new, the lab's own names. Only an entry point's kind and
 * indirect functions are.
 */
static void definitions_are_sealed_not_judged(void **state)
{
	static const char *const defs[] = {
		"T clock_gettime\tclock_gettime\n",
		"W clock_gettime\tclock_gettime\n",
		"T malloc\tmalloc\n",
		"B stdout_copy\tstdout_copy\n",
		"T _Znwm\toperator new(unsigned long)\n",
		"T _Z6helperi\thelper(int)\n",
		"T peer_reduce_sum\tpeer_reduce_sum\n",
		"u _ZZ1fvE1x\tf()::x\n",
		"C common_int\tcommon_int\n",
		"T clock_gettime@@GLIBC_2.17\tclock_gettime@@GLIBC_2.17\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++) {
		struct g_result r;
		char syms[256];

		snprintf(syms, sizeof(syms), "T reduce_sum\treduce_sum\n%s", defs[i]);
		if (rejected_for(syms, "", plain_ptx, "", &r))
			fail_msg("%s: %s", defs[i], joined(&r));
	}
}

/* An entry point must be a plain function; no symbol an ifunc. */
static void entry_kinds_and_ifuncs(void **state)
{
	static const struct {
		const char *syms, *why;
	} cases[] = {
		{ "W reduce_sum\treduce_sum\n", "entry point reduce_sum as a weak symbol" },
		{ "i reduce_sum\treduce_sum\n", "entry point reduce_sum as an indirect function" },
		{ "D reduce_sum\treduce_sum\n", "entry point reduce_sum as data" },
		{ "u reduce_sum\treduce_sum\n", "as a unique global symbol" },
		{ "T reduce_sum\treduce_sum\ni memcpy\tmemcpy\n",
		  "it defines memcpy as an indirect function (ifunc)" },
		{ "T reduce_sum\treduce_sum\ni _ZL4pickv\tpick()\n",
		  "whose resolver the loader runs before" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct g_result r;

		assert_int_equal(rejected_for(cases[i].syms, "", plain_ptx, "", &r), -1);
		assert_contains(joined(&r), cases[i].why);
	}
}

/* ---- the allowlist ---- */

/* A reference alone, with the recorded calls of the object it came from. */
static int ref_rejected(const char *line, const char *calls,
			const char *labsyms, struct g_result *r)
{
	struct g_objinfo oi = {
		.syms = (char *)line, .ctors = (char *)"",
		.entries = (char *)"reduce_sum\nreduce_argmax\n",
		.ptx = (char *)plain_ptx, .calls = (char *)calls,
		.labsyms = (char *)labsyms, .hostsys = (char *)"",
	};

	memset(r, 0, sizeof(*r));
	return g_check_symbols(&oi, r);
}

static void allowed_families_pass(void **state)
{
	/* Names as nm shows them, from the recorded objects and from other
	 * compilers' spellings (fortified, C23, fast-math, libgcc). */
	static const char *const names[] = {
		"U cudaMallocAsync", "U cudaLaunchKernelExC",
		"U cudaLaunchCooperativeKernel", "U cudaGraphLaunch",
		"U cudaStreamBeginCapture", "U cudaFuncSetAttribute",
		"U cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
		"U cudaSetDevice", "U cudaLaunchKernel_ptsz",
		"U cudaMemcpy_ptds",
		"U __cudaLaunchKernel", "U __cudaRegisterFatBinary",
		"U wb_cuda_fatal", "U wb_todo", "U wb_tensor_map_encode_tiled",
		"U memcpy", "U __memcpy_chk", "U strlen", "U strerror",
		"U snprintf", "U __isoc99_sscanf", "U __isoc23_strtol",
		"U printf", "U __printf_chk", "U puts", "U putchar",
		"U fprintf", "U __fprintf_chk", "U fwrite", "U fflush",
		"U stdout", "U stderr", "U malloc", "U free", "U aligned_alloc",
		"U posix_memalign", "U qsort", "U abort", "U exit",
		"U __ctype_b_loc", "U tolower", "U sqrtf", "U tanh", "U expl",
		"U __expf_finite", "U __popcountdi2", "U __udivti3",
		"U __stack_chk_fail", "U __assert_fail", "U __errno_location",
		"U __gxx_personality_v0", "U _Unwind_Resume",
		"U __cxa_begin_catch", "U __cxa_guard_acquire",
		"U __cxa_pure_virtual", "U __cxa_throw", "U __dso_handle",
		"U _GLOBAL_OFFSET_TABLE_", "U __libc_single_threaded",
		"U _Znwm", "U _ZdlPvm", "U _ZnamSt11align_val_t",
		"U _ZSt20__throw_length_errorPKc", "U _ZSt9terminatev",
		"U _ZNSt8ios_base4InitC1Ev", "U _ZNSt13runtime_errorC1EPKc",
		/* <iostream> from GCC 13 on (CUB includes it): seen on the
		 * H100's toolchain, where it rejected an honest CUB sum */
		"U _ZSt21ios_base_library_initv",
		"U _ZSt21__glibcxx_assert_failPKciS0_S0_",
		"U _ZTISt9exception", "U _ZTIPKc",
		"U _ZTVN10__cxxabiv117__class_type_infoE",
		"U _ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE9_M_createERmm",
		"U _ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base",
		"U _ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm",
		"U _ZSt11_Hash_bytesPKvmm", "U _ZSt4cout", "U _ZNSo5flushEv",
		"U _ZStlsISt11char_traitsIcEERSt13basic_ostreamIcT_ES5_PKc",
		/* libstdc++ asking whether threads are linked in */
		"w __pthread_key_create",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct g_result r;
		char line[256];

		snprintf(line, sizeof(line), "%s\t%s\n", names[i], names[i] + 2);
		if (ref_rejected(line, "", "", &r))
			fail_msg("%s: %s", names[i], joined(&r));
	}
}

static void rejected_families_say_why(void **state)
{
	/* Each recorded in inspect-cheats, with its reason. */
	static const struct {
		const char *name, *why;
	} cases[] = {
		{ "clock_gettime", "it reads a clock: the grader times your code" },
		{ "getenv", "it reads the environment, which tells a grading run "
			    "from a sanitizer run" },
		{ "dl_iterate_phdr", "it finds code by name at run time" },
		{ "dlopen", "it finds code by name at run time" },
		{ "wordexp", "it starts or controls processes" },
		{ "fork", "it starts or controls processes" },
		{ "setsid", "it starts or controls processes" },
		{ "timer_create", "it runs code outside your call" },
		{ "signal", "it runs code outside your call" },
		{ "_ZNSt6thread15_M_start_thread*", "it runs code outside your call" },
		{ "lseek", "it opens, reads or writes files" },
		{ "dprintf", "it opens, reads or writes files" },
		{ "_ZNSt13basic_filebufIcSt11char_traitsIcEE4open*",
		  "it opens, reads or writes files" },
		{ "nanosleep", "it sleeps: the grader times your code" },
		{ "_ZNSt6chrono3_V212steady_clock3nowEv", "it reads a clock" },
		{ "mprotect", "how code is patched at run time" },
		{ "syscall", "it makes system calls itself" },
		{ "cudaDeviceSetCacheConfig", "it changes the device for the "
					      "whole process: it would outlive "
					      "your call and could slow the "
					      "naive reference" },
		{ "cudaDeviceSetLimit", "it changes the device for the whole" },
		{ "cudaLaunchHostFunc", "it runs your host code later" },
		{ "cudaGetDriverEntryPoint", "it looks up code by name" },
		{ "cuInit", "it is the CUDA driver API" },
		{ "naive_reduce_sum", "is the lab's own (the naive reference or a "
				      "library peer): calling it is not your code" },
		{ "peer_reduce_sum", "is the lab's own" }, /* a weak reference */
		{ "wb_result", "is the grader's own" },
		{ "wordfree", "is not on the list of what a submission may call" },
	};
	char *syms = data("inspect-cheats.syms");
	char *calls = data("inspect-cheats.calls");
	char *labsyms = data("inspect-cheats.labsyms");

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct g_result r;
		char *line = sym_line(syms, cases[i].name);

		if (ref_rejected(line, calls, labsyms, &r) != -1)
			fail_msg("%s was not rejected", cases[i].name);
		assert_contains(joined(&r), "  it calls ");
		assert_contains(joined(&r), cases[i].why);
		free(line);
	}
	free(syms);
	free(calls);
	free(labsyms);
}

static void more_rejected_families(void **state)
{
	static const struct {
		const char *line, *why;
	} cases[] = {
		{ "U cublasSgemm_v2", "it is a CUDA library" },
		{ "U nvrtcCompileProgram", "it is a CUDA library" },
		{ "U cudaIpcGetMemHandle", "other processes or graphics APIs" },
		{ "U cudaGraphicsMapResources", "other processes or graphics" },
		{ "U cudaProfilerStart", "it switches the profiler" },
		{ "U cudaGetKernel", "it looks up code by name" },
		{ "U cudaLibraryLoadData", "it looks up code by name" },
		{ "U cudaGetFuncBySymbol", "it looks up code by name" },
		{ "U cudaCtxResetPersistingL2Cache", "the whole process" },
		{ "U cudaDeviceReset", "the whole process" },
		{ "U cudaSetDeviceFlags", "the whole process" },
		{ "U cudaStreamAddCallback", "it runs your host code later" },
		/* the per-thread default stream's names: the same calls */
		{ "U cudaLaunchHostFunc_ptsz", "it runs your host code later" },
		{ "U cudaStreamAddCallback_ptsz", "it runs your host code" },
		{ "U cudaGraphAddHostNode", "it runs your host code later" },
		{ "U cudaGraphDebugDotPrint", "it opens, reads or writes files" },
		{ "U time", "it reads a clock" },
		{ "U gettimeofday", "it reads a clock" },
		{ "U secure_getenv", "it reads the environment" },
		{ "U __environ", "it reads the environment" },
		{ "U dlsym", "it finds code by name at run time" },
		{ "U _r_debug", "it finds code by name at run time" },
		{ "U _DYNAMIC", "it finds code by name at run time" },
		{ "U system", "it starts or controls processes" },
		{ "U popen", "it starts or controls processes" },
		{ "U posix_spawnp", "it starts or controls processes" },
		{ "U setpgid", "it starts or controls processes" },
		{ "U pthread_create", "it runs code outside your call" },
		{ "U sigaction", "it runs code outside your call" },
		{ "U open", "it opens, reads or writes files" },
		{ "U __open_2", "it opens, reads or writes files" },
		{ "U fopen", "it opens, reads or writes files" },
		{ "U write", "it opens, reads or writes files" },
		{ "U sleep", "it sleeps" },
		{ "U usleep", "it sleeps" },
		{ "U mmap", "how code is patched at run time" },
		{ "U fread", "is not on the list of what a submission may call" },
		{ "U _ZNSt13random_device7_M_initERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
		  "is not on the list of what a submission may call" },
		{ "w pthread_create", "it runs code outside your call" },
		/* a weak reference to data (nm's v) */
		{ "v __environ", "it reads the environment" },
		{ "v _r_debug", "it finds code by name at run time" },
		/* unlisted, though they end in f or l as math functions do */
		{ "U __isoc99_scanf", "is not on the list" },
		{ "U setvbuf", "is not on the list" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct g_result r;
		char line[256];

		snprintf(line, sizeof(line), "%s\t%s\n", cases[i].line,
			 cases[i].line + 2);
		if (ref_rejected(line, "", "", &r) != -1)
			fail_msg("%s was not rejected", cases[i].line);
		assert_contains(joined(&r), cases[i].why);
	}
}

static void the_labs_own_symbols(void **state)
{
	static const char kernel[] =
		"U _Z16naive_sum_kernelPKfmPf\tnaive_sum_kernel(float const*, "
		"unsigned long, float*)\n";
	char *labsyms = data("inspect-cheats.labsyms");
	struct g_result r;

	(void)state;
	/* The naive's kernel, declared to set an attribute on it: the lab's
	 * objects define it (.labsyms). */
	assert_int_equal(ref_rejected(kernel, "", labsyms, &r), -1);
	assert_contains(joined(&r), "it calls naive_sum_kernel(float const*, "
				    "unsigned long, float*), which is the lab's own");
	/* Without the lab's list it is still not on the allowlist. */
	assert_int_equal(ref_rejected(kernel, "", NULL, &r), -1);
	assert_contains(joined(&r), "is not on the list");
	/* naive_ and peer_ are the lab's whether or not it is linked. */
	assert_int_equal(ref_rejected("U peer_matmul\tpeer_matmul\n", "", "", &r), -1);
	assert_contains(joined(&r), "is the lab's own");
	/* Defining one replaces nothing: the build seals it. */
	assert_int_equal(rejected_for("T reduce_sum\treduce_sum\n"
				      "T peer_reduce_sum\tpeer_reduce_sum\n",
				      "", plain_ptx, "", &r), 0);
	free(labsyms);
}

/*
 * No name earns an exemption: a function named like NVTX's weak hooks
 * (which CUB's headers brought before submissions were compiled with
 * NVTX_DISABLE) is judged like the file's own code.
 */
static void no_exemption_by_name(void **state)
{
	static const char syms[] =
		"W nvtxMarkA_impl_init_v3\tnvtxMarkA_impl_init_v3\n"
		"U dlopen\tdlopen\n";
	struct g_result r;

	(void)state;
	assert_int_equal(rejected_for(syms, "", plain_ptx,
				      "dlopen nvtxMarkA_impl_init_v3\n", &r), -1);
	assert_contains(joined(&r), "it calls dlopen");
	assert_int_equal(rejected_for("U __cxa_atexit\t__cxa_atexit\nU getenv\tgetenv\n",
				      "", plain_ptx,
				      "getenv _ZN6thrust6detail1fEv\n", &r), -1);
	assert_contains(joined(&r), "it calls getenv");
}

static void data_references_are_judged_too(void **state)
{
	struct g_result r;

	(void)state;
	/* A pointer to getenv kept in data (inspect-cheats): the reference
	 * is judged like a call. */
	assert_int_equal(rejected_for("T reduce_sum\treduce_sum\nU getenv\tgetenv\n",
				      "", plain_ptx, "getenv .data\n", &r), -1);
	assert_contains(joined(&r), "it calls getenv, which is not on the list: "
				    "it reads the environment");
}

/*
 * Exit handlers never run (the runner leaves with _exit), so a reference
 * to one is allowed wherever it is made; a constructor is still judged.
 */
static void exit_handlers_are_allowed(void **state)
{
	static const char *const refs[] = {
		"U __cxa_atexit\t__cxa_atexit\n", "U atexit\tatexit\n",
		"U at_quick_exit\tat_quick_exit\n", "U on_exit\ton_exit\n",
	};
	static const char ioinit_code[] =
		".init_array _GLOBAL__sub_I_x .text _ZNSt8ios_base4InitC1Ev\tsub_I_x\n";
	struct g_result r;

	(void)state;
	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++)
		assert_int_equal(rejected_for(refs[i], "", plain_ptx,
					      "__cxa_atexit reduce_sum\n", &r), 0);
	/* A thread's exit handlers are still rejected. */
	assert_int_equal(rejected_for("U __cxa_thread_atexit_impl\t__cxa_thread_atexit_impl\n",
				      "", plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "when a thread ends");
	/* An initialiser named like <iostream>'s that reaches the file's own
	 * code (.text) is the file's constructor. */
	assert_int_equal(rejected_for("T reduce_sum\treduce_sum\n", ioinit_code,
				      plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "static constructor");
}

static void calls_into_the_grader_or_the_system(void **state)
{
	static const char *const calls[] = {
		"U wb_result\twb_result\n", "U wb_todo_hit\twb_todo_hit\n",
		"U fopen\tfopen\n", "U __open_2\t__open_2\n",
		"U write\twrite\n", "U fork\tfork\n", "U system\tsystem\n",
		"U pthread_create\tpthread_create\n", "U mprotect\tmprotect\n",
		"U _ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE\tstd::thread::_M_start_thread\n",
		"U _ZNSt14basic_ofstreamIcSt11char_traitsIcEEC1EPKcSt13_Ios_Openmode\tstd::ofstream\n",
		"U dlopen\tdlopen\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct g_result r;

		assert_int_equal(rejected_for(calls[i], "", plain_ptx, "", &r), -1);
		assert_contains(joined(&r), "it calls ");
	}
}

static void no_entry_point_is_left_to_the_runner(void **state)
{
	struct g_result r;

	(void)state;
	/* Renamed: the runner reports the missing entry point instead. */
	assert_int_equal(rejected_for("T my_sum\tmy_sum\n", "", plain_ptx, "",
				      &r), 0);
	/* Calls and constructors are still judged. */
	assert_int_equal(rejected_for("T my_sum\tmy_sum\nU wb_result\twb_result\n",
				      "", plain_ptx, "", &r), -1);
	/* With the entry point there, an extra definition is sealed. */
	assert_int_equal(rejected_for("T reduce_sum\treduce_sum\nT my_sum\tmy_sum\n",
				      "", plain_ptx, "", &r), 0);
}

static void constructors(void **state)
{
	static const char nvcc[] =
		".init_array _ZL24__sti____cudaRegisterAllv .bss atexit\t__sti\n";
	static const char ioinit[] =
		".init_array _GLOBAL__sub_I_x .bss _ZNSt8ios_base4InitC1Ev "
		"_ZNSt8ios_base4InitD1Ev __dso_handle __cxa_atexit\tsub_I_x\n";
	static const char object[] =
		".init_array _GLOBAL__sub_I_x .bss _ZNSt8ios_base4InitC1Ev "
		"_ZNSt8ios_base4InitD1Ev __dso_handle __cxa_atexit puts\tsub_I_x\n";
	static const char attribute[] =
		".init_array _ZL5earlyv .LC2 puts\tearly()\n";
	static const char dtor[] = ".fini_array _ZL4latev .LC3 puts\tlate()\n";
	static const char old[] = ".ctors _ZL5earlyv\tearly()\n";
	static const char code[] = ".init .init\t.init\n";
	char text[512];
	struct g_result r;

	(void)state;
	snprintf(text, sizeof(text), "%s%s", nvcc, ioinit);
	assert_int_equal(rejected_for("", text, plain_ptx, "", &r), 0);
	assert_int_equal(rejected_for("", object, plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "static constructor (sub_I_x)");
	assert_int_equal(rejected_for("", attribute, plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "static constructor (early())");
	assert_int_equal(rejected_for("", dtor, plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "static destructor (late())");
	assert_int_equal(rejected_for("", old, plain_ptx, "", &r), -1);
	assert_int_equal(rejected_for("", code, plain_ptx, "", &r), -1);
	assert_contains(joined(&r), "static constructor (.init)");
}

static void constructors_at_a_priority(void **state)
{
	char *ctors = data("inspect-cheats.ctors");
	struct g_result r;
	const char *all;

	(void)state;
	/* Recorded: a pointer placed in .init_array.00100 and an object with
	 * init_priority(200); nvcc's own entry beside them is fine. */
	assert_int_equal(rejected_for("", ctors, plain_ptx, "", &r), -1);
	all = joined(&r);
	assert_contains(all, "static constructor (before_main() in "
			     ".init_array.00100)");
	assert_contains(all, "in .init_array.00200)");
	assert_int_equal(r.ndetails, 3);
	/* Even the benign initialisers are not benign at a priority. */
	assert_int_equal(rejected_for("", ".init_array.00101 _GLOBAL__sub_I_x "
					  ".bss _ZNSt8ios_base4InitC1Ev\tsub_I_x\n",
				      plain_ptx, "", &r), -1);
	free(ctors);
}

static void system_call_instructions(void **state)
{
	struct g_objinfo oi = {
		.syms = (char *)"", .ctors = (char *)"", .entries = (char *)"",
	};
	struct g_result r;

	(void)state;
	/* Recorded: inline assembly's syscall, inlined into reduce_sum. */
	oi.hostsys = data("inspect-cheats.hostsys");
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_check_symbols(&oi, &r), -1);
	assert_contains(joined(&r), "it makes system calls itself (inline "
				    "assembly: `syscall` in reduce_sum): every "
				    "system call must go through the C library");
	free(oi.hostsys);
	/* One reason per instruction and function; int $0x80 by its name. */
	oi.hostsys = (char *)"int$0x80 _Z3hopv\thop()\nint$0x80 _Z3hopv\thop()\n"
			     "sysenter _Z3hopv\thop()\n";
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_check_symbols(&oi, &r), -1);
	assert_contains(joined(&r), "`int $0x80` in hop()");
	assert_contains(joined(&r), "`sysenter` in hop()");
	assert_int_equal(r.ndetails, 3);
	/* Nothing found (an empty file) is not a reason. */
	oi.hostsys = (char *)"";
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_check_symbols(&oi, &r), 0);
}

static void nothing_inspected_is_not_rejected(void **state)
{
	struct g_objinfo oi;
	struct g_result r;

	(void)state;
	memset(&oi, 0, sizeof(oi));
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_check_symbols(&oi, &r), 0);
	assert_int_equal(r.ndetails, 0);
}

/* ---- the audit line ---- */

static void audit_words(void **state)
{
	static const struct {
		const char *base, *words;
	} cases[] = {
		{ "inspect-honest", "inline-ptx,streams,graphs,events,cooperative,"
				    "host-alloc,device-malloc,func-attr,printf" },
		/* CUB's block primitives: their inline PTX is the headers' */
		{ "inspect-clean", "" },
		/* Thrust allocates its temporary storage with cudaMalloc */
		{ "inspect-cccl", "device-malloc" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct g_objinfo oi;
		char audit[G_DETAIL_LEN];

		load(&oi, cases[i].base);
		g_audit(&oi, audit, sizeof(audit));
		assert_string_equal(audit, cases[i].words);
		g_objinfo_free(&oi);
	}
}

static void audit_word_by_word(void **state)
{
	static const struct {
		const char *syms, *ptx, *words;
	} cases[] = {
		{ "U cudaStreamCreate\tx\n", "", "streams" },
		{ "U cudaGraphInstantiate\tx\n", "", "graphs" },
		{ "U cudaEventCreateWithFlags\tx\n", "", "events" },
		{ "U cudaLaunchCooperativeKernel\tx\n", "", "cooperative" },
		{ "U _Znwm\tx\nU cudaMallocHost\tx\n", "", "host-alloc" },
		{ "U cudaMallocHost\tx\n", "", "host-alloc" },
		{ "U cudaMallocManaged\tx\n", "", "device-malloc" },
		{ "U cudaFuncSetCacheConfig\tx\n", "", "func-attr" },
		{ "U __printf_chk\tx\n", "", "printf" },
		{ "U _ZSt4cerr\tx\n", "", "printf" },
		{ "U cudaGraphicsMapResources\tx\n", "", "" },
		/* a reference is what counts: a definition is not a call */
		{ "T printf\tx\n", "", "" },
		/* device code's own printf and malloc, not Thrust's */
		{ "", ".visible .entry _Z1kv()\n{\n\tcall.uni (retval0),\n\t"
		      "vprintf,\n", "printf" },
		{ "", ".weak .func _ZN6thrust1fEv()\n{\n\tcall.uni (retval0),\n\t"
		      "vprintf,\n", "" },
		{ "", ".visible .entry _Z1kv()\n{\n\tcall.uni (retval0),\n\t"
		      "malloc,\n", "device-malloc" },
		/* inline PTX: the file's own lines, not a header's */
		{ "", "\t.loc\t1 7 3\n\t// begin inline asm\n"
		      "\t.file\t1 \"/x/sum.cu\"\n", "inline-ptx" },
		{ "", "\t.loc\t2 7 3\n\t// begin inline asm\n"
		      "\t.file\t1 \"/x/sum.cu\"\n\t.file\t2 \"/cub/util.cuh\"\n", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct g_objinfo oi = {
			.syms = (char *)cases[i].syms, .ptx = (char *)cases[i].ptx,
		};
		char audit[G_DETAIL_LEN];

		g_audit(&oi, audit, sizeof(audit));
		if (strcmp(audit, cases[i].words))
			fail_msg("case %zu: \"%s\", expected \"%s\"", i, audit,
				 cases[i].words);
	}
}

/* A runner dir/sum and inspect.sh's files next to it, recorded from
 * inspect-honest: the runner first, so that none is older than it. */
static void honest_runner(const char *dir, char *runner, size_t n)
{
	static const char *const exts[] = { "syms", "ctors", "calls", "entries",
					    "labsyms", "hostsys", "ptx" };
	char path[600];
	FILE *f;

	snprintf(runner, n, "%s/sum", dir);
	f = fopen(runner, "w");
	assert_non_null(f);
	fclose(f);
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		char *text = data_ext("inspect-honest", exts[i]);

		snprintf(path, sizeof(path), "%s.%s", runner, exts[i]);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
		free(text);
	}
}

/* The whole path: inspect.sh's files next to a runner, read back. */
static void inspect_runner_reads_the_files(void **state)
{
	char *dir = unit_tmpdir(), runner[512], path[600];
	struct g_spec s;
	struct g_result r;

	(void)state;
	assert_non_null(dir);
	memset(&s, 0, sizeof(s));
	honest_runner(dir, runner, sizeof(runner));
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_inspect_runner(runner, &s, &r, 0), 0);
	assert_string_equal(r.audit, "inline-ptx,streams,graphs,events,"
				     "cooperative,host-alloc,device-malloc,"
				     "func-attr,printf");
	assert_int_equal(r.ndetails, 0);
	/* No .hostsys (objdump failed): said, not held against the file. */
	snprintf(path, sizeof(path), "%s.hostsys", runner);
	remove(path);
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_inspect_runner(runner, &s, &r, 0), 0);
	assert_contains(joined(&r), "system calls: not checked");
	unit_rmdir(dir);
}

/* Set path's modification time to t. */
static void set_mtime(const char *path, time_t t)
{
	struct timespec ts[2] = { { .tv_sec = t }, { .tv_sec = t } };

	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

/*
 * A file older than the runner is left from an earlier build (inspect.sh
 * failed this time, or was never run): it is not read, so an old build's
 * clean symbols cannot stand for the new one's. A file as old as the
 * runner (the same second) is its own.
 */
static void stale_files_are_not_read(void **state)
{
	static const char *const exts[] = { "syms", "ctors", "calls", "entries",
					    "labsyms", "hostsys", "ptx" };
	char *dir = unit_tmpdir(), runner[512], path[600];
	time_t now = time(NULL);
	struct g_objinfo oi;

	(void)state;
	assert_non_null(dir);
	honest_runner(dir, runner, sizeof(runner));
	set_mtime(runner, now);
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		snprintf(path, sizeof(path), "%s.%s", runner, exts[i]);
		set_mtime(path, now);
	}
	snprintf(path, sizeof(path), "%s.syms", runner);
	set_mtime(path, now - 100);
	snprintf(path, sizeof(path), "%s.ptx", runner);
	set_mtime(path, now - 1);
	g_objinfo_load(runner, &oi);
	assert_null(oi.syms);
	assert_null(oi.ptx);
	assert_non_null(oi.calls);
	assert_non_null(oi.entries);
	assert_non_null(oi.ctors);
	g_objinfo_free(&oi);
	/* Rebuilt files, newer than the runner, are read again. */
	snprintf(path, sizeof(path), "%s.syms", runner);
	set_mtime(path, now + 1);
	g_objinfo_load(runner, &oi);
	assert_non_null(oi.syms);
	assert_contains(oi.syms, "cuda");
	g_objinfo_free(&oi);
	unit_rmdir(dir);
}

/* ---- technique rules ---- */

static struct g_spec spec(const char *name)
{
	struct g_spec s;

	memset(&s, 0, sizeof(s));
	snprintf(s.lab, sizeof(s.lab), "05-reduction");
	snprintf(s.name, sizeof(s.name), "%s", name);
	s.speed = 1;
	s.points_correct = 40;
	s.points_speed = 60;
	return s;
}

static void rules_parse(void **state)
{
	struct g_spec s[2] = { spec("sum"), spec("argmax") };
	static const char text[] =
		"rule sum must_not sym __device_stub__ZN3cub|cublas|!EmptyKernel\t"
		"a library\tThe reduction is the exercise.\n"
		"rule argmax must ptx shfl.sync\twarp shuffles\tTaught here.\n"
		"rule argmax invalid 2\n";

	(void)state;
	assert_int_equal(g_parse_rules(text, s, 2), 3);
	assert_int_equal(s[0].nrules, 1);
	assert_int_equal(s[0].rules[0].must, 0);
	assert_string_equal(s[0].rules[0].where, "sym");
	assert_string_equal(s[0].rules[0].pattern,
			    "__device_stub__ZN3cub|cublas|!EmptyKernel");
	assert_string_equal(s[0].rules[0].what, "a library");
	assert_string_equal(s[0].rules[0].why, "The reduction is the exercise.");
	assert_int_equal(s[1].nrules, 1);
	assert_int_equal(s[1].rules[0].must, 1);
	assert_int_equal(s[1].bad_rules, 1);
	assert_int_equal(g_parse_rules("", s, 2), 0);
}

static void rules_garbled(void **state)
{
	static const char *const bad[] = {
		"rule nosuch must ptx x\twhat\twhy\n",   /* no such exercise */
		"rule sum maybe ptx x\twhat\twhy\n",     /* no such kind */
		"rule sum must elf x\twhat\twhy\n",      /* no such place */
		"rule sum must ptx x\twhat only\n",      /* a field short */
		"tier sum 2 20\n",                       /* not a rule */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct g_spec s = spec("sum");

		assert_int_equal(g_parse_rules(bad[i], &s, 1), -1);
	}
}

static void rules_too_many(void **state)
{
	struct g_spec s = spec("sum");
	char text[1024] = "";

	(void)state;
	for (int i = 0; i <= G_MAX_RULES; i++)
		strcat(text, "rule sum must ptx x\tw\ty\n");
	assert_int_equal(g_parse_rules(text, &s, 1), G_MAX_RULES + 1);
	assert_int_equal(s.nrules, G_MAX_RULES);
	assert_int_equal(s.bad_rules, 1);
}

static void add_rule(struct g_spec *s, int must, const char *where,
		     const char *pattern)
{
	struct g_rule *r = &s->rules[s->nrules++];

	r->must = must;
	snprintf(r->where, sizeof(r->where), "%s", where);
	snprintf(r->pattern, sizeof(r->pattern), "%s", pattern);
	snprintf(r->what, sizeof(r->what), "the thing");
	snprintf(r->why, sizeof(r->why), "Because.");
}

#define LIBRARY "__device_stub__ZN3cub|__device_stub__ZN6thrust|cublas|cudnn|!EmptyKernel"

static void technique_on_recorded_objects(void **state)
{
	struct g_objinfo clean, bad;
	struct g_spec s = spec("sum");
	struct g_result r;

	(void)state;
	load(&clean, "inspect-clean");
	load(&bad, "inspect-bad");
	add_rule(&s, 0, "sym", LIBRARY);
	/* cub.cuh's EmptyKernel stub is excluded: block-level CUB is fine. */
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &clean, &r);
	assert_int_equal(r.technique, G_TECH_OK);
	assert_contains(joined(&r), "technique: ok (does not use the thing)");
	/* Both use shared memory and only one shuffles. */
	s.nrules = 0;
	add_rule(&s, 1, "ptx", "shfl.sync");
	add_rule(&s, 1, "ptx", ".shared");
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &clean, &r);
	assert_int_equal(r.technique, G_TECH_OK);
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &bad, &r);
	assert_int_equal(r.technique, G_TECH_FAILED);
	assert_contains(joined(&r), "technique: FAILED: the file must use the "
				    "thing, and its PTX show none. Because.");
	g_objinfo_free(&clean);
	g_objinfo_free(&bad);
}

static void technique_must_not_names_what_it_found(void **state)
{
	struct g_spec s = spec("sum");
	struct g_objinfo oi = {
		.syms = (char *)
			"b _ZZL66__device_stub__ZN3cub6detail11EmptyKernelIvEEvvvE5__tmp\tEmpty\n"
			"b _ZZL190__device_stub__ZN3cub6detail6reduce18DeviceReduceKernelE5__tmp\t"
			"cub::DeviceReduceKernel stub\n"
			"U cublasSgemm_v2\tcublasSgemm_v2\n",
	};
	struct g_result r;

	(void)state;
	add_rule(&s, 0, "sym", LIBRARY);
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &oi, &r);
	assert_int_equal(r.technique, G_TECH_FAILED);
	/* The first alternative that matches a line not excluded. */
	assert_contains(joined(&r), "show `cub::DeviceReduceKernel stub`");
	/* Only the excluded line: no match. */
	oi.syms = (char *)"b _ZZL66__device_stub__ZN3cub6detail11EmptyKernelIvEEvvvE5__tmp\tEmpty\n";
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &oi, &r);
	assert_int_equal(r.technique, G_TECH_OK);
}

static void technique_unchecked_and_none(void **state)
{
	struct g_spec s = spec("sum");
	struct g_objinfo oi;
	struct g_result r;

	(void)state;
	memset(&oi, 0, sizeof(oi));
	memset(&r, 0, sizeof(r));
	g_check_technique(&s, &oi, &r);
	assert_int_equal(r.technique, G_TECH_NONE);
	assert_int_equal(r.ndetails, 0);
	add_rule(&s, 0, "sass", "HMMA");
	g_check_technique(&s, &oi, &r);
	assert_int_equal(r.technique, G_TECH_UNCHECKED);
	assert_contains(joined(&r), "not checked (no SASS");
	assert_string_equal(g_technique_word(G_TECH_UNCHECKED), "unchecked");
	assert_string_equal(g_technique_word(G_TECH_NONE), "-");
}

/* The SASS: made by the driver (cuobjdump, CUDA_HOME's first) only for
 * an exercise with a rule on it; a cuobjdump that fails leaves the rule
 * "not checked". */
static void sass_only_for_a_rule_on_it(void **state)
{
	char *dir = unit_tmpdir(), runner[512], path[600], *old_home;
	struct g_spec s;
	struct g_result r;
	FILE *f;

	(void)state;
	assert_non_null(dir);
	old_home = getenv("CUDA_HOME") ? strdup(getenv("CUDA_HOME")) : NULL;
	honest_runner(dir, runner, sizeof(runner));
	snprintf(path, sizeof(path), "%s.o", runner);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	/* A cuobjdump that says which object it was given, and HMMA. */
	snprintf(path, sizeof(path), "%s/bin", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/bin/cuobjdump", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\n[ \"$1\" = -sass ] && [ \"$2\" = '%s.o' ] || "
		   "exit 1\necho '        HMMA.16816.F32.BF16 R4, R8, R12, R4 ;'\n",
		runner);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	setenv("CUDA_HOME", dir, 1);

	/* No rule on the SASS: cuobjdump is not run. */
	s = spec("hgemm");
	add_rule(&s, 1, "ptx", "ret;");
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_inspect_runner(runner, &s, &r, 0), 0);
	snprintf(path, sizeof(path), "%s.sass", runner);
	assert_int_not_equal(access(path, F_OK), 0);
	/* A rule on it: made, and read. */
	add_rule(&s, 1, "sass", "HMMA");
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_inspect_runner(runner, &s, &r, 0), 0);
	assert_int_equal(r.technique, G_TECH_OK);
	assert_int_equal(access(path, F_OK), 0);
	/* cuobjdump fails (another object): not checked, no file left. */
	remove(path);
	snprintf(path, sizeof(path), "%s/bin/cuobjdump", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\necho 'cuobjdump fatal: not an object' >&2\nexit 1\n", f);
	fclose(f);
	memset(&r, 0, sizeof(r));
	assert_int_equal(g_inspect_runner(runner, &s, &r, 0), 0);
	assert_int_equal(r.technique, G_TECH_UNCHECKED);
	assert_contains(joined(&r), "not checked (no SASS");
	snprintf(path, sizeof(path), "%s.sass", runner);
	assert_int_not_equal(access(path, F_OK), 0);

	if (old_home)
		setenv("CUDA_HOME", old_home, 1);
	else
		unsetenv("CUDA_HOME");
	free(old_home);
	unit_rmdir(dir);
}

static void failed_rule_withholds_performance_points(void **state)
{
	struct g_spec s = spec("sum");
	struct g_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.verdict = WB_V_PASS;
	r.points = 100;
	r.tier = 3;
	r.technique = G_TECH_FAILED;
	g_technique_apply(&s, &r);
	assert_near(r.points, 40, 0);
	assert_int_equal(r.tier, 0);
	assert_contains(joined(&r), "performance points withheld");
	/* Not PASS, or no failure: nothing changes. */
	r.points = 0;
	r.verdict = WB_V_WRONG;
	g_technique_apply(&s, &r);
	assert_near(r.points, 0, 0);
	r.verdict = WB_V_PASS;
	r.points = 100;
	r.technique = G_TECH_UNCHECKED;
	g_technique_apply(&s, &r);
	assert_near(r.points, 100, 0);
}

/* ---- what a build alone can say (resources.c) ---- */

static void skeleton_is_the_wb_todo_reference(void **state)
{
	struct g_objinfo oi = { 0 };
	char fn[64];

	(void)state;
	oi.syms = "T reduce_sum\treduce_sum\nU wb_todo\twb_todo\n";
	oi.calls = "cudaMalloc reduce_sum\nwb_todo reduce_sum\n";
	assert_int_equal(g_is_skeleton(&oi, fn, sizeof(fn)), 1);
	assert_string_equal(fn, "reduce_sum");
	/* a file that defines its own wb_todo_x, or only mentions it */
	oi.syms = "T reduce_sum\treduce_sum\nU wb_todo_extra\twb_todo_extra\n";
	assert_int_equal(g_is_skeleton(&oi, fn, sizeof(fn)), 0);
	oi.syms = NULL;
	assert_int_equal(g_is_skeleton(&oi, fn, sizeof(fn)), 0);
}

static void resources_one_architecture_and_spills(void **state)
{
	struct g_objinfo oi = { 0 };
	struct g_result r;

	(void)state;
	memset(&r, 0, sizeof(r));
	oi.resources =
		"_Z3addPfi sm_75 32 0 0 0 0\tadd(float*, int)\n"
		"_Z3mulPfi sm_75 255 4096 64 48 40\tmul(float*, int)\n"
		"_Z3addPfi sm_90 30 0 0 0 0\tadd(float*, int)\n";
	/* add's launch bounds in the PTX (a static kernel's -rdc name);
	 * mul has none; a kernel whose name only ends alike is not add. */
	oi.ptx = ".entry _Z6xx_addPfi(\n)\n.maxntid 64, 1, 1\n{\n}\n"
		 ".entry __nv_static_12__ab_x_cu__Z3addPfi(\n"
		 "\t.param .u64 p\n)\n.maxntid 128, 2, 1\n{\n}\n"
		 ".entry _Z3mulPfi(\n)\n{\n.maxntid 999, 1, 1\n}\n";
	g_resources_details(&oi, &r);
	assert_int_equal(r.ndetails, 5);
	assert_string_equal(r.details[0], "kernel add (sm_75): 32 registers, "
			    "0 B static shared memory, no spills");
	assert_contains(r.details[1], "launch bounds: at most 256 threads a "
			"block");
	/* Spilled: the spills' line follows, nothing trails this one. */
	assert_string_equal(r.details[2], "kernel mul (sm_75): 255 registers, "
			    "4096 B static shared memory, stack frame 64 B");
	assert_non_null(strstr(r.details[3], "48 B stored and 40 B loaded"));
	assert_contains(r.details[4], "no launch bounds");
	oi.ptx = NULL;
	memset(&r, 0, sizeof(r));
	oi.resources = "_Z3addPfi sm_75 lots\n";
	g_resources_details(&oi, &r);
	assert_int_equal(r.ndetails, 1);
	assert_non_null(strstr(r.details[0], "could not be read"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_object_runs),
		cmocka_unit_test(honest_launchers_run),
		cmocka_unit_test(bad_object_is_rejected_with_reasons),
		cmocka_unit_test(cheats_object_is_rejected),
		cmocka_unit_test(entry_points_kernels_and_device_functions),
		cmocka_unit_test(definitions_are_sealed_not_judged),
		cmocka_unit_test(entry_kinds_and_ifuncs),
		cmocka_unit_test(allowed_families_pass),
		cmocka_unit_test(rejected_families_say_why),
		cmocka_unit_test(more_rejected_families),
		cmocka_unit_test(the_labs_own_symbols),
		cmocka_unit_test(no_exemption_by_name),
		cmocka_unit_test(data_references_are_judged_too),
		cmocka_unit_test(exit_handlers_are_allowed),
		cmocka_unit_test(calls_into_the_grader_or_the_system),
		cmocka_unit_test(no_entry_point_is_left_to_the_runner),
		cmocka_unit_test(constructors),
		cmocka_unit_test(constructors_at_a_priority),
		cmocka_unit_test(system_call_instructions),
		cmocka_unit_test(nothing_inspected_is_not_rejected),
		cmocka_unit_test(audit_words),
		cmocka_unit_test(audit_word_by_word),
		cmocka_unit_test(inspect_runner_reads_the_files),
		cmocka_unit_test(stale_files_are_not_read),
		cmocka_unit_test(rules_parse),
		cmocka_unit_test(rules_garbled),
		cmocka_unit_test(rules_too_many),
		cmocka_unit_test(technique_on_recorded_objects),
		cmocka_unit_test(technique_must_not_names_what_it_found),
		cmocka_unit_test(technique_unchecked_and_none),
		cmocka_unit_test(sass_only_for_a_rule_on_it),
		cmocka_unit_test(failed_rule_withholds_performance_points),
		cmocka_unit_test(skeleton_is_the_wb_todo_reference),
		cmocka_unit_test(resources_one_architecture_and_spills),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
