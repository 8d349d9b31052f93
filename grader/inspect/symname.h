/* SPDX-License-Identifier: MIT */
/*
 * symname.h - reading names in the text inspect.sh leaves (nm's symbol
 * lines, PTX): the small helpers the symbol checks (symbols.c), the
 * allowlist (allowlist.c) and the audit (audit.c) share.
 */
#ifndef GRADER_SYMNAME_H
#define GRADER_SYMNAME_H

#include <stddef.h>

/* Is word a whole line of text? */
int symname_line(const char *text, const char *word);
/* Does name match pat (a name, or a prefix ending in '*')? */
int symname_matches(const char *name, const char *pat);
/* Does name match one of list's n patterns? */
int symname_listed(const char *name, const char *const *list, size_t n);
/* A C library name without what fortification, C standard versions and
 * fast-math add, into out: "__fprintf_chk" -> "fprintf". */
void symname_core(const char *name, char *out, size_t n);
/* A C++ (mangled) name? */
int symname_mangled(const char *name);
/* A function of CUB, Thrust or libcu++ (by its mangled name)? */
int symname_cccl(const char *name);

#endif /* GRADER_SYMNAME_H */
