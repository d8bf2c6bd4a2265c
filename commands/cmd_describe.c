/* SPDX-License-Identifier: MIT */
/* A command's options as JSON, for the generated man pages and completions (cmd_describe.h). */
#include "commands/cmd_describe.h"
#include "commands/cmd.h"
#include "commands/cmd_stat_opts.h"
#include "reports/rpt.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The words of an enumerated row: its own values, or the report formats of a --format row. */
static json_t *row_values(const struct cli_opt *row)
{
	json_t *a = json_array();
	if (!a)
		return NULL;
	if (row->kind == CLI_OPT_CALL && row->fn == cmd_take_format) {
		unsigned set = rpt_formats_of((enum rpt_report)row->code);
		for (unsigned i = 0; i < 32; i++)
			if ((set >> i) & 1u)
				json_array_append_new(
				    a, json_string(rpt_format_name((enum rpt_format)i)));
		return a;
	}
	for (const char *v = row->values; v && *v;) {
		size_t n = strcspn(v, "|");
		json_array_append_new(a, json_stringn(v, n));
		v += n + (v[n] == '|');
	}
	return a;
}

static const char *kind_name(enum cli_opt_kind k)
{
	static const char *const names[] = {"end",  "flag", "unset",  "string",	  "int",
					    "long", "size", "double", "fraction", "duration",
					    "list", "call", "group"};
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "unknown";
}

/* Appends the rows of opts to a, a group's heading as a row {"heading"} before its rows. */
static void add_rows(json_t *a, const struct cli_opt *opts)
{
	for (const struct cli_opt *r = opts; r->kind != CLI_OPT_END; r++) {
		if (r->kind == CLI_OPT_GROUP) {
			if (r->help)
				json_array_append_new(a, json_pack("{ss}", "heading", r->help));
			add_rows(a, r->table);
			continue;
		}
		if (r->flags & CLI_OPT_HIDDEN)
			continue;
		char letter[2] = {r->letter, '\0'};
		json_t *o = json_pack("{ss* ss* ss* ss* ss* ss}", "long", r->name, "short",
				      r->letter ? letter : NULL, "arg", r->arg, "help", r->help,
				      "old", r->old, "kind", kind_name(r->kind));
		if (o)
			json_object_set_new(o, "values", row_values(r));
		json_array_append_new(a, o);
	}
}

/* What usage(f) writes, as a string (NULL when out of memory). Caller frees. */
static char *capture(void (*usage)(FILE *f), const struct cli_opt *opts)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	if (usage)
		usage(m);
	else
		cli_opts_usage(m, opts);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int cmd_describe(FILE *f, const struct cli_opt *opts, void (*usage)(FILE *f))
{
	char *text = capture(usage, NULL), *list = capture(NULL, opts);
	json_t *rows = json_array();
	json_t *d = text && list && rows ? json_pack("{ss ss so}", "usage", text, "options_text",
						     list, "options", rows)
					 : NULL;
	if (!d)
		json_decref(rows);
	else
		add_rows(rows, opts);
	int rc = d && json_dumpf(d, f, JSON_INDENT(1)) == 0 ? 0 : -1;
	fputc('\n', f);
	json_decref(d);
	free(text);
	free(list);
	return rc;
}

int cmd_describe_commands(FILE *f)
{
	json_t *a = json_array();
	for (const struct cmd *c = cmd_table; a && c->name; c++)
		json_array_append_new(a,
				      json_pack("{ss ss}", "name", c->name, "summary", c->summary));
	json_t *d = a ? json_pack("{so ss}", "commands", a, "version", DBT3STAB_VERSION) : NULL;
	int rc = d && json_dumpf(d, f, JSON_INDENT(1)) == 0 ? 0 : -1;
	fputc('\n', f);
	json_decref(d);
	return rc;
}
