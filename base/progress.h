/* SPDX-License-Identifier: MIT */
/* The progress display of the commands: a live line redrawn in place on a terminal, permanent
 * lines printed above it, and the figures such lines show (rate, ETA, percent, durations). */
#ifndef DBT3_PROGRESS_H
#define DBT3_PROGRESS_H
#include "base/util.h"
#include <stdint.h>
#include <stdio.h>

/* Back to the start of the line and erase it (a terminal's carriage return and EL). */
#define PROGRESS_ERASE "\r\033[K"

enum progress_flags {
	PROGRESS_LIVE = 1 << 0,	 /* draw the live line (the stream is a terminal) */
	PROGRESS_QUIET = 1 << 1, /* print nothing at all, not even permanent lines (--quiet) */
	PROGRESS_KEEP = 1 << 2,	 /* a live line ended by another line stays, with a newline */
};

/* One stream's display; progress_init fills it, nothing to free. */
struct progress {
	FILE *f;
	unsigned flags;	      /* enum progress_flags */
	uint64_t interval_ns; /* least time between two draws of an open live line */
	uint64_t last_ns;     /* when the open live line was drawn */
	int open;	      /* a live line is on screen, without its newline */
};

/* PROGRESS_QUIET when quiet, else PROGRESS_LIVE when f is a terminal, else 0. */
unsigned progress_mode(FILE *f, int quiet);

void progress_init(struct progress *p, FILE *f, unsigned flags, uint64_t interval_ns);

/* 1 when a draw at now_ns would show: live, not quiet, and no live line open or the open one
 * drawn at least interval_ns before. Lets a caller skip composing a line that would not show. */
int progress_due(const struct progress *p, uint64_t now_ns);

/* Redraws the live line with the text when progress_due(p, now_ns); 1 when drawn. */
int progress_draw(struct progress *p, uint64_t now_ns, const char *fmt, ...) UTIL_PRINTF(3, 4);

/* Replaces the live line by a last one that stays on screen (live displays only). */
void progress_done(struct progress *p, const char *fmt, ...) UTIL_PRINTF(2, 3);

/* A permanent line (a newline is added), on a terminal or not unless quiet: an open live line
 * is ended first (erased, or kept with PROGRESS_KEEP). */
void progress_note(struct progress *p, const char *fmt, ...) UTIL_PRINTF(2, 3);

/* Ends an open live line: erased, or kept with a newline with PROGRESS_KEEP. */
void progress_end(struct progress *p);

/* Erases an open live line, with or without PROGRESS_KEEP. */
void progress_clear(struct progress *p);

/* amount / seconds; 0 before any time has passed (seconds <= 0). */
double progress_rate(double amount, double seconds);

/* The seconds left when a fraction of the work took elapsed seconds and the rest goes at the
 * same pace: elapsed / fraction - elapsed, never negative; NaN while fraction <= 0. */
double progress_eta(double elapsed, double fraction);

/* 100 * done / total; 0 when total <= 0. */
double progress_percent(int64_t done, int64_t total);

/* Seconds rounded to the nearest second as "m:ss", from an hour on "h:mm:ss"; "--:--" when
 * unknown (NaN, negative, or 10^15 s and beyond). */
void progress_duration(char *out, size_t len, double seconds);

#endif
