/* SPDX-License-Identifier: MIT */
/* A small aligned text table: cells are copied, widths are measured in characters (UTF-8). */
#include "reports/rpt_table.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void rpt_table_init(struct rpt_table *t, size_t ncols, const char *const *heads, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->ncols = ncols;
	t->align = align;
	rpt_table_row(t);
	for (size_t i = 0; i < ncols; i++)
		rpt_table_cell(t, NULL, "%s", heads[i]);
}

void rpt_table_release(struct rpt_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i].text);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

int rpt_table_row(struct rpt_table *t)
{
	struct rpt_cell *c = realloc(t->cells, (t->nrows + 1) * t->ncols * sizeof(*c));
	if (!c)
		return -1;
	t->cells = c;
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*c));
	t->nrows++;
	t->col = 0;
	return 0;
}

int rpt_table_cell(struct rpt_table *t, const char *color, const char *fmt, ...)
{
	if (t->col >= t->ncols || t->nrows == 0)
		return -1;
	struct rpt_cell *c = &t->cells[(t->nrows - 1) * t->ncols + t->col++];
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&c->text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		c->text = NULL;
		return -1;
	}
	c->color = color;
	return 0;
}

/* Display width: UTF-8 continuation bytes do not count. */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; s && *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

int rpt_table_print(FILE *f, const struct rpt_table *t, const char *indent, int color)
{
	size_t w[32] = {0};
	if (t->ncols > 32)
		return -1;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t i = 0; i < t->ncols; i++) {
			size_t cw = width(t->cells[r * t->ncols + i].text);
			w[i] = cw > w[i] ? cw : w[i];
		}
	for (size_t r = 0; r < t->nrows; r++) {
		/* drop trailing empty cells so lines have no trailing blanks */
		size_t last = t->ncols;
		while (last > 0 && width(t->cells[r * t->ncols + last - 1].text) == 0)
			last--;
		fputs(indent, f);
		for (size_t i = 0; i < last; i++) {
			const struct rpt_cell *c = &t->cells[r * t->ncols + i];
			const char *text = c->text ? c->text : "";
			size_t pad = w[i] - width(text);
			int right = t->align && t->align[i] == 'r';
			if (i)
				fputs("  ", f);
			if (right)
				fprintf(f, "%*s", (int)pad, "");
			if (color && c->color)
				fprintf(f, "%s%s\033[0m", c->color, text);
			else
				fputs(text, f);
			if (!right && i + 1 < last)
				fprintf(f, "%*s", (int)pad, "");
		}
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}
