/* SPDX-License-Identifier: MIT */
/*
 * allowlist.c - what a submission may call or read (allowlist.h): the
 * families allowed and rejected, with the reasons, and the matching of a
 * referenced name against them.
 */
#include "allowlist.h"

#include <stdio.h>
#include <string.h>

#include "symname.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * A file's undefined symbols (nm's U, w and v) are what it calls or reads.
 * Each must belong to a family on the list below; anything else is
 * REJECTED, with the reason where the family is a known way to cheat. A
 * pattern is a name, or a prefix ending in '*'. Libc names are matched
 * after dropping what fortification and versioning add ("__printf_chk" is
 * printf, "__isoc99_sscanf" is sscanf, "__expf_finite" is expf).
 */
struct family {
	const char *pat;
	const char *why; /* a rejected family: why; NULL: allowed */
};

/* Why each rejected family is rejected (docs/grading.md, section 8). */
static const char why_device[] =
	"it changes the device for the whole process: it would outlive your "
	"call and could slow the naive reference you are measured against";
static const char why_lookup[] = "it looks up code by name at run time";
static const char why_share[] = "it shares memory or events with other "
				"processes or graphics APIs";
static const char why_later[] = "it runs your host code later, on the CUDA "
				"runtime's own thread, after your call has "
				"returned";
static const char why_profiler[] = "it switches the profiler for the whole "
				   "process (make profile measures with it)";
static const char why_driver[] = "it is the CUDA driver API, which loads "
				 "modules and finds kernels by name at run "
				 "time (use the runtime API, cuda...)";
static const char why_library[] = "it is a CUDA library, which is not linked "
				  "into your runner: the kernel is the "
				  "exercise";
static const char why_clock[] = "it reads a clock: the grader times your "
				"code";
static const char why_env[] = "it reads the environment, which tells a "
			      "grading run from a sanitizer run";
static const char why_loader[] = "it finds code by name at run time (the "
				 "loader and its symbol tables)";
static const char why_proc[] = "it starts or controls processes";
static const char why_async[] = "it runs code outside your call (threads, "
				"timers, signal handlers)";
static const char why_file[] = "it opens, reads or writes files (print with "
			       "printf)";
static const char why_sleep[] = "it sleeps: the grader times your code";
static const char why_mmap[] = "it maps memory or changes its protection, "
			       "which is how code is patched at run time";
static const char why_syscall[] = "it makes system calls itself";
static const char why_atexit[] = "it registers code to run when a thread "
				 "ends (a thread_local object with a "
				 "destructor does too: use plain data)";

/* The CUDA runtime: allowed (cuda*), but for these. */
static const struct family cuda_rejected[] = {
	{ "cudaDeviceSetCacheConfig", why_device },
	{ "cudaDeviceSetSharedMemConfig", why_device },
	{ "cudaDeviceSetLimit", why_device },
	{ "cudaDeviceReset", why_device },
	{ "cudaSetDeviceFlags", why_device },
	{ "cudaSetValidDevices", why_device },
	{ "cudaInitDevice", why_device },
	{ "cudaDeviceSetMemPool", why_device },
	{ "cudaMemSetMemPool", why_device },
	{ "cudaDeviceSetGraphMemAttribute", why_device },
	{ "cudaDeviceEnablePeerAccess", why_device },
	{ "cudaDeviceDisablePeerAccess", why_device },
	{ "cudaDeviceFlushGPUDirectRDMAWrites", why_device },
	{ "cudaCtxResetPersistingL2Cache", why_device },
	{ "cudaThreadSetLimit", why_device },
	{ "cudaThreadSetCacheConfig", why_device },
	{ "cudaThreadExit", why_device },
	{ "cudaProfiler*", why_profiler },
	{ "cudaGetFuncBySymbol", why_lookup },
	{ "cudaGetKernel", why_lookup },
	{ "cudaGetDriverEntryPoint*", why_lookup },
	{ "cudaGetExportTable", why_lookup },
	{ "cudaLibrary*", why_lookup },
	{ "cudaKernelSetAttributeForDevice", why_lookup },
	{ "cudaIpc*", why_share },
	{ "cudaImportExternal*", why_share },
	{ "cudaExternalMemoryGet*", why_share },
	{ "cudaSignalExternal*", why_share },
	{ "cudaWaitExternal*", why_share },
	{ "cudaDestroyExternal*", why_share },
	{ "cudaGraphAddExternalSemaphores*", why_share },
	{ "cudaMemPoolExport*", why_share },
	{ "cudaMemPoolImport*", why_share },
	{ "cudaGraphics*", why_share },
	{ "cudaGL*", why_share },
	{ "cudaEGL*", why_share },
	{ "cudaVDPAU*", why_share },
	{ "cudaD3D*", why_share },
	{ "cudaLaunchHostFunc", why_later },
	{ "cudaStreamAddCallback", why_later },
	{ "cudaGraphAddHostNode", why_later },
	{ "cudaGraphHostNodeSetParams", why_later },
	{ "cudaGraphExecHostNodeSetParams", why_later },
	{ "cudaUserObjectCreate", why_later },
	{ "cudaDeviceRegisterAsyncNotification", why_later },
	{ "cudaLogsRegisterCallback", why_later },
	{ "cudaGraphDebugDotPrint", why_file },
	{ "cudaLogsDumpToFile", why_file },
};

