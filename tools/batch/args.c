/* SPDX-License-Identifier: MIT */
/*
 * args.c - argument vectors (args.h): an add that does not fit marks the
 * vector, which is then never run.
 *
 * Floor 0 (batch.h): uses batch.h's limits.
 */
#include "args.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bt_args_init(struct bt_args *a)
{
	memset(a, 0, sizeof(*a));
}

void bt_args_add(struct bt_args *a, const char *s)
{
	char *copy = strdup(s);

	if (!copy || a->n >= BT_MAX_ARGS) {
		free(copy);
		a->overflow = 1;
		return;
	}
	a->v[a->n++] = copy;
	a->v[a->n] = NULL;
}

void bt_args_addf(struct bt_args *a, const char *fmt, ...)
{
	char buf[BT_PATH + 256];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0 || (size_t)len >= sizeof(buf)) {
		a->overflow = 1;
		return;
	}
	bt_args_add(a, buf);
}

void bt_args_free(struct bt_args *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	bt_args_init(a);
}
