/* SPDX-License-Identifier: MIT */
/*
 * symname.c - names in nm's and PTX's text (symname.h): whole lines,
 * patterns and lists of them, a C library function's core name, C++'s
 * mangled names and the CUDA C++ libraries' (CCCL's) among them.
 */
#include "symname.h"

#include <stdio.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int symname_line(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; p && (p = strstr(p, word)); p++)
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

int symname_matches(const char *name, const char *pat)
{
	size_t n = strlen(pat);

	if (n && pat[n - 1] == '*')
		return !strncmp(name, pat, n - 1);
	return !strcmp(name, pat);
}

int symname_listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (symname_matches(name, list[i]))
			return 1;
	return 0;
}

/*
 * Without what fortification, C standard versions and fast-math add:
 * "__open_2" -> "open", "__fprintf_chk" -> "fprintf",
 * "__isoc99_sscanf" -> "sscanf", "__expf_finite" -> "expf",
 * "_environ" -> "environ".
 */
void symname_core(const char *name, char *out, size_t n)
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

int symname_mangled(const char *name)
{
	return !strncmp(name, "_Z", 2);
}

/* CUB's, Thrust's and libcu++'s functions, by their mangled names. */
static const char *const cccl[] = {
	"_ZN3cub*", "_ZNK3cub*", "_ZN6thrust*", "_ZNK6thrust*", "_ZN4cuda*",
	"_ZNK4cuda*",
};

int symname_cccl(const char *name)
{
	return symname_listed(name, cccl, COUNT(cccl));
}