/* Other CUDA libraries: the labs' contracts keep them out. */
static const struct family libraries[] = {
	{ "cublas*", why_library }, { "cudnn*", why_library },
	{ "cufft*", why_library }, { "curand*", why_library },
	{ "cusparse*", why_library }, { "cusolver*", why_library },
	{ "cutensor*", why_library }, { "nvrtc*", why_library },
	{ "nvJitLink*", why_library }, { "nvml*", why_library },
	{ "cupti*", why_library }, { "nccl*", why_library },
	{ "npp*", why_library }, { "nvjpeg*", why_library },
};

/* The C library and the system, by their core names: rejected. */
static const struct family libc_rejected[] = {
	{ "clock_gettime", why_clock }, { "clock_getres", why_clock },
	{ "clock", why_clock }, { "time", why_clock },
	{ "gettimeofday", why_clock }, { "timespec_get", why_clock },
	{ "ftime", why_clock }, { "times", why_clock },
	{ "getrusage", why_clock }, { "clock_getcpuclockid", why_clock },
	{ "getenv", why_env }, { "secure_getenv", why_env },
	{ "environ", why_env }, { "setenv", why_env }, { "unsetenv", why_env },
	{ "putenv", why_env }, { "clearenv", why_env },
	{ "dlopen", why_loader }, { "dlmopen", why_loader },
	{ "dlsym", why_loader }, { "dlvsym", why_loader },
	{ "dlclose", why_loader }, { "dlerror", why_loader },
	{ "dlinfo", why_loader }, { "dladdr", why_loader },
	{ "dladdr1", why_loader }, { "dl_iterate_phdr", why_loader },
	{ "dl_*", why_loader }, { "libc_dl*", why_loader },
	{ "r_debug", why_loader }, { "DYNAMIC", why_loader },
	{ "getauxval", why_loader }, { "ehdr_start", why_loader },
	{ "executable_start", why_loader }, { "etext", why_loader },
	{ "edata", why_loader }, { "end", why_loader },
	{ "init_array_start", why_loader }, { "fini_array_start", why_loader },
	{ "fork", why_proc }, { "vfork", why_proc }, { "clone", why_proc },
	{ "clone3", why_proc }, { "system", why_proc }, { "popen", why_proc },
	{ "pclose", why_proc }, { "exec*", why_proc }, { "fexecve", why_proc },
	{ "posix_spawn*", why_proc }, { "wordexp", why_proc },
	{ "kill", why_proc }, { "killpg", why_proc }, { "ptrace", why_proc },
	{ "setsid", why_proc }, { "setpgid", why_proc }, { "setpgrp", why_proc },
	{ "daemon", why_proc }, { "prctl", why_proc }, { "wait", why_proc },
	{ "waitpid", why_proc }, { "waitid", why_proc }, { "unshare", why_proc },
	{ "pthread_*", why_async }, { "thrd_*", why_async },
	{ "timer_create", why_async }, { "timer_settime", why_async },
	{ "setitimer", why_async }, { "alarm", why_async },
	{ "ualarm", why_async }, { "signal", why_async },
	{ "sigaction", why_async }, { "sysv_signal", why_async },
	{ "bsd_signal", why_async }, { "sigset", why_async },
	{ "sigprocmask", why_async }, { "signalfd", why_async },
	{ "raise", why_async },
	{ "open", why_file }, { "open64", why_file }, { "openat", why_file },
	{ "openat64", why_file }, { "creat", why_file }, { "creat64", why_file },
	{ "fopen", why_file }, { "fopen64", why_file }, { "freopen", why_file },
	{ "freopen64", why_file }, { "fdopen", why_file }, { "write", why_file },
	{ "pwrite", why_file }, { "pwrite64", why_file }, { "writev", why_file },
	{ "pwritev", why_file }, { "read", why_file }, { "pread", why_file },
	{ "pread64", why_file }, { "readv", why_file }, { "lseek", why_file },
	{ "lseek64", why_file }, { "dup", why_file }, { "dup2", why_file },
	{ "dup3", why_file }, { "close", why_file }, { "unlink", why_file },
	{ "unlinkat", why_file }, { "rename", why_file },
	{ "renameat", why_file }, { "remove", why_file },
	{ "truncate", why_file }, { "ftruncate", why_file },
	{ "mkstemp", why_file }, { "mkostemp", why_file },
	{ "tmpfile", why_file }, { "dprintf", why_file },
	{ "vdprintf", why_file }, { "fcntl", why_file }, { "ioctl", why_file },
	{ "socket", why_file }, { "connect", why_file }, { "pipe", why_file },
	{ "sendfile", why_file }, { "splice", why_file },
	{ "sleep", why_sleep }, { "usleep", why_sleep },
	{ "nanosleep", why_sleep }, { "clock_nanosleep", why_sleep },
	{ "pause", why_sleep }, { "select", why_sleep }, { "poll", why_sleep },
	{ "sched_yield", why_sleep },
	{ "mmap", why_mmap }, { "mmap64", why_mmap }, { "munmap", why_mmap },
	{ "mprotect", why_mmap }, { "pkey_mprotect", why_mmap },
	{ "mremap", why_mmap }, { "memfd_create", why_mmap },
	{ "shm_open", why_mmap }, { "shmat", why_mmap },
	{ "process_vm_readv", why_mmap }, { "process_vm_writev", why_mmap },
	{ "syscall", why_syscall },
	{ "cxa_thread_atexit*", why_atexit },
};

