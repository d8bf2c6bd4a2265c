/* SPDX-License-Identifier: MIT */
/* base/progress.c: what reaches the stream, byte for byte, and the figures the lines show;
 * expected strings and numbers are worked out by hand in the comments. */
#include "base/progress.h"
#include "tests/harness.h"
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define E PROGRESS_ERASE

/* A display writing into memory; text() is everything written so far. */
struct mem {
	FILE *f;
	char *buf;
	size_t len;
	struct progress p;
};

static void mem_open(struct mem *m, unsigned flags, uint64_t interval_ns)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m->f);
	progress_init(&m->p, m->f, flags, interval_ns);
}

static const char *text(struct mem *m)
{
	fflush(m->f);
	return m->buf;
}

static void mem_close(struct mem *m)
{
	fclose(m->f);
	free(m->buf);
}

TH_TEST(progress, draw_redraws_in_place_at_most_once_per_interval)
{
	struct mem m;
	mem_open(&m, PROGRESS_LIVE, 100);
	CU_ASSERT_EQUAL(progress_draw(&m.p, 1000, "a %d", 1), 1);
	CU_ASSERT_EQUAL(progress_draw(&m.p, 1099, "a %d", 2), 0); /* 99 < 100 after the first */
	CU_ASSERT_EQUAL(progress_draw(&m.p, 1100, "a %d", 3), 1); /* 100: due again */
	CU_ASSERT_EQUAL(progress_draw(&m.p, 1150, "a %d", 4), 0); /* 50 after the third */
	CU_ASSERT_STRING_EQUAL(text(&m), E "a 1" E "a 3");
	mem_close(&m);
}

TH_TEST(progress, note_erases_the_live_line_and_stays)
{
	struct mem m;
	mem_open(&m, PROGRESS_LIVE, 100);
	progress_draw(&m.p, 1000, "live");
	progress_note(&m.p, "event %s", "one");
	progress_note(&m.p, "event %s", "two"); /* nothing open: no erase before it */
	/* the line is closed: a draw 1 ns later is due, then the end erases it */
	CU_ASSERT_EQUAL(progress_draw(&m.p, 1001, "again"), 1);
	progress_end(&m.p);
	progress_end(&m.p); /* nothing open: nothing written */
	CU_ASSERT_STRING_EQUAL(text(&m), E "live" E "event one\nevent two\n" E "again" E);
	mem_close(&m);
}

TH_TEST(progress, keep_ends_the_live_line_with_a_newline)
{
	struct mem m;
	mem_open(&m, PROGRESS_LIVE | PROGRESS_KEEP, 0);
	progress_draw(&m.p, 0, "  orders  40%%  3 s");
	progress_note(&m.p, "  %-9s rows in (%.1f s)", "orders", 3.26);
	progress_draw(&m.p, 0, "pool...");
	progress_end(&m.p);
	progress_draw(&m.p, 0, "x");
	progress_clear(&m.p); /* clear erases even with KEEP */
	CU_ASSERT_STRING_EQUAL(text(&m), E "  orders  40%  3 s\n"
					   "  orders    rows in (3.3 s)\n" E "pool...\n" E "x" E);
	mem_close(&m);
}

TH_TEST(progress, done_replaces_the_live_line_with_a_final_one)
{
	struct mem m;
	mem_open(&m, PROGRESS_LIVE, 1000);
	progress_draw(&m.p, 5, "gen: %-6s %d/%d rows", "nation", 10, 25);
	progress_done(&m.p, "gen: %-6s %d rows  done at %.1fs", "nation", 25, 0.26);
	progress_end(&m.p); /* the final line is closed: nothing to end */
	/* the next pass draws at once, though 1000 ns have not passed */
	CU_ASSERT_EQUAL(progress_draw(&m.p, 6, "gen: region"), 1);
	CU_ASSERT_STRING_EQUAL(text(&m), E "gen: nation 10/25 rows" E
					   "gen: nation 25 rows  done at 0.3s\n" E "gen: region");
	mem_close(&m);
}

