/* SPDX-License-Identifier: MIT */
/*
 * symbols.c - g_check_symbols() (inspect.h): the kind of a student's
 * entry points and indirect functions (its other definitions are sealed by
 * grader/build.sh), what it refers to (judged by allowlist.c alone), its
 * static constructors and destructors, and the system-call instructions of
 * its host code. Any of them wrong is REJECTED, with the first few reasons.
 */
#include "inspect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allowlist.h"
#include "record.h"
#include "symname.h"
#include "settle.h"

/* Reasons listed under REJECTED; more are counted. */
#define MAX_REASONS 6

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- definitions ---- */

/*
 * What a file defines is not judged name by name: the runner links a
 * sealed copy of the object (grader/build.sh), in which every definition
 * but the entry points is renamed, so that nothing outside the file can
 * bind to it whatever its name or kind. Two things are judged here: that
 * each entry point the file defines is a plain function (any other kind
 * was not kept by the seal, and would say why only here), and that no
 * symbol is an indirect function, whose resolver the loader runs before
 * main, sealed or not.
 */

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

/* nm's letter for a definition, in words; NULL for a plain function. */
static const char *entry_kind(char t)
{
	switch (t) {
	case 'T':
		return NULL;
	case 'W': case 'V': case 'w': case 'v':
		return "a weak symbol";
	case 'i':
		return "an indirect function (ifunc)";
	case 'u':
		return "a unique global symbol";
	case 'C':
		return "a common symbol";
	case 't':
		return "a local symbol (static)";
	default:
		return "data, not a function";
	}
}

/* Is name one of the lab's entry points (not its naive or its peers)? */
static int is_entry(const struct g_objinfo *oi, const char *name)
{
	if (!strncmp(name, "naive_", 6) || !strncmp(name, "peer_", 5))
		return 0;
	return oi->entries && symname_line(oi->entries, name);
}

/* ---- references, constructors, system calls ---- */

/* Why a file is rejected: the first few reasons, and how many in all. */
struct reasons {
	char line[MAX_REASONS][G_DETAIL_LEN];
	int n;
};

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
	 * that object's constructor and destructor may be referenced, and
	 * the file's data; a reference to its code (.text) would run the
	 * file's own functions before the grader's. */
	if (strncmp(fn, "_GLOBAL__sub_I_", 15) || !(copy = strdup(refs)))
		return 0;
	for (char *w = strtok_r(copy, " ", &save); w && ok;
	     w = strtok_r(NULL, " ", &save))
		ok = (*w == '.' && strncmp(w, ".text", 5)) || /* its data */
		     symname_listed(w, ok_refs, COUNT(ok_refs));
	free(copy);
	return ok;
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

/*
 * One reference (nm's U, w or v): judged by the list alone. No name earns
 * an exemption: code the headers bring (CUB's, nvcc's) is the file's code
 * like any other, and what it needs is on the list with its reason
 * (allowlist.c). CUB's NVTX annotations, which load a tool library by
 * name, are compiled out (NVTX_DISABLE: the Makefile's STUDENT_NVFLAGS).
 */
static void check_ref(const struct sym *s, const struct g_objinfo *oi,
		      struct reasons *rs)
{
	const char *why;
	enum allowlist_kind kind = allowlist_check(oi, s->name, &why);

	if (kind == ALLOWLIST_OK || threads_probe(s))
		return;
	if (kind != ALLOWLIST_FAMILY)
		reject(rs, "  it calls %s, which %s", s->dem, why);
	else
		reject(rs, "  it calls %s, which is not on the list: %s",
		       s->dem, why);
}

/* One definition: an entry point must be a plain function; no symbol may
 * be an indirect function. */
static void check_def(const struct sym *s, const struct g_objinfo *oi,
		      struct reasons *rs)
{
	const char *kind = entry_kind(s->type);

	if (is_entry(oi, s->name) && kind)
		reject(rs, "  it defines its entry point %s as %s: an entry "
			   "point must be a plain function, with no attribute "
			   "that changes how it links", s->dem, kind);
	else if (s->type == 'i')
		reject(rs, "  it defines %s as %s, whose resolver the loader "
			   "runs before the grader's code", s->dem,
		       "an indirect function (ifunc)");
}

/* One symbol line: a reference, or a definition. */
static void check_sym(const struct sym *s, const struct g_objinfo *oi,
		      struct reasons *rs)
{
	if (s->type == 'U' || s->type == 'w' || s->type == 'v')
		check_ref(s, oi, rs);
	else
		check_def(s, oi, rs);
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

int g_check_symbols(const struct g_objinfo *oi, struct g_result *r)
{
	struct reasons rs = { .n = 0 };
	char *syms, *ctors, *save = NULL;

	if (!oi->syms)
		return 0; /* nothing to go on: said by the technique line */
	syms = strdup(oi->syms);
	ctors = oi->ctors ? strdup(oi->ctors) : NULL;
	for (char *l = syms ? strtok_r(syms, "\n", &save) : NULL; l;
	     l = strtok_r(NULL, "\n", &save)) {
		struct sym s;

		if (!parse_sym(l, &s))
			check_sym(&s, oi, &rs);
	}
	if (ctors)
		check_ctors(ctors, &rs);
	check_hostsys(oi->hostsys, &rs);
	free(syms);
	free(ctors);
	if (!rs.n)
		return 0;
	g_settle(r, WB_V_REJECTED);
	g_detail(r, "the file was not run: its entry point(s) must be plain "
		    "functions, and it may call only what a kernel launcher "
		    "needs:");
	for (int i = 0; i < rs.n && i < MAX_REASONS; i++)
		g_detail(r, "%s", rs.line[i]);
	if (rs.n > MAX_REASONS)
		g_detail(r, "  (and %d more)", rs.n - MAX_REASONS);
	return -1;
}