/* C++ library classes (in mangled names) that do the same. */
static const struct family cxx_rejected[] = {
	{ "6chrono", why_clock }, { "11this_thread", why_sleep },
	{ "6thread", why_async }, { "14basic_ofstream", why_file },
	{ "14basic_ifstream", why_file }, { "13basic_fstream", why_file },
	{ "13basic_filebuf", why_file }, { "12__basic_file", why_file },
	{ "10filesystem", why_file },
};

/* The C library, by core names: memory, strings, printing to stdout and
 * stderr, allocation, conversions, ctype, and leaving. */
static const char *const libc_allowed[] = {
	"memcpy", "memmove", "memset", "memcmp", "memchr", "memrchr",
	"mempcpy", "rawmemchr", "bzero", "bcmp", "strlen", "strnlen",
	"strcmp", "strncmp", "strcoll", "strcpy", "strncpy", "stpcpy",
	"stpncpy", "strcat", "strncat", "strchr", "strrchr", "strchrnul",
	"strstr", "strcasestr", "strspn", "strcspn", "strpbrk", "strdup",
	"strndup", "strtok", "strtok_r", "strsep", "strcasecmp",
	"strncasecmp", "strerror", "strerror_r", "xpg_strerror_r",
	"strxfrm", "wcslen", "wmemcpy", "wmemmove", "wmemset", "wmemcmp",
	"wmemchr", "wcscmp",
	"printf", "vprintf", "puts", "putchar", "putchar_unlocked", "fputs",
	"fputs_unlocked", "fputc", "fputc_unlocked", "putc", "putc_unlocked",
	"IO_putc", "fprintf", "vfprintf", "fwrite", "fwrite_unlocked",
	"fflush", "snprintf", "sprintf", "vsnprintf", "vsprintf", "asprintf",
	"vasprintf", "perror", "stdout", "stderr", "sscanf", "vsscanf",
	"malloc", "calloc", "realloc", "reallocarray", "free",
	"aligned_alloc", "posix_memalign", "memalign",
	"qsort", "qsort_r", "bsearch", "abs", "labs", "llabs", "div", "ldiv",
	"lldiv", "strtol", "strtoul", "strtoll", "strtoull", "strtoimax",
	"strtoumax", "strtof", "strtod", "strtold", "atoi", "atol", "atoll",
	"atof", "rand", "srand", "rand_r", "abort", "exit",
	"ctype_b_loc", "ctype_tolower_loc", "ctype_toupper_loc", "isalnum",
	"isalpha", "isblank", "iscntrl", "isdigit", "isgraph", "islower",
	"isprint", "ispunct", "isspace", "isupper", "isxdigit", "tolower",
	"toupper",
	"stack_chk_fail", "assert_fail", "errno_location",
	/* Exit handlers, which nvcc's kernel registration, <iostream> and
	 * any static object with a destructor register: the runner leaves
	 * with _exit (common/fate.c, wb_exit()), so none of them ever runs. */
	"atexit", "at_quick_exit", "on_exit", "cxa_atexit",
};

