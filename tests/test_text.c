/* SPDX-License-Identifier: MIT */
/* base/text.c (issue 30, F7, F9): control characters made visible, Markdown escaped, URL
 * passwords hidden. Expected strings are written out by hand from the rules in base/text.h. */
#include "base/text.h"
#include "tests/harness.h"
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *in, *want;
} term_cases[] = {
    {"Q1 ok", "Q1 ok"},
    {"\033]0;pwned\a", "\\e]0;pwned\\a"},		  /* OSC retitle: ESC and BEL */
    {"a\rQ1 regression\n", "a\\rQ1 regression\\n"}, /* CR/LF faking a line */
    {"tab\there", "tab\\there"},
    {"del\x7f", "del\\x7f"},
    {"nul\x01x", "nul\\x01x"},
    {"back\\slash", "back\\\\slash"},
    {"C1 \xc2\x9b" "31m", "C1 \\xc2\\x9b31m"},	  /* U+009B, the 8-bit CSI */
    {"raw \x9b", "raw \\x9b"},			  /* a lone byte that is not UTF-8 */
    {"caf\xc3\xa9 \xe2\x80\x93", "caf\xc3\xa9 \xe2\x80\x93"}, /* é and – stay */
    {"overlong \xc0\xaf", "overlong \\xc0\\xaf"},
    {"cut \xe2\x80", "cut \\xe2\\x80"},
};

TH_TEST(text, term_escapes_every_control_character)
{
	char out[256];
	for (size_t i = 0; i < sizeof(term_cases) / sizeof(term_cases[0]); i++) {
		util_term(out, sizeof(out), term_cases[i].in);
		CU_ASSERT_STRING_EQUAL(out, term_cases[i].want);
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		CU_ASSERT_EQUAL(util_term_fputs(f, term_cases[i].in, 0), 0);
		fclose(f);
		CU_ASSERT_STRING_EQUAL(buf, term_cases[i].want);
		free(buf);
	}
}

TH_TEST(text, term_keeps_newlines_when_asked_and_cuts_whole_escapes)
{
	char *buf = NULL, out[6];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	util_term_fputs(f, "plan\n\033x", UTIL_TERM_KEEP_LF);
	fclose(f);
	CU_ASSERT_STRING_EQUAL(buf, "plan\n\\ex");
	free(buf);
	util_term(out, sizeof(out), "ab\033cd"); /* "ab\e" is 4 bytes, "ab\ec" 5 */
	CU_ASSERT_STRING_EQUAL(out, "ab\\ec");
	util_term(out, 4, "a\033"); /* "a\e" needs 4 with its NUL: fits */
	CU_ASSERT_STRING_EQUAL(out, "a\\e");
	util_term(out, 3, "a\033"); /* no half escape */
	CU_ASSERT_STRING_EQUAL(out, "a");
	CU_ASSERT_STRING_EQUAL(util_term(out, sizeof(out), NULL), "");
}

TH_TEST(text, markdown_shows_tags_and_pipes_as_text)
{
	char out[256];
	CU_ASSERT_STRING_EQUAL(util_md(out, sizeof(out), "<script>alert(1)</script>"),
			       "&lt;script&gt;alert(1)&lt;/script&gt;");
	CU_ASSERT_STRING_EQUAL(util_md(out, sizeof(out), "a|b *c* _d_ [e](f) `g` #h ~i & \\"),
			       "a\\|b \\*c\\* \\_d\\_ \\[e\\](f) \\`g\\` \\#h \\~i &amp; \\\\\\\\");
	CU_ASSERT_STRING_EQUAL(util_md(out, sizeof(out), "x\033y\n"), "x\\\\ey\\\\n");
	CU_ASSERT_STRING_EQUAL(util_md_code(out, sizeof(out), "cmp_old.json"), "`cmp_old.json`");
	CU_ASSERT_STRING_EQUAL(util_md_code(out, sizeof(out), "a`b"), "`` a`b ``");
	CU_ASSERT_STRING_EQUAL(util_md_code(out, sizeof(out), "<b>\a"), "`<b>\\a`");
}

TH_TEST(text, redact_hides_url_passwords_only)
{
	char out[256];
	CU_ASSERT_STRING_EQUAL(util_redact(out, sizeof(out), "mysql://root:S3cretPW@host/db"),
			       "mysql://root:***@host/db");
	CU_ASSERT_STRING_EQUAL(
	    util_redact(out, sizeof(out),
			"bad history store URL 'mysql://u:p@h:3306/d?socket=/s': no password"),
	    "bad history store URL 'mysql://u:***@h:3306/d?socket=/s': no password");
	CU_ASSERT_STRING_EQUAL(util_redact(out, sizeof(out), "mysql://root@host:3306/db"),
			       "mysql://root@host:3306/db");
	CU_ASSERT_STRING_EQUAL(util_redact(out, sizeof(out), "a://x:1@h b://y:2@k"),
			       "a://x:***@h b://y:***@k");
	CU_ASSERT_STRING_EQUAL(util_redact(out, sizeof(out), "no url: here"), "no url: here");
	util_redact(out, 12, "mysql://root:S3cretPW@host/db"); /* cut, never the password */
	CU_ASSERT_PTR_NULL(strstr(out, "S3c"));
	CU_ASSERT_EQUAL(strlen(out), 11);
}

TH_TEST(text, size_human_in_binary_units)
{
	static const struct {
		uint64_t bytes;
		const char *want;
	} cases[] = {
	    {0, "0 B"},
	    {1023, "1023 B"},
	    {1024, "1.0 KiB"},
	    {43008, "42 KiB"},
	    {UINT64_C(1048064), "1.0 MiB"}, /* 1023.5 KiB would print as 1024: the next unit */
	    {UINT64_C(1047552), "1023 KiB"},
	    {UINT64_C(1395864371), "1.3 GiB"},
	    {UINT64_C(10) << 30, "10 GiB"},
	    {UINT64_MAX, "16 EiB"},
	};
	char out[32];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CU_ASSERT_STRING_EQUAL(util_size_human(out, sizeof(out), cases[i].bytes),
				       cases[i].want);
	char tiny[4];
	CU_ASSERT_STRING_EQUAL(util_size_human(tiny, sizeof(tiny), 43008), "42 ");
}

TH_MAIN(text)
