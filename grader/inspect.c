/* SPDX-License-Identifier: MIT */
/*
 * inspect.c - the symbol and technique checks on a student's compiled file
 * (see inspect.h). Text in, verdict and details out.
 */
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "proc.h"

/* Seconds allowed to `info --rules`. */
#define RULES_TIMEOUT_S 20.0

/* Reasons listed under REJECTED; more are counted. */
#define MAX_REASONS 6

/* ---- reading what inspect.sh left ---- */

static char *load_fresh(const char *runner, const char *ext, time_t since)
{
	char path[1024];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", runner, ext);
	if (stat(path, &st) || st.st_mtime < since)
		return NULL; /* missing, or left from an older build */
	return read_file(path, 64u << 20);
}

void g_objinfo_load(const char *runner, struct g_objinfo *oi)
{
	struct stat st;
	time_t since = stat(runner, &st) ? 0 : st.st_mtime;

	memset(oi, 0, sizeof(*oi));
	oi->syms = load_fresh(runner, ".syms", since);
	oi->ctors = load_fresh(runner, ".ctors", since);
	oi->calls = load_fresh(runner, ".calls", since);
	oi->entries = load_fresh(runner, ".entries", since);
	oi->labsyms = load_fresh(runner, ".labsyms", since);
	oi->hostsys = load_fresh(runner, ".hostsys", since);
	oi->ptx = load_fresh(runner, ".ptx", since);
	oi->sass = load_fresh(runner, ".sass", since);
}

void g_objinfo_free(struct g_objinfo *oi)
{
	free(oi->syms);
	free(oi->ctors);
	free(oi->calls);
	free(oi->entries);
	free(oi->labsyms);
	free(oi->hostsys);
	free(oi->ptx);
	free(oi->sass);
	memset(oi, 0, sizeof(*oi));
}

/* ---- small text helpers ---- */

