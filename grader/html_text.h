/* SPDX-License-Identifier: MIT */
/*
 * html_text.h - text for pages (html_text.c): HTML escaping and the style
 * sheet report.html and make batch's class page share, and the UTF-8
 * check under both (declared in formats.h too, for the files' writers).
 */
#ifndef GRADER_HTML_TEXT_H
#define GRADER_HTML_TEXT_H

#include <stdio.h>

/* The pages' CSS: verdict colours, tables, cards, charts. */
extern const char html_css[];

/* s as HTML text or attribute value: & < > " ' escaped, invalid UTF-8
 * and control characters but tab and newline replaced by U+FFFD. */
void html_str(FILE *f, const char *s);

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
int report_utf8_len(const unsigned char *s);

#endif /* GRADER_HTML_TEXT_H */