/* The math library: these, and each with an f or l suffix. */
static const char *const libm[] = {
	"acos", "asin", "atan", "atan2", "cos", "sin", "tan", "sincos",
	"acosh", "asinh", "atanh", "cosh", "sinh", "tanh", "exp", "exp2",
	"exp10", "expm1", "log", "log2", "log10", "log1p", "logb", "ilogb",
	"pow", "sqrt", "cbrt", "hypot", "erf", "erfc", "lgamma", "tgamma",
	"ceil", "floor", "trunc", "round", "lround", "llround", "rint",
	"lrint", "llrint", "nearbyint", "fabs", "fmod", "remainder",
	"remquo", "fmin", "fmax", "fdim", "fma", "copysign", "nextafter",
	"nexttoward", "ldexp", "frexp", "modf", "scalbn", "scalbln", "nan",
	"finite", "isnan", "isinf", "fpclassify", "signbit",
};

/* What C++'s headers and nvcc generate references to, by exact name. */
static const char *const abi_allowed[] = {
	"__gxx_personality_v0", "_Unwind_Resume", "__cxa_begin_catch",
	"__cxa_end_catch", "__cxa_rethrow", "__cxa_guard_acquire",
	"__cxa_guard_release", "__cxa_guard_abort", "__cxa_pure_virtual",
	"__cxa_deleted_virtual", "__cxa_throw", "__cxa_allocate_exception",
	"__cxa_free_exception", "__cxa_bad_cast", "__cxa_bad_typeid",
	"__cxa_throw_bad_array_new_length", "__cxa_get_exception_ptr",
	"__cxa_call_terminate", "__cxa_call_unexpected",
	"__cxa_current_exception_type", "__dso_handle",
	"_GLOBAL_OFFSET_TABLE_", "__libc_single_threaded",
};

/*
 * The grader's own functions a file may call: CUDA_CHECK's and WB_TODO's,
 * and the TMA's tensor-map encoder (common/tma.h), which only fills a
 * descriptor on the host: the driver function behind it is reachable no
 * other way (the driver API and cudaGetDriverEntryPoint are rejected).
 */
static const char *const grader_allowed[] = { "wb_cuda_fatal", "wb_todo",
					      "wb_tensor_map_encode_tiled" };

/*
 * The C++ standard library, by mangled prefix: exceptions and what throws
 * them, strings and string streams, the node-based containers, printing to
 * std::cout and std::cerr, iostream's initialiser, operators new and
 * delete, RTTI. None of them opens a file, starts a thread or reads a
 * clock (those are rejected above, first).
 */