/* Is word a whole line of text? */
static int has_line(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; p && (p = strstr(p, word)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/* Does the PTX define name as a kernel (.entry), function (.func) or
 * variable? Definitions end the name with '(', ';', '[' or a space. */
static int ptx_declares(const char *ptx, const char *name, int entry_only)
{
	size_t n = strlen(name);

	for (const char *p = ptx; p && (p = strstr(p, name)); p++) {
		const char *ls = p, *end = p + n;

		if (p > ptx && p[-1] != ' ' && p[-1] != '\t')
			continue;
		if (*end != '(' && *end != ';' && *end != '[' && *end != ' ' &&
		    *end != '\n')
			continue;
		while (ls > ptx && ls[-1] != '\n')
			ls--;
		while (*ls == ' ' || *ls == '\t')
			ls++;
		if (strncmp(ls, ".visible", 8) && strncmp(ls, ".weak", 5) &&
		    strncmp(ls, ".entry", 6) && strncmp(ls, ".func", 5) &&
		    strncmp(ls, ".global", 7) && strncmp(ls, ".const", 6))
			continue; /* a use or an .extern, not a definition */
		if (!entry_only)
			return 1;
		for (const char *q = ls; q + 6 <= p; q++)
			if (!strncmp(q, ".entry", 6))
				return 1;
	}
	return 0;
}

/* ---- symbols ---- */

struct sym {
	char type;
	const char *name;
	const char *dem; /* demangled, for messages */
};

/* Split one "TYPE NAME\tDEMANGLED" line in place; 0 when it is one. */
static int parse_sym(char *line, struct sym *s)
{
	char *sp = strchr(line, ' '), *tab;

	if (!sp || sp - line != 1)
		return -1;
	s->type = line[0];
	s->name = sp + 1;
	tab = strchr(sp + 1, '\t');
	if (tab) {
		*tab = '\0';
		s->dem = tab + 1;
	} else {
		s->dem = s->name;
	}
	return 0;
}

/* A definition visible to the linker (nm's global types, 'u' and 'i'). */
static int defines_global(char t)
{
	return (t >= 'A' && t <= 'Z' && t != 'U') || t == 'u' || t == 'i';
}

static int mangled(const char *name)
{
	return !strncmp(name, "_Z", 2);
}

/* C++ operators new and delete: one definition replaces them everywhere. */
static int is_operator_new_delete(const char *name)
{
	return !strncmp(name, "_Znw", 4) || !strncmp(name, "_Zna", 4) ||
	       !strncmp(name, "_Zdl", 4) || !strncmp(name, "_Zda", 4);
}

/*
 * What nvcc and the CUDA headers define in objects that use them: the
 * compiler's personality reference, kernel launch stubs, and NVTX's weak
 * hooks (CUB's headers include NVTX; the grader does not use it).
 */
static int generated(const struct sym *s)
{
	int weak = s->type == 'W' || s->type == 'V';

	return !strncmp(s->name, "DW.ref.", 7) ||
	       strstr(s->name, "__device_stub__") ||
	       (weak && (!strncmp(s->name, "nvtx", 4) ||
			 !strncmp(s->name, "InitializeInjectionNvtx", 23)));
}

/*
 * May the file define this global symbol? Entry points, kernels, device
 * functions and variables (per the PTX), what nvcc and the headers
 * generate, and weak C++ definitions (inline functions, template
 * instantiations), which never override a strong definition.
 */
static const char *definition_problem(const struct sym *s,
				      const struct g_objinfo *oi)
{
	if (!strncmp(s->name, "naive_", 6) || !strncmp(s->name, "peer_", 5))
		return "is the lab's own (the naive reference or a library "
		       "peer): defining it replaces the lab's code";
	if (oi->entries && has_line(oi->entries, s->name))
		return NULL;
	if (generated(s))
		return NULL;
	if (mangled(s->name)) {
		if (is_operator_new_delete(s->name))
			return "replaces C++'s operator new or delete";
		if (s->type == 'W' || s->type == 'V' || s->type == 'u')
			return NULL;
		if (!oi->ptx || ptx_declares(oi->ptx, s->name, 0))
			return NULL;
		return "is a host function or variable visible outside the file: "
		       "declare it static";
	}
	if (oi->ptx && ptx_declares(oi->ptx, s->name, 1))
		return NULL; /* an extern "C" kernel */
	return "is not an entry point of this lab: it would replace the CUDA "
	       "runtime's or C library's function of that name for the whole "
	       "program, the grader's timer included (make helpers static)";
}

/* ---- what a submission may call: the allowlist ---- */

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
static const char why_atexit[] = "it registers code to run after your call, "
				 "when the grader has its verdict (a static "
				 "object with a destructor does too: use plain "
				 "data)";

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
	{ "atexit", why_atexit }, { "at_quick_exit", why_atexit },
	{ "on_exit", why_atexit }, { "cxa_atexit", why_atexit },
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

/* The grader's own functions a file may call: CUDA_CHECK's and WB_TODO's. */
static const char *const grader_allowed[] = { "wb_cuda_fatal", "wb_todo" };

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

/* Does name match pat (a name, or a prefix ending in '*')? */
static int matches(const char *name, const char *pat)
{
	size_t n = strlen(pat);

	if (n && pat[n - 1] == '*')
		return !strncmp(name, pat, n - 1);
	return !strcmp(name, pat);
}

static const char *family_why(const char *name, const struct family *f,
			      size_t n, int *found)
{
	for (size_t i = 0; i < n; i++)
		if (matches(name, f[i].pat)) {
			*found = 1;
			return f[i].why;
		}
	return NULL;
}

static int listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (matches(name, list[i]))
			return 1;
	return 0;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * A C library name without what fortification, C standard versions and
 * fast-math add: "__open_2" -> "open", "__fprintf_chk" -> "fprintf",
 * "__isoc99_sscanf" -> "sscanf", "__expf_finite" -> "expf",
 * "_environ" -> "environ".
 */
static void core_name(const char *name, char *out, size_t n)
{
	static const char *const tails[] = { "_2", "_chk", "_finite" };
	size_t len;

	while (*name == '_')
		name++;
	if (!strncmp(name, "isoc99_", 7) || !strncmp(name, "isoc23_", 7))
		name += 7;
	snprintf(out, n, "%s", name);
	len = strlen(out);
	for (size_t i = 0; i < COUNT(tails); i++) {
		size_t t = strlen(tails[i]);

		if (len > t && !strcmp(out + len - t, tails[i])) {
			out[len - t] = '\0';
			break;
		}
	}
}

/* A math function: one of libm[], maybe with an f or l suffix. */
static int is_libm(const char *core)
{
	size_t n = strlen(core);
	char base[64];

	if (listed(core, libm, COUNT(libm)))
		return 1;
	if (!n || n >= sizeof(base) || (core[n - 1] != 'f' && core[n - 1] != 'l'))
		return 0;
	snprintf(base, sizeof(base), "%.*s", (int)(n - 1), core);
	return listed(base, libm, COUNT(libm));
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
	       (oi->labsyms && has_line(oi->labsyms, name));
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
		return listed(name, grader_allowed, COUNT(grader_allowed)) ?
		       NULL : why_grader;
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
	    listed(name, abi_allowed, COUNT(abi_allowed)))
		return NULL;
	why = family_why(name, libraries, COUNT(libraries), &found);
	if (found)
		return why;
	if (is_driver_api(name))
		return why_driver;
	if (mangled(name)) {
		for (size_t i = 0; i < COUNT(cxx_rejected); i++)
			if (strstr(name, cxx_rejected[i].pat))
				return cxx_rejected[i].why;
		if (listed(name, cxx_allowed, COUNT(cxx_allowed)) ||
		    is_std_throw(name) || is_std_exception(name))
			return NULL;
		return why_unlisted;
	}
	core_name(name, core, sizeof(core));
	why = family_why(core, libc_rejected, COUNT(libc_rejected), &found);
	if (found)
		return why;
	if (listed(core, libc_allowed, COUNT(libc_allowed)) || is_libm(core))
		return NULL;
	return why_unlisted;
}

/* Why a file is rejected: the first few reasons, and how many in all. */
struct reasons {
	char line[MAX_REASONS][G_DETAIL_LEN];
	int n;
};

/* Is name defined weak ("W name\t...") in the symbol table? */
static int weak_defined(const char *syms, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = syms; p && (p = strstr(p, name)); p++)
		if (p - syms >= 2 && p[-1] == ' ' && p[-2] == 'W' &&
		    (p - syms == 2 || p[-3] == '\n') && p[n] == '\t')
			return 1;
	return 0;
}