TH_TEST(progress, not_a_terminal_gets_the_permanent_lines_only)
{
	struct mem m;
	mem_open(&m, 0, 0);
	CU_ASSERT_EQUAL(progress_due(&m.p, 1), 0);
	CU_ASSERT_EQUAL(progress_draw(&m.p, 1, "live"), 0);
	progress_done(&m.p, "final");
	progress_note(&m.p, "tables...");
	progress_end(&m.p);
	progress_clear(&m.p);
	CU_ASSERT_STRING_EQUAL(text(&m), "tables...\n");
	mem_close(&m);
}

TH_TEST(progress, quiet_prints_nothing)
{
	struct mem m;
	mem_open(&m, PROGRESS_QUIET | PROGRESS_LIVE | PROGRESS_KEEP, 0);
	CU_ASSERT_EQUAL(progress_draw(&m.p, 1, "live"), 0);
	progress_done(&m.p, "final");
	progress_note(&m.p, "tables...");
	progress_end(&m.p);
	CU_ASSERT_STRING_EQUAL(text(&m), "");
	mem_close(&m);
}

/* A pseudo-terminal is a terminal; a pipe is not. */
TH_TEST(progress, mode_is_live_on_a_terminal_only)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	CU_ASSERT_FATAL(master >= 0);
	CU_ASSERT_FATAL(grantpt(master) == 0 && unlockpt(master) == 0);
	int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	CU_ASSERT_FATAL(slave >= 0);
	FILE *tty = fdopen(slave, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(tty);
	CU_ASSERT_EQUAL(progress_mode(tty, 0), PROGRESS_LIVE);
	CU_ASSERT_EQUAL(progress_mode(tty, 1), PROGRESS_QUIET);
	fclose(tty);
	close(master);
	int fds[2];
	CU_ASSERT_FATAL(pipe(fds) == 0);
	FILE *pipe_end = fdopen(fds[1], "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(pipe_end);
	CU_ASSERT_EQUAL(progress_mode(pipe_end, 0), 0);
	CU_ASSERT_EQUAL(progress_mode(pipe_end, 1), PROGRESS_QUIET);
	fclose(pipe_end);
	close(fds[0]);
}

TH_TEST(progress, rate_eta_and_percent_match_hand_computed_values)
{
	/* 30 MiB in 4 s: 7.5 MiB/s; nothing measured yet: 0 */
	CU_ASSERT_DOUBLE_EQUAL(progress_rate(30.0, 4.0), 7.5, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(progress_rate(30.0, 0.0), 0.0, 0.0);
	/* a quarter done in 10 s: 40 s in all, 30 s left; 0.8 done in 12 s: 15 in all, 3 left */
	CU_ASSERT_DOUBLE_EQUAL(progress_eta(10.0, 0.25), 30.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(progress_eta(12.0, 0.8), 3.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(progress_eta(10.0, 1.0), 0.0, 0.0);
	CU_ASSERT_DOUBLE_EQUAL(progress_eta(10.0, 2.0), 0.0, 0.0); /* 5 - 10 < 0: never negative */
	CU_ASSERT(isnan(progress_eta(10.0, 0.0)));
	CU_ASSERT(isnan(progress_eta(10.0, NAN)));
	/* 1 of 3: 33.33...%, 3 of 3: 100%, 3000000 of 6000000: 50% */
	CU_ASSERT_DOUBLE_EQUAL(progress_percent(1, 3), 100.0 / 3.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(progress_percent(3, 3), 100.0, 0.0);
	CU_ASSERT_DOUBLE_EQUAL(progress_percent(3000000, 6000000), 50.0, 0.0);
	CU_ASSERT_DOUBLE_EQUAL(progress_percent(5, 0), 0.0, 0.0);
}

TH_TEST(progress, duration_reads_minutes_then_hours)
{
	static const struct {
		double s;
		const char *want;
	} cases[] = {
	    {0.0, "0:00"},	{0.49, "0:00"},	  {59.4, "0:59"},    {59.5, "1:00"},
	    {61.0, "1:01"},	{3599.4, "59:59"}, {3599.5, "1:00:00"}, {3725.0, "1:02:05"},
	    {90061.0, "25:01:01"}, {-1.0, "--:--"},  {NAN, "--:--"},    {INFINITY, "--:--"},
	    {1e300, "--:--"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[32];
		progress_duration(out, sizeof(out), cases[i].s);
		CU_ASSERT_STRING_EQUAL(out, cases[i].want);
	}
}

TH_MAIN(progress)
