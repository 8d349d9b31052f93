/* SPDX-License-Identifier: MIT */
/*
 * worked-cases.h - what tools/worked-cases.c gives each lab's worked cases
 * (tools/worked-cases/labNN.c), and the one function each of those gives
 * it back.
 */
#ifndef WORKED_CASES_H
#define WORKED_CASES_H

#include <stdio.h>

#include "rng.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A header's first lines: its name, and whose worked cases it holds. */
void header(FILE *f, const char *name, const char *ex);
/* DIR/NAME for writing, or exit 2. */
FILE *open_out(const char *dir, const char *name);
/* The lab's headers of worked cases, into dir (labNN.c). */
void write_cases(const char *dir, struct wb_rng *rng);

#endif /* WORKED_CASES_H */
