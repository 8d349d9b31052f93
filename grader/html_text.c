/* SPDX-License-Identifier: MIT */
/*
 * html_text.c - what the pages and files that carry a submission's text
 * share (html_text.h): UTF-8 checked byte by byte, HTML escaping, and the
 * pages' style sheet, which make batch's class page uses too (it links
 * this file alone of the grader's).
 */
#include "html_text.h"

#include <string.h>

int report_utf8_len(const unsigned char *s)
{
	int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 :
		s[0] >= 0xe0 && s[0] <= 0xef ? 3 :
		s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;

	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
		return 0; /* overlong, or a UTF-16 surrogate */
	if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0; /* overlong, or past U+10FFFF */
	return n;
}

const char html_css[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"color:#1f2328;background:#fff;max-width:1120px;margin:0 auto;"
	"padding:18px 24px}"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;"
	"border-bottom:1px solid #d0d7de;padding-bottom:4px}"
	"h3{font-size:15px;margin:0 0 4px}"
	".sub{color:#57606a;margin:0 0 12px}"
	".next{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;"
	"padding:8px 12px;margin:10px 0}"
	".total{font-size:16px;font-weight:600}"
	"table{border-collapse:collapse;width:100%}"
	"th,td{text-align:left;padding:3px 8px;border-bottom:1px solid #eaeef2;"
	"vertical-align:middle}th{font-size:12px;color:#57606a}"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}"
	".v{display:inline-block;padding:1px 7px;border-radius:10px;color:#fff;"
	"font-size:12px;font-weight:600;white-space:nowrap}"
	".v-PASS{background:#1a7f37}.v-WRONG{background:#cf222e}"
	".v-NOT_IMPLEMENTED{background:#6e7781}.v-COMPILE_ERROR{background:#bc4c00}"
	".v-CRASH,.v-TIMEOUT,.v-OUT_OF_BOUNDS,.v-MEMCHECK,.v-RACE,.v-SYNC"
	"{background:#a40e26}.v-SUSPICIOUS,.v-REJECTED{background:#8250df}"
	".v-ERROR{background:#57606a}.v-BUILT{background:#0969da}"
	".labgrid{display:grid;grid-template-columns:540px minmax(0,1fr);"
	"gap:0 16px;align-items:start}.charts{display:flex;flex-direction:column}"
	"@media (max-width:1000px){.labgrid{grid-template-columns:1fr}}"
	"td svg{display:block}tr.ex td{height:26px}"
	".card{border:1px solid #d0d7de;border-radius:6px;padding:10px 14px;"
	"margin:10px 0}.card .fig{color:#424a53;margin:4px 0}"
	"pre{background:#f6f8fa;border-radius:4px;padding:6px 8px;margin:4px 0;"
	"white-space:pre-wrap;word-break:break-word;font-size:12px}"
	"pre.diag{background:#ffebe9}.lines{margin:4px 0}.lines b{font-size:12px}"
	"svg text{font:11px system-ui,sans-serif;fill:#424a53}"
	"svg .title{font-weight:600;fill:#1f2328}svg .grid{stroke:#eaeef2}"
	"svg .roof{stroke:#24292f;stroke-width:2}"
	"svg .roof.dram{stroke-dasharray:6 4;stroke-width:1.5}"
	"svg .roof.peer{stroke:#bf8700;stroke-dasharray:5 3;stroke-width:1.5}"
	"svg .sol{stroke:#1a7f37;stroke-width:3}"
	"svg .gap{stroke:#0969da;stroke-dasharray:2 2}"
	"svg .colsol{font-weight:600;fill:#1f2328}"
	"svg .track{fill:#eaeef2}svg .naive{stroke:#57606a;stroke-width:1.5}"
	"svg .tier{stroke:#1f2328;stroke-dasharray:3 2}"
	"svg.history .tier{stroke:#8c959f}"
	".legend span{margin-right:14px;color:#424a53;font-size:12px}"
	"footer{margin-top:28px;color:#424a53}";

void html_str(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		int n;

		if (c >= 0x80) {
			n = report_utf8_len((const unsigned char *)s);
			if (n)
				fwrite(s, 1, n, f);
			else
				fputs("\xef\xbf\xbd", f);
			s += n ? n - 1 : 0;
		} else if (c == '&') {
			fputs("&amp;", f);
		} else if (c == '<') {
			fputs("&lt;", f);
		} else if (c == '>') {
			fputs("&gt;", f);
		} else if (c == '"') {
			fputs("&quot;", f);
		} else if (c == '\'') {
			fputs("&#39;", f);
		} else if (c < 0x20 && c != '\n' && c != '\t') {
			fputs("\xef\xbf\xbd", f);
		} else {
			fputc(c, f);
		}
	}
}