/* Constructor-table entries nvcc and the C++ library make for themselves. */
static int benign_ctor(const char *table, const char *fn, const char *refs)
{
	static const char *const ok_refs[] = {
		"_ZNSt8ios_base4InitC1Ev", "_ZNSt8ios_base4InitD1Ev",
		"__dso_handle", "__cxa_atexit",
	};
	char *copy, *save = NULL;
	int ok = 1;

	if (strcmp(table, ".init_array"))
		return 0; /* priorities (.init_array.NNNNN) are the file's own */
	if (!strcmp(fn, "_ZL24__sti____cudaRegisterAllv"))
		return 1; /* nvcc's registration of the file's kernels */
	/* <iostream>'s std::ios_base::Init object (CUB includes it): only
	 * that object's constructor and destructor may be referenced. */
	if (strncmp(fn, "_GLOBAL__sub_I_", 15) || !(copy = strdup(refs)))
		return 0;
	for (char *w = strtok_r(copy, " ", &save); w && ok;
	     w = strtok_r(NULL, " ", &save))
		ok = *w == '.' || /* a section of the file itself */
		     listed(w, ok_refs, COUNT(ok_refs));
	free(copy);
	return ok;
}

/* Is fn an entry of the file's constructor tables that benign_ctor takes? */
static int benign_ctor_fn(const struct g_objinfo *oi, const char *fn)
{
	const char *l = oi->ctors;

	while (l && *l) {
		const char *end = strchr(l, '\n');
		char line[4096], table[64], name[256], *tab;
		int off = 0;

		snprintf(line, sizeof(line), "%.*s",
			 (int)(end ? (size_t)(end - l) : strlen(l)), l);
		tab = strchr(line, '\t');
		if (tab)
			*tab = '\0';
		if (sscanf(line, "%63s %255s %n", table, name, &off) >= 2 &&
		    !strcmp(name, fn))
			return benign_ctor(table, name, line + off);
		l = end ? end + 1 : NULL;
	}
	return 0;
}

/* CUB's, Thrust's and libcu++'s functions, by their mangled names. */
static const char *const cccl[] = {
	"_ZN3cub*", "_ZNK3cub*", "_ZN6thrust*", "_ZNK6thrust*", "_ZN4cuda*",
	"_ZNK4cuda*",
};

/* Code that the headers and nvcc write, which may make some references
 * the file itself may not. */
enum maker {
	BY_NVTX = 1,   /* NVTX's weak nvtx* functions (CUB brings them) */
	BY_CCCL = 2,   /* CUB's, Thrust's and libcu++'s own functions */
	BY_NVCC = 4,   /* nvcc's registration of the file's kernels */
	BY_IOINIT = 8, /* <iostream>'s std::ios_base::Init initialiser */
};

static const struct {
	const char *name;
	int who;
} made_by_headers[] = {
	/* the ios_base::Init object; function-local statics in Thrust */
	{ "__cxa_atexit", BY_CCCL | BY_IOINIT },
	/* nvcc unregisters the file's kernels at exit */
	{ "atexit", BY_NVCC },
};

/* Who may make a reference to name the file itself may not make. */
static int allowed_makers(const char *name)
{
	for (size_t i = 0; i < COUNT(made_by_headers); i++)
		if (!strcmp(name, made_by_headers[i].name))
			return BY_NVTX | made_by_headers[i].who;
	return BY_NVTX;
}

