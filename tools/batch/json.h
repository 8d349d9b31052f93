/* SPDX-License-Identifier: MIT */
/*
 * json.h - JSON as the batch writes and checks it: a string escaped, a
 * note put in front of a results.json's output, and a results.json that
 * sandboxed code wrote checked (RFC 8259 syntax) and taken out.
 * Floor 0 (batch.h): uses util and files.
 */
#ifndef BATCH_JSON_H
#define BATCH_JSON_H

#include <stddef.h>

/* s as the inside of a JSON string (no quotes); a new string. */
char *bt_json_escape(const char *s);
/* Put note in front of the top-level "output" text of a results.json. */
int bt_json_add_note(const char *json_path, const char *note);
/* text is one JSON object (RFC 8259 syntax, nothing after it). */
int bt_json_valid(const char *text);
/* Copy a results.json that sandboxed code wrote (from) to to, outside:
 * a regular file, no link followed, at most max bytes, one JSON object.
 * 0, or -1 with the reason in why. */
int bt_take_json(const char *from, const char *to, long max, char *why,
		 size_t n);

#endif /* BATCH_JSON_H */
