/* SPDX-License-Identifier: MIT */
/* The progress display of the commands (base/progress.h). */
#include "base/progress.h"
#include "base/cli.h"
#include <math.h>
#include <stdarg.h>

unsigned progress_mode(FILE *f, int quiet)
{
	if (quiet)
		return PROGRESS_QUIET;
	return cli_is_tty(f) ? PROGRESS_LIVE : 0;
}

void progress_init(struct progress *p, FILE *f, unsigned flags, uint64_t interval_ns)
{
	*p = (struct progress){.f = f, .flags = flags, .interval_ns = interval_ns};
}

int progress_due(const struct progress *p, uint64_t now_ns)
{
	if (!(p->flags & PROGRESS_LIVE) || (p->flags & PROGRESS_QUIET))
		return 0;
	return !p->open || now_ns - p->last_ns >= p->interval_ns;
}

/* prefix, the formatted text, suffix; flushed so that a terminal shows it now. */
static void put_line(struct progress *p, const char *prefix, const char *fmt, va_list ap,
		     const char *suffix)
{
	fputs(prefix, p->f);
	vfprintf(p->f, fmt, ap);
	fputs(suffix, p->f);
	fflush(p->f);
}

int progress_draw(struct progress *p, uint64_t now_ns, const char *fmt, ...)
{
	if (!progress_due(p, now_ns))
		return 0;
	va_list ap;
	va_start(ap, fmt);
	put_line(p, PROGRESS_ERASE, fmt, ap, "");
	va_end(ap);
	p->open = 1;
	p->last_ns = now_ns;
	return 1;
}

void progress_done(struct progress *p, const char *fmt, ...)
{
	if (!(p->flags & PROGRESS_LIVE) || (p->flags & PROGRESS_QUIET))
		return;
	va_list ap;
	va_start(ap, fmt);
	put_line(p, PROGRESS_ERASE, fmt, ap, "\n");
	va_end(ap);
	p->open = 0;
}

void progress_note(struct progress *p, const char *fmt, ...)
{
	if (p->flags & PROGRESS_QUIET)
		return;
	progress_end(p);
	va_list ap;
	va_start(ap, fmt);
	put_line(p, "", fmt, ap, "\n");
	va_end(ap);
}

void progress_end(struct progress *p)
{
	if (!p->open)
		return;
	fputs(p->flags & PROGRESS_KEEP ? "\n" : PROGRESS_ERASE, p->f);
	fflush(p->f);
	p->open = 0;
}

void progress_clear(struct progress *p)
{
	if (!p->open)
		return;
	fputs(PROGRESS_ERASE, p->f);
	fflush(p->f);
	p->open = 0;
}

double progress_rate(double amount, double seconds)
{
	return seconds > 0 ? amount / seconds : 0;
}

double progress_eta(double elapsed, double fraction)
{
	if (!(fraction > 0))
		return NAN;
	double left = elapsed / fraction - elapsed;
	return left < 0 ? 0 : left;
}

double progress_percent(int64_t done, int64_t total)
{
	return total > 0 ? 100.0 * (double)done / (double)total : 0;
}

void progress_duration(char *out, size_t len, double seconds)
{
	if (!(seconds >= 0 && seconds < 1e15)) {
		snprintf(out, len, "--:--");
		return;
	}
	long t = (long)(seconds + 0.5);
	if (t >= 3600)
		snprintf(out, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(out, len, "%ld:%02ld", t / 60, t % 60);
}