/* Is caller (a function, or a section for data) code of a kind in who? */
static int made_by(const struct g_objinfo *oi, const char *caller, int who)
{
	char base[256], *dot;

	if (*caller == '.' || *caller == '?')
		return 0; /* data, or code outside any function */
	/* GCC's clones (.isra.0, .part.0, .cold) are their function's */
	snprintf(base, sizeof(base), "%s", caller);
	dot = strchr(base, '.');
	if (dot)
		*dot = '\0';
	if ((who & BY_NVTX) && !strncmp(base, "nvtx", 4) &&
	    weak_defined(oi->syms, base))
		return 1;
	if ((who & BY_CCCL) && listed(base, cccl, COUNT(cccl)))
		return 1;
	if ((who & BY_NVCC) && !strcmp(caller, "_ZL24__sti____cudaRegisterAllv"))
		return benign_ctor_fn(oi, caller);
	if ((who & BY_IOINIT) && !strncmp(caller, "_GLOBAL__sub_I_", 15))
		return benign_ctor_fn(oi, caller);
	return 0;
}

/*
 * Is every reference to callee made by the headers' or nvcc's code of the
 * kinds in who? NVTX's header code loads its tool library with dlopen and
 * dlsym and reads its environment variable; Thrust keeps function-local
 * static objects; nvcc unregisters the file's kernels at exit: those
 * references are not the submission's. A reference from data, or from the
 * file's own code, is.
 */
static int made_only_by(const struct g_objinfo *oi, const char *callee,
			int who)
{
	size_t n = strlen(callee);
	int seen = 0;

	if (!oi->calls || !oi->syms)
		return 0;
	for (const char *l = oi->calls; *l; l++) {
		const char *end = strchr(l, '\n'), *caller = l + n + 1;
		char name[256];
		size_t len;

		if (!end)
			end = l + strlen(l);
		if (!strncmp(l, callee, n) && l[n] == ' ') {
			len = (size_t)(end - caller);
			snprintf(name, sizeof(name), "%.*s",
				 (int)(len < sizeof(name) ? len : sizeof(name) - 1),
				 caller);
			if (!made_by(oi, name, who))
				return 0;
			seen = 1;
		}
		l = end;
		if (!*l)
			break;
	}
	return seen;
}

static void reject(struct reasons *rs, const char *fmt, const char *a,
		   const char *b)
{
	if (rs->n < MAX_REASONS)
		snprintf(rs->line[rs->n], G_DETAIL_LEN, fmt, a, b);
	rs->n++;
}

/* A weak reference libstdc++ makes only to ask whether threads are
 * linked in (older C libraries); it calls nothing. */
static int threads_probe(const struct sym *s)
{
	return s->type == 'w' && (!strcmp(s->name, "__pthread_key_create") ||
				  !strcmp(s->name, "pthread_key_create"));
}

/* One reference (nm's U, w or v). */
static void check_ref(const struct sym *s, const struct g_objinfo *oi,
		      struct reasons *rs)
{
	int own;
	const char *why = ref_problem(oi, s->name, &own);

	if (!why || threads_probe(s))
		return;
	if (!own && made_only_by(oi, s->name, allowed_makers(s->name)))
		return;
	if (why == why_grader || why == why_lab || why == why_unlisted)
		reject(rs, "  it calls %s, which %s", s->dem, why);
	else
		reject(rs, "  it calls %s, which is not on the list: %s",
		       s->dem, why);
}

/*
 * One symbol line: a definition, or a reference. defs: judge definitions
 * too (not when the file defines no entry point at all: then the runner
 * reports the missing entry point, a COMPILE ERROR).
 */
static void check_sym(const struct sym *s, const struct g_objinfo *oi,
		      int defs, struct reasons *rs)
{
	const char *why;

	if (s->type == 'U' || s->type == 'w' || s->type == 'v') {
		check_ref(s, oi, rs);
	} else if (defs && defines_global(s->type)) {
		why = definition_problem(s, oi);
		if (why)
			reject(rs, "  it defines %s, which %s", s->dem, why);
	}
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Every entry of the tables that run code before main or after it. */
static void check_ctors(char *text, struct reasons *rs)
{
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char table[64], fn[256], what[400], *dem = strchr(l, '\t');
		int off = 0, dtor;

		if (dem)
			*dem++ = '\0';
		if (sscanf(l, "%63s %255s %n", table, fn, &off) < 2)
			continue;
		if (benign_ctor(table, fn, l + off))
			continue;
		dtor = starts(table, ".fini_array") || starts(table, ".dtors") ||
		       !strcmp(table, ".fini");
		if (dem && *dem)
			snprintf(fn, sizeof(fn), "%s", dem);
		/* Name the section when it is not the plain table. */
		if (!strcmp(table, ".init_array") || !strcmp(table, ".fini_array") ||
		    !strcmp(fn, table))
			snprintf(what, sizeof(what), "%s (%.80s)",
				 dtor ? "destructor" : "constructor", fn);
		else
			snprintf(what, sizeof(what), "%s (%.80s in %s)",
				 dtor ? "destructor" : "constructor", fn, table);
		reject(rs, "  it has a static %.160s: code run before or after the "
			   "grader's; %s", what, "a global object with a "
			   "constructor is one (use plain data, set up on the "
			   "first call)");
	}
}

