/* SPDX-License-Identifier: MIT */
/*
 * symbols.c - g_check_symbols() (inspect.h): what a student's compiled
 * file defines, what it refers to (judged by allowlist.c, forgiven where
 * only the headers' or nvcc's code makes the reference), its static
 * constructors and destructors, and the system-call instructions of its
 * host code. Any of them wrong is REJECTED, with the first few reasons.
 */
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allowlist.h"
#include "record.h"
#include "symname.h"

/* Reasons listed under REJECTED; more are counted. */
#define MAX_REASONS 6

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- definitions ---- */

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
	if (oi->entries && symname_line(oi->entries, s->name))
		return NULL;
	if (generated(s))
		return NULL;
	if (symname_mangled(s->name)) {
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

/* ---- references, constructors, system calls ---- */

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
		     symname_listed(w, ok_refs, COUNT(ok_refs));
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
	if ((who & BY_CCCL) && symname_cccl(base))
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
	const char *why;
	enum allowlist_kind kind = allowlist_check(oi, s->name, &why);

	if (kind == ALLOWLIST_OK || threads_probe(s))
		return;
	if (kind != ALLOWLIST_OWN &&
	    made_only_by(oi, s->name, allowed_makers(s->name)))
		return;
	if (kind != ALLOWLIST_FAMILY)
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