static const char *const cxx_allowed[] = {
	"_Znw*", "_Zna*", "_Zdl*", "_Zda*", "_ZSt9terminatev", "_ZSt7nothrow",
	"_ZSt21__glibcxx_assert_fail*", /* _GLIBCXX_ASSERTIONS, GCC 13 on */
	"_ZNSt7__cxx11*", "_ZNKSt7__cxx11*", "_ZTVNSt7__cxx11*",
	"_ZTTNSt7__cxx11*", "_ZTINSt7__cxx11*", "_ZNSt8__detail*",
	"_ZNKSt8__detail*", "_ZSt11_Hash_bytes*", "_ZSt15_Fnv_hash_bytes*",
	"_ZSt4cout", "_ZSt4cerr", "_ZSt4clog", "_ZNSo*", "_ZStlsI*",
	"_ZSt16__ostream_insert*", "_ZSt4endl*", "_ZNKSt5ctypeIcE*",
	"_ZNSt8ios_base*", "_ZNSt9basic_ios*", "_ZNKSt9basic_ios*",
	"_ZSt21ios_base_library_initv", /* <iostream> from GCC 13 on */
	"_ZTVSt9basic_ios*", "_ZNSt6locale*", "_ZNSt15basic_streambuf*",
	"_ZTVSt15basic_streambuf*", "_ZNSt15__exception_ptr*",
	"_ZSt17rethrow_exception*", "_ZSt17current_exceptionv",
	"_ZSt18uncaught_exceptionv", "_ZSt19uncaught_exceptionsv",
	"_ZNSt3_V2*", "_ZNKSt3_V2*", "_ZTVN10__cxxabiv1*",
};

/* std:: exception classes, after _ZNSt, _ZNKSt, _ZTISt, _ZTSSt, _ZTVSt. */
static const char *const cxx_exceptions[] = {
	"9exception", "13bad_exception", "9bad_alloc", "20bad_array_new_length",
	"8bad_cast", "10bad_typeid", "11logic_error", "12length_error",
	"12out_of_range", "16invalid_argument", "12domain_error",
	"13runtime_error", "11range_error", "14overflow_error",
	"15underflow_error", "12system_error", "17bad_function_call",
	"19bad_optional_access", "18bad_variant_access",
};

static const char *family_why(const char *name, const struct family *f,
			      size_t n, int *found)
{
	for (size_t i = 0; i < n; i++)
		if (symname_matches(name, f[i].pat)) {
			*found = 1;
			return f[i].why;
		}
	return NULL;
}

/* A math function: one of libm[], maybe with an f or l suffix. */
static int is_libm(const char *core)
{
	size_t n = strlen(core);
	char base[64];

	if (symname_listed(core, libm, COUNT(libm)))
		return 1;
	if (!n || n >= sizeof(base) || (core[n - 1] != 'f' && core[n - 1] != 'l'))
		return 0;
	snprintf(base, sizeof(base), "%.*s", (int)(n - 1), core);
	return symname_listed(base, libm, COUNT(libm));
}

/* libgcc's arithmetic helpers (__popcountdi2, __udivti3, __extendhfsf2). */
static int is_libgcc(const char *name)
{
	static const char *const modes[] = { "di", "si", "ti", "sf", "df",
					     "xf", "tf", "hf", "bf" };
	size_t n = strlen(name);

	if (strncmp(name, "__", 2) || n < 6 || name[n - 1] < '2' ||
	    name[n - 1] > '4')
		return 0;
	for (size_t i = 0; i < COUNT(modes); i++)
		if (!strncmp(name + n - 3, modes[i], 2))
			return 1;
	return 0;
}

/* _ZSt<digits>__throw_*: std::__throw_length_error and its kind. */
static int is_std_throw(const char *name)
{
	if (strncmp(name, "_ZSt", 4))
		return 0;
	name += 4;
	while (*name >= '0' && *name <= '9')
		name++;
	return !strncmp(name, "__throw_", 8) || !strncmp(name, "_Rb_tree", 8);
}