/* System-call instructions in the host code (inspect.sh's .hostsys). */
static void check_hostsys(const char *text, struct reasons *rs)
{
	char prev[512] = "";

	while (text && *text) {
		const char *end = strchr(text, '\n');
		char line[512], insn[32], fn[256], *dem;
		size_t len = end ? (size_t)(end - text) : strlen(text);

		snprintf(line, sizeof(line), "%.*s", (int)len, text);
		text = end ? end + 1 : NULL;
		if (!strcmp(line, prev))
			continue; /* one reason per instruction and function */
		snprintf(prev, sizeof(prev), "%s", line);
		dem = strchr(line, '\t');
		if (dem)
			*dem++ = '\0';
		if (sscanf(line, "%31s %255s", insn, fn) != 2)
			continue;
		if (dem && *dem)
			snprintf(fn, sizeof(fn), "%s", dem);
		reject(rs, "  it makes system calls itself (inline assembly: "
			   "`%s` in %.80s): every system call must go through the "
			   "C library, which the grader can check",
		       strcmp(insn, "int$0x80") ? insn : "int $0x80", fn);
	}
}

/* Does the file define one of the lab's entry points? */
static int defines_entry(const struct g_objinfo *oi)
{
	const char *l = oi->entries;

	while (l && *l) {
		const char *end = strchr(l, '\n');
		char name[256], pat[300];
		size_t len = end ? (size_t)(end - l) : strlen(l);

		snprintf(name, sizeof(name), "%.*s", (int)(len < 255 ? len : 255), l);
		snprintf(pat, sizeof(pat), "T %s\t", name);
		l = end ? end + 1 : NULL;
		if (starts(name, "naive_") || starts(name, "peer_"))
			continue; /* the lab's, referenced weakly too */
		for (const char *p = oi->syms; *name && (p = strstr(p, pat)); p++)
			if (p == oi->syms || p[-1] == '\n')
				return 1;
	}
	return 0;
}

int g_check_symbols(const struct g_objinfo *oi, struct g_result *r)
{
	struct reasons rs = { .n = 0 };
	char *syms, *ctors, *save = NULL;
	int defs;

	if (!oi->syms)
		return 0; /* nothing to go on: said by the technique line */
	defs = defines_entry(oi);
	syms = strdup(oi->syms);
	ctors = oi->ctors ? strdup(oi->ctors) : NULL;
	for (char *l = syms ? strtok_r(syms, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		struct sym s;

		if (!parse_sym(l, &s))
			check_sym(&s, oi, defs, &rs);
	}
	if (ctors)
		check_ctors(ctors, &rs);
	check_hostsys(oi->hostsys, &rs);
	free(syms);
	free(ctors);
	if (!rs.n)
		return 0;
	r->verdict = WB_V_REJECTED;
	g_detail(r, "the file was not run: it may define only its entry "
		    "point(s), kernels and device functions, and call only what "
		    "a kernel launcher needs:");
	for (int i = 0; i < rs.n && i < MAX_REASONS; i++)
		g_detail(r, "%s", rs.line[i]);
	if (rs.n > MAX_REASONS)
		g_detail(r, "  (and %d more)", rs.n - MAX_REASONS);
	return -1;
}

/* ---- technique rules ---- */

static struct g_spec *spec_named(struct g_spec *specs, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(specs[i].name, name))
			return &specs[i];
	return NULL;
}

/* "rule EX KIND WHERE PATTERN\tWHAT\tWHY": into s's rules; -1 if garbled. */
static int rule_line(char *l, struct g_spec *specs, int n)
{
	char ex[G_NAME_LEN], kind[16], where[8], pattern[160], *what, *why;
	struct g_spec *s;
	struct g_rule *r;
	int off = 0;

	if (sscanf(l, "rule %63s %15s %n", ex, kind, &off) != 2)
		return -1;
	s = spec_named(specs, n, ex);
	if (!s)
		return -1;
	if (!strcmp(kind, "invalid")) {
		s->bad_rules++;
		return 0;
	}
	l += off;
	what = strchr(l, '\t');
	why = what ? strchr(what + 1, '\t') : NULL;
	if (!why || sscanf(l, "%7s %159s", where, pattern) != 2 ||
	    (strcmp(kind, "must") && strcmp(kind, "must_not")) ||
	    (strcmp(where, "ptx") && strcmp(where, "sym") && strcmp(where, "sass")))
		return -1;
	if (s->nrules >= G_MAX_RULES) {
		s->bad_rules++;
		return 0;
	}
	*why++ = '\0';
	what++;
	r = &s->rules[s->nrules++];
	r->must = !strcmp(kind, "must");
	snprintf(r->where, sizeof(r->where), "%s", where);
	snprintf(r->pattern, sizeof(r->pattern), "%s", pattern);
	snprintf(r->what, sizeof(r->what), "%s", what);
	snprintf(r->why, sizeof(r->why), "%s", why);
	return 0;
}

int g_parse_rules(const char *text, struct g_spec *specs, int n)
{
	char *copy = strdup(text ? text : ""), *save = NULL;
	int bad = 0, count = 0;

	if (!copy)
		return -1;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (rule_line(l, specs, n))
			bad = 1;
		else
			count++;
	}
	free(copy);
	return bad ? -1 : count;
}

int g_rules_load(const char *build_dir, const char *lab, struct g_spec *specs,
		 int n)
{
	char info[1024], out[1024];
	char *argv[] = { info, "--rules", NULL };
	struct proc_result pr;
	char *text;
	int k;

	snprintf(info, sizeof(info), "%s/%s/info", build_dir, lab);
	snprintf(out, sizeof(out), "%s/%s/info.rules", build_dir, lab);
	/* An info built before rules existed says "usage": no rules. */
	if (proc_run(argv, out, RULES_TIMEOUT_S, &pr) < 0 || !pr.exited ||
	    pr.code)
		return 0;
	text = read_file(out, 1 << 20);
	k = g_parse_rules(text, specs, n);
	free(text);
	return k;
}

/* The text a rule looks at, or NULL (and why) when it is not there. */
static const char *rule_text(const struct g_rule *rule,
			     const struct g_objinfo *oi, const char **missing)
{
	if (!strcmp(rule->where, "ptx")) {
		*missing = "no PTX of the file (nvcc -ptx failed; see the "
			   "runner's .inspect.log)";
		return oi->ptx;
	}
	if (!strcmp(rule->where, "sass")) {
		*missing = "no SASS (cuobjdump is not installed)";
		return oi->sass;
	}
	*missing = "no symbol table of the file (nm failed)";
	return oi->syms;
}

/* Does the line [ls, le) contain one of the exclusions ("!word")? */
static int excluded(const char *pattern, const char *ls, const char *le)
{
	char alt[160], *save = NULL;

	snprintf(alt, sizeof(alt), "%s", pattern);
	for (char *a = strtok_r(alt, "|", &save); a; a = strtok_r(NULL, "|", &save)) {
		size_t n = strlen(a + 1);

		if (*a != '!' || !n)
			continue;
		for (const char *p = ls; p + n <= le; p++)
			if (!strncmp(p, a + 1, n))
				return 1;
	}
	return 0;
}

/*
 * The first line of text with an alternative of pattern in it and none of
 * its exclusions: that line (a symbol's demangled name, for the symbol
 * table) into found; 1 if any.
 */
static int find_pattern(const char *pattern, const char *text, int syms,
			char *found, size_t n)
{
	char alt[160], *save = NULL;

	snprintf(alt, sizeof(alt), "%s", pattern);
	for (char *a = strtok_r(alt, "|", &save); a; a = strtok_r(NULL, "|", &save)) {
		const char *p, *ls, *le;

		if (*a == '!')
			continue;
		for (p = strstr(text, a); p; p = strstr(le, a)) {
			for (ls = p; ls > text && ls[-1] != '\n'; ls--)
				;
			le = strchr(p, '\n');
			if (!le)
				le = p + strlen(p);
			if (!excluded(pattern, ls, le))
				break;
		}
		if (!p)
			continue;
		if (syms && memchr(ls, '\t', (size_t)(le - ls)))
			ls = (const char *)memchr(ls, '\t', (size_t)(le - ls)) + 1;
		while (*ls == ' ' || *ls == '\t')
			ls++;
		snprintf(found, n, "%.*s", (int)(le - ls > 120 ? 120 : le - ls), ls);
		return 1;
	}
	return 0;
}

static const char *where_name(const char *where)
{
	return !strcmp(where, "ptx") ? "PTX" : !strcmp(where, "sass") ? "SASS" :
	       "symbols";
}

void g_check_technique(const struct g_spec *s, const struct g_objinfo *oi,
		       struct g_result *r)
{
	char line[G_DETAIL_LEN], found[128];
	int failed = 0, unchecked = 0;
	size_t used = 0;