/* A std:: exception class's member, typeinfo or vtable; or builtin RTTI. */
static int is_std_exception(const char *name)
{
	static const char *const heads[] = { "_ZNSt", "_ZNKSt", "_ZTISt",
					     "_ZTSSt", "_ZTVSt" };

	for (size_t i = 0; i < COUNT(heads); i++) {
		size_t h = strlen(heads[i]);

		if (strncmp(name, heads[i], h))
			continue;
		for (size_t k = 0; k < COUNT(cxx_exceptions); k++)
			if (!strncmp(name + h, cxx_exceptions[k],
				     strlen(cxx_exceptions[k])))
				return 1;
	}
	/* typeinfo of a builtin type or pointer (throw 1; throw "text") */
	if (!strncmp(name, "_ZTI", 4)) {
		name += 4;
		name += *name == 'P';
		name += *name == 'K';
		return name[0] >= 'a' && name[0] <= 'z' && !name[1];
	}
	return 0;
}

/* The driver API: cu followed by a capital (cuInit, cuLaunchKernel). */
static int is_driver_api(const char *name)
{
	return name[0] == 'c' && name[1] == 'u' && name[2] >= 'A' &&
	       name[2] <= 'Z';
}

/* Is name one of the lab's own symbols (the naive, the peers, the table)? */
static int lab_own(const struct g_objinfo *oi, const char *name)
{
	return !strncmp(name, "naive_", 6) || !strncmp(name, "peer_", 5) ||
	       (oi->labsyms && symname_line(oi->labsyms, name));
}

static const char why_grader[] =
	"is the grader's own: only CUDA_CHECK and WB_TODO may call into the "
	"grader (the verdict comes from your outputs, not from anything your "
	"code says)";
static const char why_lab[] =
	"is the lab's own (the naive reference or a library peer): calling it "
	"is not your code";
static const char why_unlisted[] =
	"is not on the list of what a submission may call (docs/grading.md, "
	"section 8)";

/*
 * Why the file may not refer to name (NULL: it may). *own is set for the
 * grader's and the lab's symbols, which no exception forgives.
 */
static const char *ref_problem(const struct g_objinfo *oi, const char *name,
			       int *own)
{
	char core[128], cuda[128];
	const char *why;
	int found = 0;

	*own = 1;
	if (!strncmp(name, "wb_", 3))
		return symname_listed(name, grader_allowed,
				      COUNT(grader_allowed)) ? NULL : why_grader;
	if (lab_own(oi, name))
		return why_lab;
	*own = 0;
	if (!strncmp(name, "cuda", 4)) {
		/* cudaLaunchKernel_ptsz: the per-thread default stream's */
		size_t len = strlen(name);

		snprintf(cuda, sizeof(cuda), "%s", name);
		if (len > 5 && len < sizeof(cuda) &&
		    (!strcmp(cuda + len - 5, "_ptsz") || !strcmp(cuda + len - 5, "_ptds")))
			cuda[len - 5] = '\0';
		why = family_why(cuda, cuda_rejected, COUNT(cuda_rejected), &found);
		return found ? why : NULL;
	}
	if (!strncmp(name, "__cuda", 6) || is_libgcc(name) ||
	    symname_listed(name, abi_allowed, COUNT(abi_allowed)))
		return NULL;
	why = family_why(name, libraries, COUNT(libraries), &found);
	if (found)
		return why;
	if (is_driver_api(name))
		return why_driver;
	if (symname_mangled(name)) {
		for (size_t i = 0; i < COUNT(cxx_rejected); i++)
			if (strstr(name, cxx_rejected[i].pat))
				return cxx_rejected[i].why;
		if (symname_listed(name, cxx_allowed, COUNT(cxx_allowed)) ||
		    is_std_throw(name) || is_std_exception(name))
			return NULL;
		return why_unlisted;
	}
	symname_core(name, core, sizeof(core));
	why = family_why(core, libc_rejected, COUNT(libc_rejected), &found);
	if (found)
		return why;
	if (symname_listed(core, libc_allowed, COUNT(libc_allowed)) ||
	    is_libm(core))
		return NULL;
	return why_unlisted;
}

enum allowlist_kind allowlist_check(const struct g_objinfo *oi,
				    const char *name, const char **why)
{
	int own;

	*why = ref_problem(oi, name, &own);
	if (!*why)
		return ALLOWLIST_OK;
	if (own)
		return ALLOWLIST_OWN;
	return *why == why_unlisted ? ALLOWLIST_UNLISTED : ALLOWLIST_FAMILY;
}