	r->technique = G_TECH_NONE;
	if (!s->nrules && !s->bad_rules)
		return;
	for (int i = 0; i < s->nrules; i++) {
		const struct g_rule *rule = &s->rules[i];
		const char *missing, *text = rule_text(rule, oi, &missing);
		int hit;

		if (!text) {
			unchecked++;
			g_detail(r, "technique: not checked (%s): %s %s", missing,
				 rule->must ? "must use" : "must not use", rule->what);
			continue;
		}
		hit = find_pattern(rule->pattern, text, !strcmp(rule->where, "sym"),
				   found, sizeof(found));
		if (hit != rule->must) {
			failed++;
			if (rule->must)
				g_detail(r, "technique: FAILED: the file must use %s, "
					    "and its %s show none. %s",
					 rule->what, where_name(rule->where), rule->why);
			else
				g_detail(r, "technique: FAILED: the file must not use "
					    "%s, and its %s show `%s`. %s", rule->what,
					 where_name(rule->where), found, rule->why);
			continue;
		}
		used += snprintf(line + used, used < sizeof(line) ? sizeof(line) - used : 0,
				 "%s%s %s", used ? "; " : "",
				 rule->must ? "uses" : "does not use", rule->what);
	}
	if (s->bad_rules) {
		unchecked++;
		g_detail(r, "technique: %d of the lab's rules could not be read "
			    "(a lab bug; not held against the file)", s->bad_rules);
	}
	if (failed)
		r->technique = G_TECH_FAILED;
	else if (unchecked)
		r->technique = G_TECH_UNCHECKED;
	else
		r->technique = G_TECH_OK;
	if (used && !failed)
		g_detail(r, "technique: ok (%s)", line);
}

/* ---- the audit line: allowed, but worth an instructor's look ---- */

/* Does the symbol table hold a reference (U, w, v) matching one of pats? */
static int refers_to(const char *syms, const char *const *pats, size_t n)
{
	for (const char *l = syms; l && *l;) {
		const char *end = strchr(l, '\n');
		char name[256], core[256];
		size_t len = end ? (size_t)(end - l) : strlen(l);

		if (len > 2 && (l[0] == 'U' || l[0] == 'w' || l[0] == 'v') &&
		    l[1] == ' ') {
			snprintf(name, sizeof(name), "%.*s", (int)(len - 2), l + 2);
			name[strcspn(name, "\t")] = '\0';
			core_name(name, core, sizeof(core));
			if (listed(name, pats, n) || listed(core, pats, n))
				return 1;
		}
		l = end ? end + 1 : NULL;
	}
	return 0;
}

/* The name a PTX function definition line declares ("" when the line is
 * none): the word before its last '('. */
static void ptx_def_name(const char *line, size_t len, char *out, size_t n)
{
	const char *t = line, *open = NULL, *end;

	out[0] = '\0';
	while (*t == ' ' || *t == '\t')
		t++;
	if (strncmp(t, ".visible", 8) && strncmp(t, ".weak", 5) &&
	    strncmp(t, ".entry", 6) && strncmp(t, ".func", 5))
		return;
	for (const char *p = t; p < line + len; p++)
		if (*p == '(')
			open = p;
	if (!open)
		return;
	end = open;
	while (end > t && end[-1] == ' ')
		end--;
	for (t = end; t > line && t[-1] != ' ' && t[-1] != '\t'; t--)
		;
	snprintf(out, n, "%.*s", (int)(end - t), t);
}

/* Does a device function of the file's own (not CUB's, Thrust's or
 * libcu++'s) call the device function name (printf's vprintf, malloc)? */
static int ptx_own_call(const char *ptx, const char *name)
{
	size_t n = strlen(name);
	char fn[256] = "";

	for (const char *l = ptx; l && *l;) {
		const char *end = strchr(l, '\n'), *t = l;
		size_t len = end ? (size_t)(end - l) : strlen(l);
		char def[256];

		ptx_def_name(l, len, def, sizeof(def));
		if (*def)
			snprintf(fn, sizeof(fn), "%s", def);
		while (*t == ' ' || *t == '\t')
			t++;
		if (!strncmp(t, name, n) && t[n] == ',' && !listed(fn, cccl, COUNT(cccl)))
			return 1;
		l = end ? end + 1 : NULL;
	}
	return 0;
}

/* Is PTX file index f (".file f "path"") a .cu file: the submission's? */
static int ptx_own_file(const char *ptx, long f)
{
	char pat[32];
	const char *p, *q;

	snprintf(pat, sizeof(pat), ".file\t%ld \"", f);
	p = strstr(ptx, pat);
	if (!p) {
		snprintf(pat, sizeof(pat), ".file %ld \"", f);
		p = strstr(ptx, pat);
	}
	if (!p)
		return 1; /* no file table: count it as the file's own */
	p += strlen(pat);
	q = strchr(p, '"');
	return q && q - p > 3 && !strncmp(q - 3, ".cu", 3);
}

/*
 * Inline PTX written in the file itself: a "begin inline asm" block whose
 * innermost source line (the .loc before it) is in a .cu file. CUB's and
 * cooperative groups' headers use inline PTX too; that is not counted.
 */
static int ptx_own_inline_asm(const char *ptx)
{
	long file = -1;

	for (const char *l = ptx; l && *l;) {
		const char *t = l;

		while (*t == ' ' || *t == '\t')
			t++;
		if (!strncmp(t, ".loc", 4) && (t[4] == ' ' || t[4] == '\t'))
			file = strtol(t + 5, NULL, 10);
		else if (!strncmp(t, "// begin inline asm", 19) &&
			 (file < 0 || ptx_own_file(ptx, file)))
			return 1;
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	return 0;
}

static void audit_word(char *buf, size_t n, const char *word)
{
	size_t used = strlen(buf);

	snprintf(buf + used, n > used ? n - used : 0, "%s%s", used ? "," : "",
		 word);
}

void g_audit(const struct g_objinfo *oi, char *buf, size_t n)
{
	static const char *const streams[] = { "cudaStreamCreate*" };
	static const char *const graphs[] = {
		"cudaGraphAdd*", "cudaGraphCreate", "cudaGraphInstantiate*",
		"cudaGraphLaunch", "cudaGraphExec*", "cudaStreamBeginCapture*",
	};
	static const char *const events[] = { "cudaEventCreate*" };
	static const char *const coop[] = { "cudaLaunchCooperativeKernel*" };
	static const char *const host_alloc[] = {
		"malloc", "calloc", "realloc", "reallocarray", "aligned_alloc",
		"posix_memalign", "memalign", "_Znw*", "_Zna*",
		"cudaMallocHost", "cudaHostAlloc",
	};
	static const char *const dev_alloc[] = {
		"cudaMalloc", "cudaMallocAsync", "cudaMallocManaged",
		"cudaMallocPitch", "cudaMalloc3D", "cudaMallocFromPoolAsync",
		"cudaMallocArray", "cudaMalloc3DArray",
	};
	static const char *const func_attr[] = {
		"cudaFuncSetAttribute", "cudaFuncSetCacheConfig",
		"cudaFuncSetSharedMemConfig",
	};
	static const char *const prints[] = {
		"printf", "vprintf", "puts", "putchar", "fputs", "fputc", "putc",
		"fprintf", "vfprintf", "fwrite", "perror", "_ZSt4cout",
		"_ZSt4cerr", "_ZSt4clog",
	};
	const char *syms = oi->syms, *ptx = oi->ptx;

	if (!n)
		return;
	buf[0] = '\0';
	if (ptx && ptx_own_inline_asm(ptx))
		audit_word(buf, n, "inline-ptx");
	if (refers_to(syms, streams, COUNT(streams)))
		audit_word(buf, n, "streams");
	if (refers_to(syms, graphs, COUNT(graphs)))
		audit_word(buf, n, "graphs");
	if (refers_to(syms, events, COUNT(events)))
		audit_word(buf, n, "events");
	if (refers_to(syms, coop, COUNT(coop)))
		audit_word(buf, n, "cooperative");
	if (refers_to(syms, host_alloc, COUNT(host_alloc)))
		audit_word(buf, n, "host-alloc");
	if (refers_to(syms, dev_alloc, COUNT(dev_alloc)) ||
	    (ptx && ptx_own_call(ptx, "malloc")))
		audit_word(buf, n, "device-malloc");
	if (refers_to(syms, func_attr, COUNT(func_attr)))
		audit_word(buf, n, "func-attr");
	if (refers_to(syms, prints, COUNT(prints)) ||
	    (ptx && ptx_own_call(ptx, "vprintf")))
		audit_word(buf, n, "printf");
}

int g_inspect_runner(const char *runner, const struct g_spec *s,
		     struct g_result *r)
{
	struct g_objinfo oi;
	int rejected;

	g_objinfo_load(runner, &oi);
	rejected = g_check_symbols(&oi, r) < 0;
	if (!rejected)
		g_check_technique(s, &oi, r);
	if (!oi.syms && !rejected)
		g_detail(r, "symbols: not checked (no %s.syms: rebuild with make "
			    "to inspect the file)", runner);
	else if (!oi.hostsys && !rejected)
		g_detail(r, "system calls: not checked (no %s.hostsys: objdump "
			    "failed, see %s.inspect.log)", runner, runner);
	g_audit(&oi, r->audit, sizeof(r->audit));
	g_objinfo_free(&oi);
	return rejected ? -1 : 0;
}

void g_technique_apply(const struct g_spec *s, struct g_result *r)
{
	if (r->technique != G_TECH_FAILED || r->verdict != WB_V_PASS ||
	    !s->speed || r->points <= s->points_correct)
		return;
	r->points = s->points_correct;
	r->tier = 0;
	r->next_target = 0;
	g_detail(r, "performance points withheld: a technique rule failed "
		    "(correctness points kept)");
}

const char *g_technique_word(int technique)
{
	switch (technique) {
	case G_TECH_OK: return "ok";
	case G_TECH_FAILED: return "failed";
	case G_TECH_UNCHECKED: return "unchecked";
	default: return "-";
	}
}
